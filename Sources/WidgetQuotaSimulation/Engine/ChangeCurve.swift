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
struct ChangeCurve: Sendable {
    /// Expected changes before the start of each minute, from UTC midnight of the day before
    /// the simulation's first (minute 0); one more entry than minutes.
    private let cumulative: [Double]
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
        if let sessions {
            for session in sessions {
                spread(
                    perDay * scenario.calendar.factors(ofDay: session.day).dataChanges, from: session.start, to: session.end)
            }
        } else {
            for utcDay in Self.firstDay...(days + 1) {
                let f = scenario.calendar.factors(ofDay: utcDay - firstCountedDay + 1)
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

    /// Expected changes before UTC second `t` of the simulation (interpolated within its minute).
    @inline(__always) func before(_ t: Double) -> Double {
        let position = (t - Double(Self.firstDay) * .secondsPerDay) / .secondsPerMinute
        guard position > 0 else { return 0 }
        let last = cumulative.count - 1
        guard position < Double(last) else { return cumulative[last] }
        let m = Int(position)
        return cumulative[m] + (cumulative[m + 1] - cumulative[m]) * (position - Double(m))
    }

    /// The chance that at least one change falls in UTC seconds (`from`, `to`] (0 when `to` ≤ `from`).
    @inline(__always) func chanceOfChange(from: Double, to: Double) -> Double {
        guard to > from else { return 0 }
        return -Foundation.expm1(-(before(to) - before(from)))
    }
}
