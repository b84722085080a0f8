import Foundation

/// What the per-minute request series of one population in one run says about quotas.
public struct LoadSummary: Sendable, Equatable {
    /// Requests in the busiest minute.
    public var peakPerMinute: Double
    /// Mean requests per minute over the counted window.
    public var meanPerMinute: Double
    /// Requests in the busiest complete quota day (the quota's own day, e.g. midnight Pacific).
    public var peakQuotaDay: Double
    /// Index of that quota day, 0 = first complete quota day in the window.
    public var busiestQuotaDay: Int
    /// Sum of the series.
    public var total: Double
    /// Busiest minute in the hour after the first outage ends (the retry storm), if there is one.
    public var afterOutagePeak: Double?
    /// The busiest minute in the same hour of the day on days without an outage, averaged.
    public var afterOutageUsualPeak: Double?

    /// Summarises a per-minute series that starts at UTC midnight of the first counted day.
    public init(series: UnsafeBufferPointer<Double>, model: SimulationModel) {
        var peak = 0.0, total = 0.0
        for v in series {
            total += v
            if v > peak { peak = v }
        }
        peakPerMinute = peak
        self.total = total
        meanPerMinute = series.isEmpty ? 0 : total / Double(series.count)
        var best = 0.0, bestDay = 0
        for day in 0..<model.completeQuotaDays {
            let start = model.quotaStartMinute + day * 1_440
            var sum = 0.0
            for i in start..<(start + 1_440) { sum += series[i] }
            if sum > best { best = sum; bestDay = day }
        }
        peakQuotaDay = best
        busiestQuotaDay = bestDay
        if let window = LoadSummary.stormWindow(model) {
            func windowPeak(_ from: Int) -> Double {
                var p = 0.0
                for i in max(from, 0)..<min(from + 60, series.count) { p = max(p, series[i]) }
                return p
            }
            afterOutagePeak = windowPeak(window.start)
            let disturbedDays = Set(window.days)
            let minuteOfDay = window.start % 1_440
            let usual = (0..<(series.count / 1_440)).filter { !disturbedDays.contains($0) }
                .map { windowPeak($0 * 1_440 + minuteOfDay) }
            afterOutageUsualPeak = usual.isEmpty ? nil : usual.reduce(0, +) / Double(usual.count)
        }
    }

    /// The hour after the first outage ends, as counted minutes, and the days an outage touches.
    static func stormWindow(_ model: SimulationModel) -> (start: Int, days: [Int])? {
        guard let o = model.outages.first else { return nil }
        let start = Int(((o.end - model.countedStartUTC) / 60).rounded(.down))
        guard start >= 0, start + 60 <= model.countedMinutes else { return nil }
        let first = Int(((o.start - model.countedStartUTC) / 60).rounded(.down)) / 1_440
        return (start, Array(max(first, 0)...((start + 60) / 1_440)))
    }
}

/// Projects the per-minute load of a large population from a simulated sample of users.
///
/// Users are independent and identically distributed given the run's assumptions, so the count
/// in minute t for N users is a sum of N independent contributions: by the central limit theorem
/// it is close to Normal(N·m(t), b·N·m(t)), where m(t) is the mean per user and b the requests a
/// fetch sends at once. m(t) is estimated from the sample, pooled over the same minute of every
/// ordinary day (days without an outage or its aftermath), which cuts the sampling noise by the
/// square root of the number of days; minutes around an outage use the sample's own counts.
/// The same normal deviates serve every N (common random numbers), so the projected load grows
/// monotonically with N and a search over N is well defined.
public struct LoadProjection: Sendable {
    /// Per-user mean requests for each counted minute.
    public let perUserMean: [Double]
    public let batch: Double
    private let deviates: [Double]

