import Foundation
import WidgetQuotaModel
import WidgetQuotaSupport

/// Silent pushes: when they are sent (the user's own data changes, or the content key's, broadcast
/// to every device of the key), and whether iOS delivers them.
extension UserSimulator {
    /// A data change reaching the device at `t`: a WidgetKit push reloads the widget's
    /// timelines; a silent push, if iOS delivers it, wakes the app for a task slice to fetch.
    mutating func push(at t: Double) {
        previousOwnChange = lastOwnChange
        lastOwnChange = t
        if constants.broadcastPushes {
            // Counted apart, and kept out of the halves the projection measures its noise with.
            let half = collected.halfBuckets
            collected.broadcastBuckets = collected.broadcastBucketsOfTask
            collected.halfBuckets = nil
            deliverPush(at: t)
            collected.broadcastBuckets = nil
            collected.halfBuckets = half
        } else {
            deliverPush(at: t)
        }
    }

    private mutating func deliverPush(at t: Double) {
        let isCounted = counted(t)
        if constants.widgetPushes {
            // WidgetKit reloads every instance, spending the budget as a reload call does.
            if isCounted { tally.widgetPushes += 1 }
            for i in 0..<instances { getTimeline(i, at: t, origin: .reloadCall) }
        }
        guard constants.fetchOnPush else { return }
        if isCounted { tally.pushesSent += 1 }
        guard pushDelivered(at: t) else { return }
        if isCounted { tally.pushesDelivered += 1 }
        pushDeadline = t + constants.taskSliceSeconds
        _ = fetch(at: t, actor: .app)
    }

    /// Whether iOS wakes the app for a silent push at `t`: not for an app the user force-quit, not
    /// in Low Power Mode (unless the scenario says it does), at most `silentPushesPerHour` an hour
    /// (a token bucket) and `silentPushesPerDay` a local day (the app's share of the device's
    /// daily budget), and then with the delivery share (they are low priority).
    mutating func pushDelivered(at t: Double) -> Bool {
        let drawn = random.pushDelivery.bernoulli(threshold: constants.pushDeliveryThreshold)
        if traits.forceQuits { return false }
        if !constants.silentPushesInLowPower && lowPowerDays[day(t)] { return false }
        let limit = constants.silentPushesPerHour
        pushTokens = Swift.min(limit, pushTokens + (t - pushTokensAt) * limit / .secondsPerHour)
        pushTokensAt = t
        guard pushTokens >= 1 else { return false }
        let today = day(t)
        if today != pushDay {
            pushDay = today
            pushesToday = 0
        }
        guard pushesToday < constants.silentPushesPerDay else { return false }
        guard drawn else { return false }
        pushTokens -= 1
        pushesToday += 1
        return true
    }

    /// The local time the next change of `pushChanges` reaches this device: the change's UTC
    /// time plus a delay within `pushDelayWindow`; never before `now` (two changes closer than
    /// the window may arrive in either order), +infinity when no change is left.
    mutating func nextPushFromChanges(after now: Double) -> Double {
        guard nextPushChange < pushChanges.count else { return .infinity }
        let change = pushChanges[nextPushChange]
        nextPushChange += 1
        let arrival = change + utcOffset + pushDelayWindow * random.push.uniform()
        return Swift.max(arrival, now)
    }
}
