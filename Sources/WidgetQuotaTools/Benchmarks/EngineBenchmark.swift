import Foundation
import WidgetQuotaModel
import WidgetQuotaSimulation

/// Measures the event-level engine: simulated user-days per second with per-minute aggregation on.
package struct EngineBenchmark: Sendable {
    package struct Figure: Sendable, Codable {
        package var threads: Int
        package var userDays: Int
        package var seconds: Double
        package var userDaysPerSecond: Double
        /// CPU time of all threads, and user-days per CPU-second (steady on a shared machine).
        package var cpuSeconds: Double
        package var userDaysPerCPUSecond: Double
    }

    /// The scenario measured: every preset design, `users` users each, one run per design and pass.
    package let scenario: Scenario
    package let designs: [Design]

    package init(users: Int = 4_000, runs: Int = 2) {
        var s = Scenario()
        s.horizon.users = [users]
        s.horizon.sampleUsers = users
        s.horizon.runs = runs
        scenario = s
        designs = DesignPresets.all
    }

    /// Simulated user-days per run of the benchmark (warm-up and padding days included).
    package var userDays: Int {
        let h = scenario.horizon
        let daysPerUser = SimulationModel.paddingDays + h.warmupDays + h.days + 1
        return daysPerUser * h.users[0] * h.runs * designs.count
    }

    /// Runs the engine once with `threads` threads.
    package func measure(threads: Int) -> Figure {
        let cpuBefore = ResourceUsage.cpuSeconds()
        let (_, seconds) = ResourceUsage.time {
            MonteCarloEngine(scenario: scenario, designs: designs, threads: threads).run()
        }
        let cpu = ResourceUsage.cpuSeconds() - cpuBefore
        return Figure(
            threads: threads, userDays: userDays, seconds: seconds, userDaysPerSecond: Double(userDays) / seconds,
            cpuSeconds: cpu, userDaysPerCPUSecond: Double(userDays) / max(cpu, 1e-9))
    }
}