    /// - Parameters:
    ///   - sample: per-minute counts of `sampleUsers` simulated users.
    ///   - model: the run and design (its outages mark the minutes that are not ordinary).
    public init(sample: [Int32], sampleUsers: Int, model: SimulationModel) {
        let minutes = sample.count
        let n = Double(sampleUsers)
        let disturbed = LoadProjection.disturbedMinutes(model: model)
        var pooledSum = [Double](repeating: 0, count: 1_440)
        var pooledCount = [Double](repeating: 0, count: 1_440)
        for t in 0..<minutes where !disturbed[t] {
            pooledSum[t % 1_440] += Double(sample[t])
            pooledCount[t % 1_440] += 1
        }
        perUserMean = (0..<minutes).map { t in
            let tau = t % 1_440
            if disturbed[t] || pooledCount[tau] == 0 { return Double(sample[t]) / n }
            return pooledSum[tau] / pooledCount[tau] / n
        }
        batch = Double(max(model.design.requestsPerFetch, 1))
        // Keyed by run only, like every stream: a design's projection must not depend on
        // which other designs share the batch or where it stands in the list.
        var rng = RandomStream(seed: model.scenario.horizon.seed, 0x10AD, UInt64(model.run))
        deviates = (0..<minutes).map { _ in rng.standardNormal() }
    }

    /// The projected per-minute series for `users` users.
    public func series(users: Int) -> [Double] {
        let N = Double(users)
        return zip(perUserMean, deviates).map { m, z in
            let mean = N * m
            return Double(Int(max(0, mean + (batch * mean).squareRoot() * z) + 0.5))
        }
    }

    /// Peak minute and peak complete quota day of the projected series, without building it.
    public func peaks(users: Int, model: SimulationModel) -> (perMinute: Double, quotaDay: Double) {
        let N = Double(users)
        var peak = 0.0, day = 0.0, bestDay = 0.0
        let start = model.quotaStartMinute, end = start + model.completeQuotaDays * 1_440
        for t in 0..<perUserMean.count {
            let mean = N * perUserMean[t]
            let v = Double(Int(max(0, mean + (batch * mean).squareRoot() * deviates[t]) + 0.5))
            if v > peak { peak = v }
            if t >= start && t < end {
                day += v
                if (t - start) % 1_440 == 1_439 { bestDay = max(bestDay, day); day = 0 }
            }
        }
        return (peak, bestDay)
    }

    /// Minutes that belong to an outage or the `recoveryHours` after it.
    public static func disturbedMinutes(model: SimulationModel, recoveryHours: Double = 6) -> [Bool] {
        var mask = [Bool](repeating: false, count: model.countedMinutes)
        for o in model.outages {
            let from = Int(((o.start - model.countedStartUTC) / 60).rounded(.down))
            let to = Int(((o.end + recoveryHours * 3_600 - model.countedStartUTC) / 60).rounded(.up))
            for t in max(0, from)..<min(mask.count, max(to, 0)) { mask[t] = true }
        }
        return mask
    }
}

extension LoadProjection {
    /// The projected count in minute `t` for `users` users (the formula of `series` and `peaks`).
    @inline(__always) func value(minute t: Int, users: Double) -> Double {
        let mean = users * perUserMean[t]
        return Double(Int(max(0, mean + (batch * mean).squareRoot() * deviates[t]) + 0.5))
    }

    /// The smallest population in `above + 1 ... largest` whose projected load breaks `tier`, or nil.
    ///
    /// Gives what a bisection over `peaks(users:model:)` gives, without evaluating the whole series
    /// twenty times. Each minute's projected count, max(0, N·m + √(b·N·m)·z) rounded, grows with N
    /// (its positive part is increasing in √N), so "reaches c requests" holds from one population
    /// on: the root of a quadratic in √N, checked against the exact formula. The busiest minute is
    /// the earliest of these. Quota days are sums of such counts, so each grows with N too; the
    /// days are tried busiest first, each only below the best population found so far (one
    /// evaluation of its 1,440 minutes settles most), and bisected when it breaks there.
    func firstExceeding(tier: QuotaTier, tokensPerRequest tokens: Double, above: Int, largest: Int,
                        model: SimulationModel) -> Int? {
        guard above < largest else { return nil }
        var best = Int.max   // earliest breaking population found so far
        if let c = LoadProjection.minuteThreshold(tier: tier, tokensPerRequest: tokens) {
            best = c <= 0 ? above + 1 : firstMinute(reaching: Double(c), above: above, largest: largest)
        }
        if let rpd = tier.rpd, model.completeQuotaDays > 0 {
            let start = model.quotaStartMinute
            func daySum(_ d: Int, _ n: Int) -> Double {
                let users = Double(n)
                var sum = 0.0
                for t in (start + d * 1_440)..<(start + (d + 1) * 1_440) { sum += value(minute: t, users: users) }
                return sum
            }
            let expected = (0..<model.completeQuotaDays).map { d in
                perUserMean[(start + d * 1_440)..<(start + (d + 1) * 1_440)].reduce(0, +)
            }
            for d in expected.indices.sorted(by: { expected[$0] > expected[$1] }) {
                var high = min(best - 1, largest)
                guard high > above, daySum(d, high) > rpd else { continue }
                var low = above
                while high - low > 1 {
                    let mid = low + (high - low) / 2
                    if daySum(d, mid) > rpd { high = mid } else { low = mid }
                }
                best = high
            }
        }
        return best <= largest ? best : nil
    }

