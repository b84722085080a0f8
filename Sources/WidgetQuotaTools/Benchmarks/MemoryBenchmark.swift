import Foundation
import WidgetQuotaModel
import WidgetQuotaSimulation

/// Measures whether the engine's memory grows with the number of users it simulates event by
/// event: the same `simulate` at growing sample sizes, each in a child process of its own, so
/// each peak is that job's alone.
package struct MemoryBenchmark: Sendable {
    package struct Figure: Sendable, Codable {
        /// Users simulated event by event per run (the whole population is exact).
        package var users: Int
        package var userDays: Int
        package var seconds: Double
        package var peakMemoryMiB: Double
    }

    /// Sample sizes measured, smallest first: by default 10,000 and the 1,000,000 users the
    /// issue's memory figure asks for, every one of them simulated event by event.
    package let users: [Int]
    package let design = "direct"
    package let runs = 2

    package init(users: [Int] = [10_000, 1_000_000]) {
        self.users = users
    }

    /// The `widget-quota` arguments of the job measured at `users` users.
    package func arguments(users: Int, threads: Int) -> [String] {
        [
            "simulate", "--designs", design, "--users", String(users), "--sample-users", String(users),
            "--runs", String(runs), "--threads", String(threads), "--no-sensitivity", "--format", "json", "--quiet",
        ]
    }

    /// Simulated user-days of the job at `users` users (padding, warm-up, counted days and tail).
    package func userDays(users: Int) -> Int {
        let h = Scenario().horizon
        return (SimulationModel.paddingDays + h.warmupDays + h.days + 1) * users * runs
    }

    /// Runs the job at each sample size with `executable` (a `widget-quota` binary).
    package func measure(executable: String, threads: Int) throws -> [Figure] {
        try users.map { n in
            let usage = try ChildProcess.run(executable, arguments(users: n, threads: threads))
            return Figure(
                users: n, userDays: userDays(users: n), seconds: usage.seconds,
                peakMemoryMiB: Double(usage.peakResidentBytes) / 1_048_576)
        }
    }
}
