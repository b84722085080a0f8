import Foundation

/// One user's days: how busy each local day is and whether it is spent in Low Power Mode.
struct UserCalendar: Sendable {
    /// getTimeline multiplier per local day (seed 000: 15 calls on some days, 40+ on others).
    let dayFactor: [Double]
    /// Whether each local day is spent in Low Power Mode.
    let lowPower: [Bool]
    /// Background launch-rate multiplier on Low Power Mode days.
    let lowPowerBackgroundFactor: Double
    /// End of the simulated window, local seconds.
    let endLocal: Double

    /// Which per-day multiplier applies to a process.
    enum DayScale { case none, getTimeline, background }

    /// A clock for a process with `perDay` events a day shaped by `profile` (24 hourly weights,
    /// mean 1) and scaled per day as `scale` says.
    func clock(perDay: Double, profile: [Double], scale: DayScale) -> PoissonClock {
        let hours = Int(endLocal / 3_600)
        var rates = [Double](repeating: 0, count: hours)
        let base = perDay / 3_600 / 24
        if perDay > 0 {
            for h in 0..<hours {
                let d = h / 24
                var rate = base * profile[h - d * 24]
                switch scale {
                case .none: break
                case .getTimeline: rate *= dayFactor[d]
                case .background: if lowPower[d] { rate *= lowPowerBackgroundFactor }
                }
                rates[h] = rate
            }
        }
        return PoissonClock(ratesPerSecond: rates)
    }
}

/// Event times of an inhomogeneous Poisson process with a piecewise-constant hourly rate.
///
/// Works in "operational time": the cumulative expected count. Events are unit-exponential steps
/// in that clock, mapped back to real time through the cumulative table, so each event costs one
/// exponential draw and a short forward scan, never a walk over empty hours with divisions.
struct PoissonClock: Sendable {
    /// Cumulative expected events at the start of each hour (count + 1 entries).
    private var cumulative: [Double]
    /// Seconds per unit of expected count in each hour (0 where the rate is 0).
    private var secondsPerEvent: [Double]
    /// Operational time of the last event, and the hour it fell in.
    private var position = 0.0
    private var hour = 0

    init(ratesPerSecond rates: [Double]) {
        var cumulative = [Double](repeating: 0, count: rates.count + 1)
        var running = 0.0
        for (h, r) in rates.enumerated() {
            cumulative[h] = running
            running += r * 3_600
        }
        cumulative[rates.count] = running
        self.cumulative = cumulative
        self.secondsPerEvent = rates.map { $0 > 0 ? 1 / $0 : 0 }
    }

    /// The next event after the previous one (or after time 0); infinity past the window.
    @inline(__always)
    mutating func next(_ rng: inout RandomStream) -> Double {
        position += rng.exponential()
        return locate()
    }

    /// The next event strictly after real time `t` (the process restarts at `t`).
    @inline(__always)
    mutating func next(after t: Double, _ rng: inout RandomStream) -> Double {
        let h = Int(t * (1.0 / 3_600))
        guard h < secondsPerEvent.count else { return .infinity }
        hour = max(h, 0)
        let within = t - Double(hour) * 3_600
        let rate = secondsPerEvent[hour] > 0 ? 1 / secondsPerEvent[hour] : 0
        position = cumulative[hour] + within * rate + rng.exponential()
        return locate()
    }

    @inline(__always)
    private mutating func locate() -> Double {
        let last = secondsPerEvent.count
        while hour < last && cumulative[hour + 1] <= position { hour += 1 }
        guard hour < last else { return .infinity }
        return Double(hour) * 3_600 + (position - cumulative[hour]) * secondsPerEvent[hour]
    }
}
