import Foundation

/// One user's days: how busy each local day is and whether it is spent in Low Power Mode.
struct UserCalendar: Sendable {
    /// getTimeline multiplier per local day (seed 000: 15 calls on some days, 40+ on others).
    let dayFactor: [Double]
    /// Whether each local day is spent in Low Power Mode.
    let lowPower: [Bool]
    /// Background launch-rate multiplier on Low Power Mode days.
    let lowPowerBackgroundFactor: Double
    /// Days in the simulated window.
    let days: Int

    /// Which per-day multiplier applies to a process.
    enum DayScale { case none, getTimeline, background }

    /// A clock for a process with `perDay` events a day, spread over the day as `shape` says and
    /// scaled per day as `scale` says.
    func clock(perDay: Double, shape: DayShape, scale: DayScale) -> PoissonClock {
        var mass = [Double](repeating: max(perDay, 0), count: days)
        switch scale {
        case .none: break
        case .getTimeline: for d in 0..<days { mass[d] *= dayFactor[d] }
        case .background: for d in 0..<days where lowPower[d] { mass[d] *= lowPowerBackgroundFactor }
        }
        return PoissonClock(dayMass: mass, shape: shape)
    }
}

/// How a process spreads its events over the hours of a local day: 24 hourly weights turned
/// into cumulative shares of the day (shared by every user of a run).
struct DayShape: Sendable {
    /// Share of the day's events before each hour (25 entries, from 0 to 1).
    let cumulative: [Double]
    /// Seconds per unit share in each hour (0 where the hour has no weight).
    let secondsPerShare: [Double]

    init(weights: [Double]) {
        let total = weights.reduce(0, +)
        var cumulative = [0.0]
        var running = 0.0
        for w in weights {
            running += w / total
            cumulative.append(running)
        }
        cumulative[24] = 1
        self.cumulative = cumulative
        secondsPerShare = weights.map { $0 > 0 ? 3_600 * total / $0 : 0 }
    }
}

/// Event times of an inhomogeneous Poisson process whose rate is a per-day total spread over
/// the day by a `DayShape`.
///
/// Works in "operational time", the cumulative expected count: events are unit-exponential
/// steps in that clock, mapped back to real time by a forward scan over days, then hours, so
/// an event costs one exponential draw and a few comparisons.
struct PoissonClock: Sendable {
    /// Expected events before each day (days + 1 entries).
    private let dayCumulative: [Double]
    /// 1 / expected events of each day (infinity for an empty day, which the scan skips).
    private let inverseDayMass: [Double]
    private let dayMass: [Double]
    private let shape: DayShape
    private var position = 0.0
    private var day = 0
    private var hour = 0

    init(dayMass: [Double], shape: DayShape) {
        var cumulative = [0.0]
        var running = 0.0
        for m in dayMass {
            running += m
            cumulative.append(running)
        }
        dayCumulative = cumulative
        inverseDayMass = dayMass.map { $0 > 0 ? 1 / $0 : .infinity }
        self.dayMass = dayMass
        self.shape = shape
    }

    /// The next event after the previous one (or after time 0); infinity past the window.
    @inline(__always)
    mutating func next(_ rng: inout RandomStream) -> Double {
        position += rng.exponential()
        return locate()
    }

    /// The next event strictly after real time `t` (the process restarts at `t`).
    mutating func next(after t: Double, _ rng: inout RandomStream) -> Double {
        let d = Int(t * (1.0 / 86_400))
        guard t >= 0, d < dayMass.count else { return .infinity }
        let seconds = t - Double(d) * 86_400
        let h = min(Int(seconds * (1.0 / 3_600)), 23)
        var share = shape.cumulative[h]
        if shape.secondsPerShare[h] > 0 {
            share += (seconds - Double(h) * 3_600) / shape.secondsPerShare[h]
        }
        day = d
        hour = h
        position = dayCumulative[d] + min(share, 1) * dayMass[d] + rng.exponential()
        return locate()
    }

    @inline(__always)
    private mutating func locate() -> Double {
        let days = dayMass.count
        while day < days && dayCumulative[day + 1] <= position {
            day += 1
            hour = 0
        }
        guard day < days else { return .infinity }
        let share = (position - dayCumulative[day]) * inverseDayMass[day]
        while hour < 23 && shape.cumulative[hour + 1] <= share { hour += 1 }
        return Double(day) * 86_400 + Double(hour) * 3_600 + (share - shape.cumulative[hour]) * shape.secondsPerShare[hour]
    }
}
