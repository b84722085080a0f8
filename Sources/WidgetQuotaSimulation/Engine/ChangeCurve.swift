import Foundation
import WidgetQuotaModel
import WidgetQuotaSupport

/// The expected data changes of one content key over the simulated window, cumulated minute by
/// minute: `api.dataChangesPerDay` a day times the day's calendar factor, spread over the day, its
/// change window or its open session, as `SimulationModel.keyChanges` draws them.
///
/// It says how likely a newer value has replaced content fetched at one time by a later time,
/// for designs whose fetches do not follow the changes (so the two are independent), without
/// drawing the changes: a stock quote changing every second needs no billion draws.
package struct ChangeCurve: Sendable {
    /// Expected changes before the start of each minute, from UTC midnight of the day before
    /// the simulation's first (minute 0); one more entry than minutes (empty with `evenRate`).
    private let cumulative: [Double]
    /// Expected changes a second when they come evenly all the time (no window, session or day
    /// factor differs), which spares the table; nil otherwise.
    private let evenRate: Double?
    private static let firstDay = -1

    /// The curve of `perDay` changes a day over UTC days −1 ... `days` + 1 of the simulation.
    /// - Parameter sessions: the calendar's open sessions over those days, in UTC seconds of the
    ///   simulation with their calendar day; nil without open hours.
    init(
        scenario: Scenario, perDay: Double, firstCountedDay: Int, days: Int, sessions: [(day: Int, start: Double, end: Double)]?
    ) {
        let minutes = (days + 3) * TimeUnits.minutesPerDay
        var perMinute = [Double](repeating: 0, count: minutes)
        let origin = Double(Self.firstDay) * .secondsPerDay
        // Adds `expected` changes spread evenly over UTC seconds [start, end).
        func spread(_ expected: Double, from start: Double, to end: Double) {
            guard expected > 0, end > start else { return }
            let density = expected / (end - start)
            let first = max(Int(((start - origin) / .secondsPerMinute).rounded(.down)), 0)
            let last = min(Int(((end - origin) / .secondsPerMinute).rounded(.up)), minutes)
            guard first < last else { return }
            for m in first..<last {
                let lo = max(start, origin + Double(m) * .secondsPerMinute)
                let hi = min(end, origin + Double(m + 1) * .secondsPerMinute)
                if hi > lo { perMinute[m] += density * (hi - lo) }
            }
        }
        let factors = (Self.firstDay...(days + 1)).map { scenario.calendar.factors(ofDay: $0 - firstCountedDay + 1) }
        let even = sessions == nil && factors.allSatisfy { $0.changeWindow == nil && $0.dataChanges == factors[0].dataChanges }
        evenRate = even ? perDay * factors[0].dataChanges / .secondsPerDay : nil
        guard !even else {
            cumulative = []
            return
        }
        if let sessions {
            for session in sessions {
                spread(
                    perDay * scenario.calendar.factors(ofDay: session.day).dataChanges, from: session.start, to: session.end)
            }
        } else {
            for (index, f) in factors.enumerated() {
                let utcDay = index + Self.firstDay
                let window = f.changeWindow ?? (0, 24)
                let start = Double(utcDay) * .secondsPerDay + window.start * .secondsPerHour
                spread(perDay * f.dataChanges, from: start, to: start + window.hours * .secondsPerHour)
            }
        }
        var running = 0.0
        var cumulative = [0.0]
        cumulative.reserveCapacity(minutes + 1)
        for expected in perMinute {
            running += expected
            cumulative.append(running)
        }
        self.cumulative = cumulative
    }

    /// Expected changes before UTC second `t` of the simulation (interpolated within its
    /// minute), from the table (not for `evenRate`).
    @inline(__always) func before(_ t: Double) -> Double {
        let position = (t - Double(Self.firstDay) * .secondsPerDay) / .secondsPerMinute
        guard position > 0 else { return 0 }
        let last = cumulative.count - 1
        guard position < Double(last) else { return cumulative[last] }
        let m = Int(position)
        return cumulative[m] + (cumulative[m + 1] - cumulative[m]) * (position - Double(m))
    }

    /// Expected changes in UTC seconds (`from`, `to`], `to` > `from`.
    @inline(__always) func expectedChanges(from: Double, to: Double) -> Double {
        evenRate.map { $0 * (to - from) } ?? (before(to) - before(from))
    }

    /// The chance that at least one change falls in UTC seconds (`from`, `to`] (0 when `to` ≤ `from`),
    /// for a user whose keys see `scale` times the curve's changes.
    @inline(__always) func chanceOfChange(from: Double, to: Double, scale: Double) -> Double {
        guard to > from else { return 0 }
        let expected = scale * (evenRate.map { $0 * (to - from) } ?? (before(to) - before(from)))
        return Self.chanceOfAny(expected: expected)
    }

    /// 1 − e^(−λ), the chance of at least one event of a Poisson count of mean λ ≥ 0, to about
    /// 1e-9: e^(−λ) as 2^(−n) × e^(−r), r within ±ln 2 ÷ 2, by its series to r⁸; plain arithmetic,
    /// so the same on every platform and several times faster than `expm1`.
    @inline(__always) package static func chanceOfAny(expected lambda: Double) -> Double {
        guard lambda > 1e-4 else { return lambda * (1 - lambda * 0.5) }
        guard lambda < 40 else { return 1 }
        // λ is positive: truncation after adding a half rounds (libm's round is a call).
        let n = Double(Int(lambda * 1.4426950408889634 + 0.5))
        let r = lambda - n * 0.6931471805599453
        // e^(−r) by Horner's rule.
        var e = 1.0 / 40320
        e = e * -r + 1.0 / 5040
        e = e * -r + 1.0 / 720
        e = e * -r + 1.0 / 120
        e = e * -r + 1.0 / 24
        e = e * -r + 1.0 / 6
        e = e * -r + 0.5
        e = e * -r + 1
        e = e * -r + 1
        return 1 - e * Double(sign: .plus, exponent: -Int(n), significand: 1)
    }
}
