import Foundation
import WidgetQuotaSupport

/// One user's days: how busy each local day is and whether it is spent in Low Power Mode.
package struct UserCalendar: Sendable {
    /// getTimeline multiplier per local day (the Gemini widget report: 15 calls on some days, 40+ on others).
    let dayFactor: [Double]
    /// Whether each local day is spent in Low Power Mode.
    package let lowPower: [Bool]
}

/// How a process spreads its events over the hours of a local day: 24 hourly weights turned
/// into cumulative shares of the day (shared by every user of a run).
package struct DayShape: Sendable {
    /// Share of the day's events before each hour (25 entries, from 0 to 1).
    package let cumulative: [Double]
    /// Seconds per unit share in each hour (0 where the hour has no weight).
    let secondsPerShare: [Double]

    package init(weights: [Double]) {
        let total = weights.reduce(0, +)
        var cumulative = [0.0]
        var running = 0.0
        for w in weights {
            running += w / total
            cumulative.append(running)
        }
        cumulative[24] = 1
        self.cumulative = cumulative
        secondsPerShare = weights.map { $0 > 0 ? .secondsPerHour * total / $0 : 0 }
    }
}

/// Event times of an inhomogeneous Poisson process whose rate is a per-day total spread over
/// the day by a `DayShape`.
///
/// Works in "operational time", the cumulative expected count: events are unit-exponential
/// steps in that clock, mapped back to real time by a forward scan over days, then hours, so
/// an event costs one exponential draw and a few comparisons. The day tables live in memory the
/// caller owns (a `SimulationWorkspace`), so building a clock allocates nothing.
package struct PoissonClock {
    /// Expected events before each day (days + 1 entries).
    private let dayCumulative: UnsafeMutablePointer<Double>
    /// 1 / expected events of each day (infinity for an empty day, which the scan skips).
    private let inverseDayMass: UnsafeMutablePointer<Double>
    private let dayMass: UnsafeMutablePointer<Double>
    private let shape: ShapeTable
    private let days: Int
    private var position = 0.0
    private var day = 0
    /// Start of `day` in seconds.
    private var dayStart = 0.0

    /// Builds the day tables in `storage` (3 × days + 1 doubles) from each day's expected count.
    @inline(__always)
    package init(storage: UnsafeMutablePointer<Double>, days: Int, shape: ShapeTable, dayMass mass: (Int) -> Double) {
        dayCumulative = storage
        inverseDayMass = storage + (days + 1)
        dayMass = storage + (2 * days + 1)
        self.shape = shape
        self.days = days
        var running = 0.0
        dayCumulative[0] = 0
        for d in 0..<days {
            let m = mass(d)
            dayMass[d] = m
            inverseDayMass[d] = m > 0 ? 1 / m : .infinity
            running += m
            dayCumulative[d + 1] = running
        }
    }

    /// The next event after the previous one (or after time 0); infinity past the window.
    @inline(__always)
    package mutating func next(_ rng: inout RandomStream, _ tables: ExponentialTables) -> Double {
        position += rng.exponential(tables)
        return locate()
    }

    /// The next event strictly after real time `t` (the process restarts at `t`).
    package mutating func next(after t: Double, _ rng: inout RandomStream, _ tables: ExponentialTables) -> Double {
        // Past the window (or not a time) before converting: `Int(_:)` traps on huge values.
        guard t >= 0, t < Double(days) * .secondsPerDay else { return .infinity }
        let d = Int(t * (1.0 / .secondsPerDay))
        let seconds = t - Double(d) * .secondsPerDay
        let h = min(Int(seconds * (1.0 / .secondsPerHour)), 23)
        var share = shape.cumulative[h]
        if shape.secondsPerShare[h] > 0 {
            share += (seconds - Double(h) * .secondsPerHour) / shape.secondsPerShare[h]
        }
        day = d
        dayStart = Double(d) * .secondsPerDay
        position = dayCumulative[d] + min(share, 1) * dayMass[d] + rng.exponential(tables)
        return locate()
    }

    @inline(__always)
    private mutating func locate() -> Double {
        while day < days && dayCumulative[day + 1] <= position {
            day += 1
            dayStart = Double(day) * .secondsPerDay
        }
        guard day < days else { return .infinity }
        let share = (position - dayCumulative[day]) * inverseDayMass[day]
        return dayStart + shape.seconds(atShare: share)
    }
}
