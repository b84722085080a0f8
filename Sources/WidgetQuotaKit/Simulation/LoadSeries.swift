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

    /// Summarises a per-minute series that starts at UTC midnight of the first counted day.
    public init(series: UnsafeBufferPointer<Double>, quotaResetUTCOffsetHours: Double) {
        var peak = 0.0, total = 0.0
        for v in series {
            total += v
            if v > peak { peak = v }
        }
        self.peakPerMinute = peak
        self.total = total
        self.meanPerMinute = series.isEmpty ? 0 : total / Double(series.count)
        // The quota day starts at local midnight of the quota's zone: UTC minute -offset×60 (mod 1440).
        var start = Int((-quotaResetUTCOffsetHours * 60).rounded())
        start = ((start % 1_440) + 1_440) % 1_440
        var best = 0.0, bestDay = 0, day = 0
        while start + 1_440 <= series.count {
            var sum = 0.0
            for i in start..<(start + 1_440) { sum += series[i] }
            if sum > best { best = sum; bestDay = day }
            start += 1_440
            day += 1
        }
        self.peakQuotaDay = best
        self.busiestQuotaDay = bestDay
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
/// The same normal deviates are used for every N (common random numbers), so the projected load
/// grows monotonically with N.
public struct LoadProjection: Sendable {
    /// Per-user mean requests for each counted minute.
    public let perUserMean: [Double]
    public let batch: Double

    /// - Parameters:
    ///   - sample: per-minute counts of `sampleUsers` simulated users.
    ///   - disturbed: minutes that are not ordinary (outage and recovery).
    public init(sample: [Int32], sampleUsers: Int, disturbed: [Bool], batch: Double) {
        let minutes = sample.count
        let n = Double(sampleUsers)
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
        self.batch = max(batch, 1)
    }

    /// The projected per-minute series for `users` users, with deviates from `rng`'s key.
    public func series(users: Int, seed: UInt64, run: Int, design: Int) -> [Double] {
        var rng = RandomStream(seed: seed, 0x10AD, UInt64(run), UInt64(design))
        let N = Double(users)
        return perUserMean.map { m in
            let mean = N * m
            let z = rng.standardNormal()
            return max(0, (mean + (batch * mean).squareRoot() * z).rounded())
        }
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