    /// The smallest whole number of requests in a minute that breaks the tier's per-minute limits
    /// (nil when it has none).
    static func minuteThreshold(tier: QuotaTier, tokensPerRequest tokens: Double) -> Int? {
        func breaks(_ c: Int) -> Bool {
            let e = tier.exceeded(peakPerMinute: Double(c), peakQuotaDay: 0, tokensPerRequest: tokens)
            return e.rpm || e.tpm
        }
        var guesses = [Int]()
        if let rpm = tier.rpm, rpm.isFinite { guesses.append(Int(max(0, min(rpm, 1e15)).rounded(.down)) + 1) }
        if let tpm = tier.tpm, tpm.isFinite, tokens > 0 { guesses.append(Int(max(0, min(tpm / tokens, 1e15)).rounded(.down)) + 1) }
        guard var c = guesses.min() else { return nil }
        guard breaks(c) || breaks(c + 1) || breaks(c + 2) else { return nil }
        while !breaks(c) { c += 1 }
        while c > 0 && breaks(c - 1) { c -= 1 }
        return c
    }

    /// The smallest population above `above` (at most `largest`) with a minute of `c` or more
    /// requests; `Int.max` when there is none.
    func firstMinute(reaching c: Double, above: Int, largest: Int) -> Int {
        // x = m·s² + √(b·m)·z·s with s = √N reaches c − 0.5 (which rounds up to c) from s⁺ on.
        let target = c - 0.5
        var approx = [Double](repeating: .infinity, count: perUserMean.count)
        var lowest = Double.infinity
        for t in 0..<perUserMean.count {
            let m = perUserMean[t]
            guard m > 0 else { continue }
            let a = (batch * m).squareRoot() * deviates[t]
            let root = (a * a + 4 * m * target).squareRoot()
            let s = a > 0 ? 2 * target / (a + root) : (root - a) / (2 * m)
            approx[t] = s * s
            lowest = min(lowest, s * s)
        }
        guard lowest <= Double(largest) + 2 else { return Int.max }
        var best = Int.max
        for t in 0..<perUserMean.count where approx[t] <= lowest * (1 + 1e-9) + 2 {
            // The exact formula decides: step from the root to the first population that reaches c.
            var n = max(1, Int(approx[t].rounded(.down)))
            while n > 1 && value(minute: t, users: Double(n - 1)) >= c { n -= 1 }
            var steps = 0
            while value(minute: t, users: Double(n)) < c && steps < 64 { n += 1; steps += 1 }
            if steps == 64 { n = firstMinuteByBisection(t, c: c, from: n, largest: largest) }
            best = min(best, n)
        }
        if best == Int.max || best > largest { return Int.max }
        return max(best, above + 1)
    }

    private func firstMinuteByBisection(_ t: Int, c: Double, from: Int, largest: Int) -> Int {
        var low = from, high = max(largest, from + 1)
        guard value(minute: t, users: Double(high)) >= c else { return Int.max }
        while high - low > 1 {
            let mid = low + (high - low) / 2
            if value(minute: t, users: Double(mid)) >= c { high = mid } else { low = mid }
        }
        return high
    }
}
