import Foundation
import WidgetQuotaModel
import WidgetQuotaSupport

/// Load that users do not send independently, added to a `LoadProjection` after it has pooled
/// the independent part over days: broadcast pushes, which reach every device of a content key
/// together, and days that the calendar makes unlike each other.
extension LoadProjection {
    /// Adds `shared` (requests per user in each counted minute) to every minute's mean.
    package mutating func add(shared: [Double]) {
        for t in perUserMean.indices { perUserMean[t] += shared[t] }
        if var ordinary = ordinaryPerUserMean {
            for t in ordinary.indices { ordinary[t] += shared[t] }
            ordinaryPerUserMean = ordinary
        }
    }

    /// Scales each counted UTC day to the sample's own requests that day: the pooled minute of the
    /// day keeps its shape, and a match day or an event day its level. Minutes an outage
    /// disturbs are left out of the ratio.
    package mutating func scaleDays(sample: [Int32], sampleUsers: Int, model: SimulationModel) {
        let disturbed = LoadProjection.disturbedMinutes(model: model)
        let perDay = TimeUnits.minutesPerDay
        let n = Double(sampleUsers)
        for day in 0..<(perUserMean.count / perDay) {
            let range = (day * perDay)..<((day + 1) * perDay)
            var expected = 0.0
            var observed = 0.0
            for t in range where !disturbed[t] {
                expected += perUserMean[t] * n
                observed += Double(sample[t])
            }
            guard expected > 0 else { continue }
            let ratio = observed / expected
            for t in range { perUserMean[t] *= ratio }
            if var ordinary = ordinaryPerUserMean {
                for t in range { ordinary[t] *= ratio }
                ordinaryPerUserMean = ordinary
            }
        }
    }
}

/// The requests broadcast pushes send, per user of the whole population and counted minute: each
/// change of key k reaches the key's share of users spread evenly over the delivery window,
/// and sends as many requests per device it is sent to as the sample's devices did that UTC day
/// (deliveries, Low Power Mode, force-quit apps, the throttle and failures included: a day of
/// many changes loses more of them to the throttle).
package enum BroadcastLoad {
    /// - Parameters:
    ///   - sampleBroadcastRequests: the sample's broadcast requests per counted minute.
    ///   - sampleUsersByKey: how many sample users follow each key.
    package static func perUserMean(
        model: SimulationModel, sampleBroadcastRequests: UnsafeBufferPointer<Int32>, sampleUsersByKey: [Int]
    ) -> [Double] {
        let perDay = TimeUnits.minutesPerDay
        let days = model.countedMinutes / perDay
        // The sample's pushes sent and requests sent, per counted UTC day.
        var sent = [Double](repeating: 0, count: days)
        for (key, changes) in model.keyChanges.enumerated() where sampleUsersByKey[key] > 0 {
            for change in changes {
                let m = model.countedMinute(utc: change)
                if m >= 0 && m < model.countedMinutes { sent[m / perDay] += Double(sampleUsersByKey[key]) }
            }
        }
        var requests = [Double](repeating: 0, count: days)
        for m in 0..<min(sampleBroadcastRequests.count, days * perDay) { requests[m / perDay] += Double(sampleBroadcastRequests[m]) }
        let overall = sent.reduce(0, +) > 0 ? requests.reduce(0, +) / sent.reduce(0, +) : 0
        let perPush = zip(requests, sent).map { r, s in s > 0 ? r / s : overall }
        var mean = [Double](repeating: 0, count: model.countedMinutes)
        let shares = model.scenario.content.shares
        let window = max(model.scenario.content.deliveryWindowSeconds, 0)
        for (key, changes) in model.keyChanges.enumerated() {
            for change in changes {
                let m = model.countedMinute(utc: change)
                let r = m >= 0 && m / perDay < days ? perPush[m / perDay] : overall
                spread(shares[key] * r, from: change, over: window, into: &mean, model: model)
            }
        }
        return mean
    }

    /// Adds `amount` spread evenly over [start, start + seconds) (UTC) to the counted minutes it covers.
    static func spread(_ amount: Double, from start: Double, over seconds: Double, into mean: inout [Double], model: SimulationModel) {
        let origin = model.countedStartUTC
        guard seconds > 0 else {
            let m = Int(((start - origin) / .secondsPerMinute).rounded(.down))
            if m >= 0 && m < mean.count { mean[m] += amount }
            return
        }
        let first = Int(((start - origin) / .secondsPerMinute).rounded(.down))
        let last = Int(((start + seconds - origin) / .secondsPerMinute).rounded(.down))
        guard last >= 0, first < mean.count else { return }
        for m in max(first, 0)...min(last, mean.count - 1) {
            let from = max(start, origin + Double(m) * .secondsPerMinute)
            let to = min(start + seconds, origin + Double(m + 1) * .secondsPerMinute)
            if to > from { mean[m] += amount * (to - from) / seconds }
        }
    }
}
