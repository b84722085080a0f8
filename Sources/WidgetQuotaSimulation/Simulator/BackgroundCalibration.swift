import Foundation
import WidgetQuotaSupport

/// The launch rate that gives a device the BGAppRefreshTask runs per day it should have.
///
/// The engine launches a submitted task at the first event of a Poisson process that starts at
/// the earliest begin date (submit + interval) and follows the day's background shape (mostly
/// at night). With a flat shape, a rate of 1 / (cycle − interval) gives one run per cycle. With
/// the real shape it does not: the earliest begin date after a night launch falls in the quiet
/// morning, so the wait is longer than the mean rate says and devices got 5–9% fewer runs than
/// `platform.backgroundRunsPerDay` asked for. This measures the mean cycle, and so the runs per
/// day, of a grid of rates, and reads the rate for the runs a device should have between them.
///
/// The mean cycle for a rate is computed, not sampled: the time of day of successive launches
/// is a Markov chain over the day's half-hours; from each start the wait's distribution
/// follows from the piecewise-constant rate, and the chain's stationary distribution weights
/// the mean waits.
package struct BackgroundCalibration: Sendable {
    /// Launch rates per day of the grid (ascending) and the runs per day each gives (ascending).
    private let runs: [Double]
    private let rates: [Double]
    package let intervalHours: Double

    /// Half-hours of a day, the chain's states (hours of the day shape, halved so that a start
    /// within an hour is not taken for its beginning).
    static let bins = 48

    init(shape: DayShape, intervalHours: Double) {
        self.intervalHours = intervalHours
        // The mean cycle falls as the rate grows, so runs per day (24 h ÷ cycle) rise with it:
        // measure them on a grid of rates and read the rate for any runs per day by interpolation.
        let grid = BackgroundCalibration.rateGrid(intervalHours: intervalHours)
        rates = grid
        runs = grid.map { .hoursPerDay / BackgroundCalibration.meanCycleHours(rate: $0, shape: shape, intervalHours: intervalHours) }
    }

    /// The launch rate per day (of the process started at each earliest begin date) that gives
    /// `runsPerDay` runs a day on average.
    func launchRate(runsPerDay r: Double) -> Double {
        let naive = BackgroundCalibration.naiveRate(runsPerDay: r, intervalHours: intervalHours)
        guard r > 0, naive.isFinite, let last = runs.last, let first = runs.first else { return naive }
        // The correction as a factor on the flat-shape rate, interpolated in log(runs).
        func factor(_ i: Int) -> Double { rates[i] / BackgroundCalibration.naiveRate(runsPerDay: runs[i], intervalHours: intervalHours) }
        if r <= first { return naive * factor(0) }
        if r >= last { return naive * factor(runs.count - 1) }
        var hi = 1
        while runs[hi] < r { hi += 1 }
        let w = (Foundation.log(r) - Foundation.log(runs[hi - 1])) / (Foundation.log(runs[hi]) - Foundation.log(runs[hi - 1]))
        return naive * (factor(hi - 1) * (1 - w) + factor(hi) * w)
    }

    /// The rate a flat day would need: one launch per (cycle − interval), the wait at least 15 min.
    static func naiveRate(runsPerDay r: Double, intervalHours: Double) -> Double {
        guard r > 0 else { return 0 }
        return .hoursPerDay / max(.hoursPerDay / r - intervalHours, 0.25)
    }

    /// Rates worth measuring: log-spaced from what 0.04 runs a day need on a flat day to well
    /// beyond what the most runs the interval allows need.
    static func rateGrid(intervalHours: Double) -> [Double] {
        let top = Double.hoursPerDay / max(intervalHours + 0.25, 0.25) * 0.97
        let low = naiveRate(runsPerDay: 0.04, intervalHours: intervalHours)
        let high = max(naiveRate(runsPerDay: top, intervalHours: intervalHours) * 2, low * 4)
        let count = 20
        return (0..<count).map { low * Foundation.pow(high / low, Double($0) / Double(count - 1)) }
    }

    /// Mean hours from one launch to the next at `rate` launches per day of the shaped process.
    package static func meanCycleHours(rate: Double, shape: DayShape, intervalHours: Double) -> Double {
        let n = bins
        let slot = Double.hoursPerDay / Double(bins)
        // Per half-hour slot: the rate per hour and the chance of no launch within it.
        var ratePerHour = [Double](repeating: 0, count: n)
        var survive = [Double](repeating: 1, count: n)
        var halfSurvive = [Double](repeating: 1, count: n)
        for k in 0..<n {
            let h = k * TimeUnits.hoursPerDay / n
            let share = shape.cumulative[h + 1] - shape.cumulative[h]
            ratePerHour[k] = rate * share
            survive[k] = Foundation.exp(-ratePerHour[k] * slot)
            halfSurvive[k] = Foundation.exp(-ratePerHour[k] * slot / 2)
        }
        let dayNoLaunch = Foundation.exp(-rate)  // a whole day passes without one
        let repeats = 1 / (1 - dayNoLaunch)  // later days repeat the first, scaled by the chance of reaching them
        // The interval in slots: a launch spread over slot k starts the next cycle in slot
        // k + whole or the one after, in proportion.
        let shift = intervalHours / slot
        let whole = Int(shift.rounded(.down))
        let fraction = shift - Double(whole)
        // From the middle of each start slot: the mean wait, and the chance that the next start
        // (launch + interval) falls in each slot, as one flat n × n matrix.
        var meanWait = [Double](repeating: 0, count: n)
        var next = [Double](repeating: 0, count: n * n)
        next.withUnsafeMutableBufferPointer { matrix in
            for start in 0..<n {
                var s = 1.0
                var wait = 0.0
                // Round the day back to the start: half a slot, n − 1 slots, half a slot.
                for step in 0...n {
                    let k = (start + step) % n
                    let half = step == 0 || step == n
                    let stay = half ? halfSurvive[k] : survive[k]
                    let launched = s * (1 - stay)
                    let slotWait: Double = half ? slot / 2 : slot
                    wait += ratePerHour[k] > 0 ? launched / ratePerHour[k] : s * slotWait
                    let row: Int = start * n
                    let landing: Int = (k + whole) % n
                    let next: Int = (k + whole + 1) % n
                    let weight: Double = launched * repeats
                    matrix[row + landing] += weight * (1 - fraction)
                    matrix[row + next] += weight * fraction
                    s *= stay
                }
                meanWait[start] = wait * repeats
            }
        }
        // The stationary distribution of the start half-hour, by power iteration.
        var p = [Double](repeating: 1 / Double(n), count: n)
        var q = [Double](repeating: 0, count: n)
        next.withUnsafeBufferPointer { matrix in
            for _ in 0..<500 {
                for k in 0..<n { q[k] = 0 }
                for start in 0..<n {
                    let weight = p[start]
                    let row = start * n
                    for k in 0..<n { q[k] += weight * matrix[row + k] }
                }
                var total = 0.0
                for k in 0..<n { total += q[k] }
                var change = 0.0
                for k in 0..<n {
                    let v = q[k] / total
                    change = Swift.max(change, abs(v - p[k]))
                    p[k] = v
                }
                if change < 1e-12 { break }
            }
        }
        return intervalHours + zip(p, meanWait).reduce(0) { $0 + $1.0 * $1.1 }
    }
}
