import Foundation
import WidgetQuotaModel
import WidgetQuotaSupport

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
    /// the earliest of these. Clock hours and quota days are sums of such counts, so each grows
    /// with N too; they are tried busiest first, each only below the best population found so far
    /// (one evaluation of its minutes settles most), and bisected when it breaks there.
    package func firstExceeding(
        tier: QuotaTier, tokensPerRequest tokens: Double, above: Int, largest: Int,
        model: SimulationModel
    ) -> Int? {
        guard above < largest else { return nil }
        var best = Int.max  // earliest breaking population found so far
        if let c = LoadProjection.minuteThreshold(tier: tier, tokensPerRequest: tokens) {
            best = c <= 0 ? above + 1 : firstMinute(reaching: Double(c), above: above, largest: largest)
        }
        if let rph = tier.rph {
            let hours = perUserMean.count / TimeUnits.minutesPerHour
            best = firstWindow(
                over: rph, starts: (0..<hours).map { $0 * TimeUnits.minutesPerHour }, length: TimeUnits.minutesPerHour,
                above: above, best: best, largest: largest)
        }
        if let rpd = tier.rpd, model.completeQuotaDays > 0 {
            // A rolling day's busiest window starts where the expected load's busiest 24 hours do.
            let start =
                model.rollingQuotaDay
                ? (perUserMean.withUnsafeBufferPointer { LoadSummary.busiest24Hours($0)?.start } ?? 0) % TimeUnits.minutesPerDay
                : model.quotaStartMinute
            let days = model.rollingQuotaDay ? (perUserMean.count - start) / TimeUnits.minutesPerDay : model.completeQuotaDays
            best = firstWindow(
                over: rpd, starts: (0..<days).map { start + $0 * TimeUnits.minutesPerDay }, length: TimeUnits.minutesPerDay,
                above: above, best: best, largest: largest)
        }
        return best <= largest ? best : nil
    }

    /// The smallest population in `above + 1 ..< best` (at most `largest`) whose projected
    /// requests in one of the windows of `length` minutes at `starts` exceed `limit`; `best`
    /// when there is none. Windows are tried busiest first by the expected load, each only below
    /// the best population found so far, and bisected when it breaks there.
    private func firstWindow(over limit: Double, starts: [Int], length: Int, above: Int, best: Int, largest: Int) -> Int {
        func sum(_ start: Int, _ n: Int) -> Double {
            let users = Double(n)
            var total = 0.0
            for t in start..<(start + length) { total += value(minute: t, users: users) }
            return total
        }
        let expected = starts.map { perUserMean[$0..<($0 + length)].reduce(0, +) }
        var best = best
        for w in starts.indices.sorted(by: { expected[$0] > expected[$1] }) {
            var high = min(best - 1, largest)
            guard high > above, sum(starts[w], high) > limit else { continue }
            var low = above
            while high - low > 1 {
                let mid = low + (high - low) / 2
                if sum(starts[w], mid) > limit { high = mid } else { low = mid }
            }
            best = high
        }
        return best
    }

    /// The smallest whole number of requests in a minute that breaks the tier's per-minute limits
    /// (nil when it has none).
    package static func minuteThreshold(tier: QuotaTier, tokensPerRequest tokens: Double) -> Int? {
        func breaks(_ c: Int) -> Bool {
            let e = tier.exceeded(.init(perMinute: Double(c), perHour: 0, quotaDay: 0), tokensPerRequest: tokens)
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
        // Minutes whose root is within the tolerance of the lowest so far (the few that can be
        // first); pruned as the lowest falls, and once more at the end.
        func near(_ approx: Double, _ lowest: Double) -> Bool { approx <= lowest * (1 + 1e-9) + 2 }
        var candidates = [(minute: Int, approx: Double)]()
        var lowest = Double.infinity
        // A quick test first: x is below the target at the square root of a slightly wider bound
        // than `near` allows, so the root lies beyond it (x increases past its root). It skips
        // most minutes without the root's square root and division, and never a near one.
        var boundRoot = Double.infinity
        for t in 0..<perUserMean.count {
            let m = perUserMean[t]
            guard m > 0 else { continue }
            let a = (batch * m).squareRoot() * deviates[t]
            if boundRoot < .infinity {
                let growth = m * boundRoot * boundRoot
                let drift = a * boundRoot
                if growth + drift < target - 1e-9 * (growth + abs(drift) + target) { continue }
            }
            let root = (a * a + 4 * m * target).squareRoot()
            let s = a > 0 ? 2 * target / (a + root) : (root - a) / (2 * m)
            let approx = s * s
            guard near(approx, lowest) else { continue }
            if approx < lowest {
                lowest = approx
                boundRoot = ((lowest * (1 + 1e-9) + 2) * (1 + 1e-6)).squareRoot()
                if candidates.count >= 64 { candidates.removeAll { !near($0.approx, lowest) } }
            }
            candidates.append((t, approx))
        }
        guard lowest <= Double(largest) + 2 else { return Int.max }
        var best = Int.max
        for (t, approx) in candidates where near(approx, lowest) {
            // The exact formula decides: step from the root to the first population that reaches c.
            var n = max(1, Int(approx.rounded(.down)))
            while n > 1 && value(minute: t, users: Double(n - 1)) >= c { n -= 1 }
            var steps = 0
            while value(minute: t, users: Double(n)) < c && steps < 64 {
                n += 1
                steps += 1
            }
            if steps == 64 { n = firstMinuteByBisection(t, c: c, from: n, largest: largest) }
            best = min(best, n)
        }
        if best == Int.max || best > largest { return Int.max }
        return max(best, above + 1)
    }

    private func firstMinuteByBisection(_ t: Int, c: Double, from: Int, largest: Int) -> Int {
        var low = from
        var high = max(largest, from + 1)
        guard value(minute: t, users: Double(high)) >= c else { return Int.max }
        while high - low > 1 {
            let mid = low + (high - low) / 2
            if value(minute: t, users: Double(mid)) >= c { high = mid } else { low = mid }
        }
        return high
    }
}
