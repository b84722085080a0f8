import Foundation

/// Measures the event-level engine: simulated user-days per second with per-minute aggregation on.
public struct EngineBenchmark: Sendable {
    public struct Figure: Sendable, Codable {
        public var threads: Int
        public var userDays: Int
        public var seconds: Double
        public var userDaysPerSecond: Double
        /// CPU time of all threads, and user-days per CPU-second (steady on a shared machine).
        public var cpuSeconds: Double
        public var userDaysPerCPUSecond: Double
    }

    /// The scenario measured: every preset design, `users` users each, one run per design and pass.
    public let scenario: Scenario
    public let designs: [Design]

    public init(users: Int = 4_000, runs: Int = 2) {
        var s = Scenario()
        s.horizon.users = [users]
        s.horizon.sampleUsers = users
        s.horizon.runs = runs
        scenario = s
        designs = DesignPresets.all
    }

    /// Simulated user-days per run of the benchmark (warm-up and padding days included).
    public var userDays: Int {
        let h = scenario.horizon
        let daysPerUser = SimulationModel.paddingDays + h.warmupDays + h.days + 1
        return daysPerUser * h.users[0] * h.runs * designs.count
    }

    /// Runs the engine once with `threads` threads.
    public func measure(threads: Int) -> Figure {
        let cpuBefore = ResourceUsage.cpuSeconds()
        let (_, seconds) = ResourceUsage.time {
            MonteCarloEngine(scenario: scenario, designs: designs, threads: threads).run()
        }
        let cpu = ResourceUsage.cpuSeconds() - cpuBefore
        return Figure(threads: threads, userDays: userDays, seconds: seconds, userDaysPerSecond: Double(userDays) / seconds,
                      cpuSeconds: cpu, userDaysPerCPUSecond: Double(userDays) / max(cpu, 1e-9))
    }
}
