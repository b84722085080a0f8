import Foundation
import WidgetQuotaModel
import WidgetQuotaSupport

/// Projects the per-minute load of a large population from a simulated sample of users.
///
/// Users are independent and identically distributed given the run's assumptions, so the count
/// in minute t for N users is a sum of N independent contributions: by the central limit theorem
/// it is close to Normal(N·m(t), b·N·m(t)), where m(t) is the mean per user and b the requests a
/// fetch sends at once. The same normal deviates serve every N (common random numbers), so the
/// projected load grows monotonically with N and a search over N is well defined.
///
/// m(t) is estimated from the sample, whose counts carry sampling noise that scaling to N would
/// multiply by √(N / n) — and the busiest minute would be the noisiest, not the busiest. So:
/// - on ordinary days (no outage or its aftermath) each minute of the day is pooled over every
///   such day, then denoised: a minute keeps its own mean only when its count stands out from
///   the median of its ±15 minutes by more than noise can explain (the stampede of an aligned
///   poll at :00 does; a lucky minute does not), and otherwise takes the mean of its neighbours
///   that do not stand out. "More than noise can explain" is the universal threshold √(2 ln m)
///   over m minutes, in Anscombe units (Poisson noise), times the sample's dispersion, which
///   the odd and the even users' counts measure (devices that repeat their minutes every day
///   make a sample noisier than Poisson);
/// - around an outage (the outage and the `recoveryHours` after it), a minute is its ordinary
///   mean plus the sample's excess over it, denoised likewise within each stretch between the
///   outage's start, end and recovery end (where the excess changes at once), over ±7 minutes
///   or, where the sample sends few requests, as many more (up to ±60) as hold about 100 of
///   them, and against the larger of those minutes' median and mean (one day's counts are
///   small, and the median of small counts sits below their mean). The retry storm just after
///   an outage stands out and is kept; noise is averaged, so that the hour after an outage is
///   not made busier than it was by the noise its busiest minute would pick up. The minutes
///   that stand out on ordinary days (an aligned poll's :00 and :30) are scaled instead, by
///   the sample's ratio to their ordinary counts over them and their ±7 like minutes.
package struct LoadProjection: Sendable {
    /// Per-user mean requests for each counted minute.
    package internal(set) var perUserMean: [Double]
    /// The ordinary per-user means, where an outage disturbs some minutes (nil: none does).
    var ordinaryPerUserMean: [Double]?
    package let batch: Double
    /// Each minute's standard normal deviate, the same for every population (common random numbers).
    let deviates: [Double]

    /// Half-widths, in minutes, of the windows described above.
    static let ordinaryHalfWindow = 15
    static let disturbedHalfWindow = 7
    /// Around an outage the half-window widens, up to an hour, until it holds about this many of
    /// the sample's requests (a level known to ±10%).
    static let countsPerWindow = 100.0
    static let widestDisturbedHalfWindow = 60

    /// - Parameters:
    ///   - sample: per-minute counts of `sampleUsers` simulated users.
    ///   - oddUsersSample: the same counts for the odd-numbered users alone: comparing the two
    ///     halves of the sample measures its noise, devices that repeat their minutes every day
    ///     included. Without it the noise is read from how far minutes stray from their neighbours.
    ///   - model: the run and design (its outages mark the minutes that are not ordinary).
    ///   - deviates: `LoadProjection.deviates(model:)` when the caller has them (they depend on
    ///     the run alone, so every design of a run shares them); drawn here otherwise.
    package init(
        sample: [Int32], oddUsersSample: [Int32]? = nil, sampleUsers: Int, model: SimulationModel, deviates: [Double]? = nil
    ) {
        let minutes = sample.count
        let n = Double(sampleUsers)
        // A fetch's requests come together: the burst's size, weighted by its requests where
        // each user's fetch sends a request per key it follows.
        let content = model.scenario.content
        // Each user's fetch sends a request per key it follows: the burst, weighted by its requests.
        let perKey = model.design.backend == nil && content.keysPerUserMix != nil && model.design.requestPerKey
        let keysFactor = perKey ? content.requestWeightedKeys : 1
        let b = Double(max(model.design.requestsPerFetch, 1)) * keysFactor
        batch = b
        let disturbed = LoadProjection.disturbedMinutes(model: model)
        // Days alike are pooled together: every day, or with open hours the days of each session
        // (its UTC minutes: a session moves an hour with daylight saving) and the closed days.
        let perDay = TimeUnits.minutesPerDay
        let dayClass = model.dayClasses
        let classes = (dayClass.max() ?? 0) + 1
        var pooledSum = [[Double]](repeating: [Double](repeating: 0, count: perDay), count: classes)
        var pooledOdd = pooledSum
        var pooledDays = pooledSum
        for t in 0..<minutes where !disturbed[t] {
            let c = dayClass[t / perDay]
            pooledSum[c][t % perDay] += Double(sample[t])
            pooledOdd[c][t % perDay] += Double(oddUsersSample?[t] ?? 0)
            pooledDays[c][t % perDay] += 1
        }
        let pooled = (0..<classes).map { c in
            let halves =
                oddUsersSample != nil && sampleUsers >= 2
                ? LoadProjection.halvesDispersion(all: pooledSum[c], odd: pooledOdd[c], users: sampleUsers, batch: b) : nil
            return LoadProjection.denoised(pooledSum: pooledSum[c], pooledDays: pooledDays[c], users: n, batch: b, dispersion: halves)
        }
        let dispersion = pooled.map(\.dispersion).max() ?? 1
        let ordinaryMeans = (0..<minutes).map { t in pooled[dayClass[t / perDay]].means[t % perDay] ?? 0 }
        let standsOut = { (t: Int) in pooled[dayClass[t / perDay]].standsOut[t % perDay] }
        var means = ordinaryMeans
        // Around an outage: the ordinary mean plus the sample's excess over it, the excess
        // denoised within each stretch between the outage's start, end and recovery end. The
        // minutes of the day that stand out on ordinary days (an aligned poll's :00 and :30)
        // are scaled among themselves instead: their change is their own, in proportion to
        // their level, not their quiet neighbours' excess.
        let segment = LoadProjection.segments(model: model, minutes: minutes)
        let threshold = (2 * Foundation.log(Double(max(disturbed.filter { $0 }.count, 2)))).squareRoot() * dispersion
        var t = 0
        while t < minutes {
            guard disturbed[t] else {
                t += 1
                continue
            }
            var end = t
            while end < minutes && disturbed[end] && segment[end] == segment[t] { end += 1 }
            let calm = (t..<end).filter { !standsOut($0) }
            let peaks = (t..<end).filter { standsOut($0) }
            let smoothed = LoadProjection.smoothedExcess(
                at: calm, sample: sample, ordinary: ordinaryMeans, users: n,
                batch: b, threshold: threshold)
            for (u, e) in zip(calm, smoothed) { means[u] = Swift.max(0, ordinaryMeans[u] + e) }
            let scaled = LoadProjection.scaledPeaks(
                at: peaks, sample: sample, ordinary: ordinaryMeans, users: n,
                batch: b, threshold: threshold)
            for (u, m) in zip(peaks, scaled) { means[u] = m }
            t = end
        }
        perUserMean = means
        ordinaryPerUserMean = disturbed.contains(true) ? ordinaryMeans : nil
        self.deviates = deviates ?? LoadProjection.deviates(model: model, minutes: minutes)
        precondition(self.deviates.count == minutes, "one deviate per counted minute")
    }

    /// The standard normal deviate of each of the first `minutes` (default: every counted minute)
    /// of `model`'s run: the same for every design of the run (common random numbers).
    package static func deviates(model: SimulationModel, minutes: Int? = nil) -> [Double] {
        var rng = RandomStream(seed: model.scenario.horizon.seed, .minuteLoad, UInt64(model.run))
        return (0..<(minutes ?? model.countedMinutes)).map { _ in rng.standardNormal() }
    }

    /// The sample's excess over the ordinary mean at `indices` (ascending minutes of one
    /// stretch around an outage), denoised: a minute keeps its own excess only when its count
    /// stands out by more than `threshold` (Anscombe units) from what its neighbours' excess
    /// predicts; the others take their calm neighbours' mean.
    static func smoothedExcess(
        at indices: [Int], sample: [Int32], ordinary: [Double], users n: Double, batch b: Double,
        threshold: Double
    ) -> [Double] {
        guard !indices.isEmpty else { return [] }  // a stretch of special minutes only
        let excess = indices.map { Double(sample[$0]) / n - ordinary[$0] }
        // Wide enough to hold some `countsPerWindow` requests of the sample, so that the level a
        // calm minute takes is not itself noise the busiest minute would pick up.
        let perMinute = Swift.max(indices.reduce(0.0) { $0 + Double(sample[$1]) } / Double(indices.count), 1e-9)
        let wanted = Int((countsPerWindow / perMinute - 1) / 2) + 1
        let h = Swift.min(Swift.max(disturbedHalfWindow, wanted), widestDisturbedHalfWindow)
        // Not below the neighbours' mean: one day's counts are small (a few a minute in a
        // sample), and the median of small counts sits below their mean, so an ordinary minute
        // would stand out against the median alone.
        let medians = neighbourMedians(excess, halfWindow: h, circular: false)
        let around = zip(medians, neighbourMeans(excess, halfWindow: h)).map { Swift.max($0, $1) }
        return denoise(excess, references: around, halfWindow: h, circular: false) { i, around in
            let u = indices[i]
            let expected = n * Swift.max(0, ordinary[u] + around)
            return countDistance(Double(sample[u]), expected: expected, batch: b) > threshold
        }
    }

    /// Per-user means at `indices`, minutes of one stretch around an outage that stand out on
    /// ordinary days: each is its ordinary mean times the ratio of the sample's requests to the
    /// ordinary ones over it and its ±7 such neighbours, unless its own count stands out from
    /// that by more than `threshold`, when it keeps its own.
    static func scaledPeaks(
        at indices: [Int], sample: [Int32], ordinary: [Double], users n: Double, batch b: Double,
        threshold: Double
    ) -> [Double] {
        indices.indices.map { i in
            let u = indices[i]
            var expectedSum = 0.0
            var sampleSum = 0.0
            forEachNeighbour(of: i, count: indices.count, halfWindow: disturbedHalfWindow, circular: false) { j in
                expectedSum += n * ordinary[indices[j]]
                sampleSum += Double(sample[indices[j]])
            }
            guard expectedSum > 0 else { return Double(sample[u]) / n }
            let ratio = sampleSum / expectedSum
            let scaled = ordinary[u] * ratio
            let standsOut = countDistance(Double(sample[u]), expected: n * scaled, batch: b) > threshold
            return standsOut ? Double(sample[u]) / n : scaled
        }
    }

    /// Per-user means per minute of the day from counts pooled over `pooledDays[τ]` ordinary days
    /// (nil where no ordinary day covers the minute), denoised as the type's comment describes,
    /// and the dispersion found: how much noisier the pooled counts are than Poisson counts
    /// (a device that polls at the same minutes every day adds to one minute on every day).
    static func denoised(
        pooledSum: [Double], pooledDays: [Double], users n: Double, batch b: Double,
        dispersion measured: Double? = nil
    ) -> (means: [Double?], standsOut: [Bool], dispersion: Double) {
        guard pooledDays.contains(where: { $0 > 0 }) else {
            return ([Double?](repeating: nil, count: TimeUnits.minutesPerDay), [Bool](repeating: false, count: TimeUnits.minutesPerDay), 1)
        }
        // Every minute of the day is covered as soon as one ordinary day is.
        let raw = (0..<TimeUnits.minutesPerDay).map { pooledDays[$0] > 0 ? pooledSum[$0] / pooledDays[$0] / n : 0 }
        let h = ordinaryHalfWindow
        func distance(_ tau: Int, _ around: Double) -> Double {
            countDistance(pooledSum[tau], expected: around * n * pooledDays[tau], batch: b)
        }
        // The dispersion: the median distance from the neighbours' median, against the 0.6745
        // a Normal variable's would be (robust to the few real spikes).
        let medians = neighbourMedians(raw, halfWindow: h, circular: true)
        let distances = (0..<TimeUnits.minutesPerDay).filter { pooledDays[$0] > 0 }.map { distance($0, medians[$0]) }
        let dispersion = measured ?? Swift.max(1, Statistics.median(distances) / 0.6745)
        let threshold = (2 * Foundation.log(Double.minutesPerDay)).squareRoot()
        let standsOut = (0..<TimeUnits.minutesPerDay).map { distance($0, medians[$0]) > threshold * dispersion }
        let smoothed = denoise(raw, references: medians, halfWindow: h, circular: true) { tau, _ in standsOut[tau] }
        return ((0..<TimeUnits.minutesPerDay).map { pooledDays[$0] > 0 ? smoothed[$0] : nil }, standsOut, dispersion)
    }

    /// How much noisier than Poisson counts the pooled per-minute counts are (at least 1), from
    /// the difference between the odd and the even users' counts of each minute of the day: the
    /// two halves share the model and differ only by sampling, so the spread of that difference
    /// is the sample's whole noise (the median of a squared Normal variable is 0.455).
    static func halvesDispersion(all: [Double], odd: [Double], users: Int, batch b: Double) -> Double? {
        let oddUsers = Double(users / 2)
        let evenUsers = Double(users - users / 2)
        var squares = [Double]()
        for tau in 0..<all.count {
            let a = odd[tau]
            let e = all[tau] - odd[tau]
            let variance = b * (a / (oddUsers * oddUsers) + e / (evenUsers * evenUsers))
            guard variance > 0 else { continue }
            let difference = a / oddUsers - e / evenUsers
            squares.append(difference * difference / variance)
        }
        guard squares.count >= 100 else { return nil }
        return Swift.max(1, (Statistics.median(squares) / 0.455).squareRoot())
    }

    /// How far an observed count is from an expected one, in standard deviations of Poisson
    /// noise (Anscombe's transform, good for small counts too); requests come `batch` at a time.
    static func countDistance(_ observed: Double, expected: Double, batch: Double) -> Double {
        abs(2 * (observed / batch + 0.375).squareRoot() - 2 * (expected / batch + 0.375).squareRoot())
    }

    /// Calls `body` with each index within `halfWindow` of `i` in a series of `count`, in order of
    /// offset from −halfWindow to +halfWindow (wrapping round when `circular`, as the minutes of a
    /// day do; otherwise skipping indices outside the series). Sums over neighbours run in this
    /// order, so they are the same to the last bit wherever they are taken.
    @inline(__always)
    static func forEachNeighbour(of i: Int, count: Int, halfWindow h: Int, circular: Bool, _ body: (Int) -> Void) {
        for offset in -h...h {
            let j = i + offset
            if circular {
                body(((j % count) + count) % count)
            } else if j >= 0 && j < count {
                body(j)
            }
        }
    }

    /// Each value's neighbours' median (itself included), the reference a spike stands out from.
    ///
    /// The window slides: it stays sorted, losing the value that leaves and taking the one that
    /// enters, so each step costs a window's length rather than a sort.
    package static func neighbourMedians(_ values: [Double], halfWindow h: Int, circular: Bool) -> [Double] {
        let count = values.count
        guard count > 0 else { return [] }
        var window = [Double]()
        window.reserveCapacity(2 * h + 1)
        forEachNeighbour(of: 0, count: count, halfWindow: h, circular: circular) { window.append(values[$0]) }
        window.sort()
        var medians = [Double]()
        medians.reserveCapacity(count)
        for i in 0..<count {
            if i > 0 {
                // The window of i is the window of i − 1 without i − 1 − h and with i + h.
                let leaving = i - 1 - h
                if circular || leaving >= 0 { remove(values[((leaving % count) + count) % count], from: &window) }
                let entering = i + h
                if circular || entering < count { insert(values[entering % count], into: &window) }
            }
            medians.append(Statistics.quantile(sorted: window, 0.5))
        }
        return medians
    }

    /// Inserts `value` into the ascending `sorted`, after any equal values.
    private static func insert(_ value: Double, into sorted: inout [Double]) {
        var low = 0
        var high = sorted.count
        while low < high {
            let mid = (low + high) / 2
            if sorted[mid] <= value { low = mid + 1 } else { high = mid }
        }
        sorted.insert(value, at: low)
    }

    /// Removes one value equal to `value` from the ascending `sorted` (which holds it).
    private static func remove(_ value: Double, from sorted: inout [Double]) {
        var low = 0
        var high = sorted.count
        while low < high {
            let mid = (low + high) / 2
            if sorted[mid] < value { low = mid + 1 } else { high = mid }
        }
        sorted.remove(at: low)
    }

    /// The mean of each value's neighbours within `halfWindow`, itself left out (a series that
    /// does not wrap round).
    static func neighbourMeans(_ values: [Double], halfWindow h: Int) -> [Double] {
        values.indices.map { i in
            var sum = 0.0
            var others = 0
            forEachNeighbour(of: i, count: values.count, halfWindow: h, circular: false) { j in
                guard j != i else { return }
                sum += values[j]
                others += 1
            }
            return others == 0 ? values[i] : sum / Double(others)
        }
    }

    /// `values` with noise removed: a value for which `standsOut(index, references[index])` is
    /// true is kept (a spike, a storm); any other takes the mean of its neighbours within
    /// `halfWindow` that do not stand out (so a spike is neither lost nor spread around).
    static func denoise(
        _ values: [Double], references: [Double], halfWindow h: Int, circular: Bool,
        standsOut test: (Int, Double) -> Bool
    ) -> [Double] {
        let standsOut = values.indices.map { test($0, references[$0]) }
        return values.indices.map { i in
            if standsOut[i] { return values[i] }
            var sum = 0.0
            var calm = 0
            forEachNeighbour(of: i, count: values.count, halfWindow: h, circular: circular) { j in
                guard !standsOut[j] else { return }
                sum += values[j]
                calm += 1
            }
            return calm == 0 ? values[i] : sum / Double(calm)
        }
    }

    /// For each counted minute, which stretch between outage boundaries (starts, ends and
    /// recovery ends) it lies in: the excess around an outage is estimated within one stretch.
    static func segments(model: SimulationModel, minutes: Int, recoveryHours: Double = 6) -> [Int] {
        var cuts = [Int]()
        for o in model.outages {
            for time in [o.start, o.end, o.end + recoveryHours * .secondsPerHour] {
                cuts.append(model.countedMinute(utc: time))
            }
        }
        cuts.sort()
        var segment = [Int](repeating: 0, count: minutes)
        var next = 0
        var id = 0
        for t in 0..<minutes {
            while next < cuts.count && cuts[next] <= t {
                next += 1
                id += 1
            }
            segment[t] = id
        }
        return segment
    }

    /// The projected per-minute series for `users` users.
    package func series(users: Int) -> [Double] {
        let population = Double(users)
        return zip(perUserMean, deviates).map { m, z in
            let mean = population * m
            return Double(Int(max(0, mean + (batch * mean).squareRoot() * z) + 0.5))
        }
    }

    /// Busiest minute, clock hour and complete quota day of the projected series, without building it.
    package func peaks(users: Int, model: SimulationModel) -> QuotaPeaks {
        if model.rollingQuotaDay {
            let all = series(users: users)
            return all.withUnsafeBufferPointer {
                QuotaPeaks(
                    perMinute: $0.max() ?? 0, perHour: LoadSummary.busiestClockHour($0, from: 0, to: $0.count),
                    quotaDay: LoadSummary.busiest24Hours($0)?.sum ?? 0)
            }
        }
        let population = Double(users)
        var peak = 0.0
        var hour = 0.0
        var bestHour = 0.0
        var day = 0.0
        var bestDay = 0.0
        let start = model.quotaStartMinute
        let end = start + model.completeQuotaDays * TimeUnits.minutesPerDay
        for t in 0..<perUserMean.count {
            let mean = population * perUserMean[t]
            let v = Double(Int(max(0, mean + (batch * mean).squareRoot() * deviates[t]) + 0.5))
            if v > peak { peak = v }
            hour += v
            if t % TimeUnits.minutesPerHour == 59 || t == perUserMean.count - 1 {
                bestHour = max(bestHour, hour)
                hour = 0
            }
            if t >= start && t < end {
                day += v
                if (t - start) % TimeUnits.minutesPerDay == 1_439 {
                    bestDay = max(bestDay, day)
                    day = 0
                }
            }
        }
        return QuotaPeaks(perMinute: peak, perHour: bestHour, quotaDay: bestDay)
    }

    /// The projection of ordinary days: every minute at the sample's ordinary mean for its minute
    /// of the day, outages and their recovery included; same deviates, so it differs from this
    /// projection only where an outage disturbs the load. Use it with the model's `withoutOutages()`.
    package func withoutDisturbance() -> LoadProjection {
        var calm = self
        if let ordinary = ordinaryPerUserMean { calm.perUserMean = ordinary }
        calm.ordinaryPerUserMean = nil
        return calm
    }

    /// Replaces each disturbed minute of `series` (counted minutes) by the mean of the same minute
    /// of the day over the days on which it is not disturbed: the load as ordinary days have it.
    static func replaceDisturbed(_ series: UnsafeMutableBufferPointer<Double>, disturbed: [Bool]) {
        let perDay = TimeUnits.minutesPerDay
        var sum = [Double](repeating: 0, count: perDay)
        var days = [Double](repeating: 0, count: perDay)
        for t in 0..<min(series.count, disturbed.count) where !disturbed[t] {
            sum[t % perDay] += series[t]
            days[t % perDay] += 1
        }
        for t in 0..<min(series.count, disturbed.count) where disturbed[t] {
            series[t] = days[t % perDay] > 0 ? sum[t % perDay] / days[t % perDay] : 0
        }
    }

    /// Minutes that belong to an outage or the `recoveryHours` after it.
    package static func disturbedMinutes(model: SimulationModel, recoveryHours: Double = 6) -> [Bool] {
        var mask = [Bool](repeating: false, count: model.countedMinutes)
        for o in model.outages {
            let from = model.countedMinute(utc: o.start)
            let to = Int(((o.end + recoveryHours * .secondsPerHour - model.countedStartUTC) / .secondsPerMinute).rounded(.up))
            for t in max(0, from)..<min(mask.count, max(to, 0)) { mask[t] = true }
        }
        return mask
    }
}
