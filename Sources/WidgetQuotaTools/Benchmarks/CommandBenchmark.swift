import Foundation
import WidgetQuotaKit
import WidgetQuotaModel
import WidgetQuotaStudies
import WidgetQuotaSupport

/// The time users wait for the commands they run, measured in this process on the jobs behind
/// them (everything but writing the files): `report` on the bundled defaults, the default
/// `simulate`, `simulate --designs cache-bgtask --users 1000` and the default `sweep`.
///
/// The commands run in interleaved rounds (each round runs every command once), so a slow spell
/// of a shared machine costs each command one round rather than its figure; each command keeps
/// its fastest and its median round.
package struct CommandBenchmark: Sendable {
    /// Logs `report` analyses first (nil: none, as `report --no-logs`).
    package var logs: String?
    package var rounds: Int
    package var threads: Int

    package init(logs: String?, rounds: Int = 3, threads: Int) {
        self.logs = logs
        self.rounds = max(1, rounds)
        self.threads = threads
    }

    /// One command's rounds.
    package struct Figure: Codable, Sendable {
        /// The command as a user types it.
        package var command: String
        package var minSeconds: Double
        package var medianSeconds: Double
        /// CPU-seconds of the fastest round (every thread's).
        package var cpuSecondsOfFastest: Double
        package var roundSeconds: [Double]
    }

    /// The commands measured, as typed, and the work behind each.
    func commands() throws -> [(String, () throws -> Void)] {
        let scenario = Scenario()
        let threads = self.threads
        let cache = scenario.availableDesigns.first { $0.name == "cache-bgtask" }!
        var oneDesign = scenario
        oneDesign.horizon.users = [1_000]
        let logs = self.logs
        let directory = FileManager.default.temporaryDirectory.path
        return [
            (
                logs == nil ? "report --no-logs" : "report",
                {
                    let job = ReportJob(logs: logs, simulation: try SimulationJob(scenario: scenario, threads: threads))
                    _ = try job.run(into: directory)
                }
            ),
            ("simulate", { _ = try SimulationJob(scenario: scenario, threads: threads).run().markdown() }),
            (
                "simulate --designs cache-bgtask --users 1000",
                { _ = try SimulationJob(scenario: oneDesign, designs: [cache], threads: threads).run().markdown() }
            ),
            (
                "sweep",
                {
                    let sweep = try Sweep(scenario: scenario, design: cache, knob: .ttl, values: Sweep.Knob.ttl.defaultValues, users: 1_000)
                    _ = sweep.run(threads: threads)
                }
            ),
        ]
    }

    package func measure() throws -> [Figure] {
        let commands = try commands()
        var seconds = [[Double]](repeating: [], count: commands.count)
        var cpu = [[Double]](repeating: [], count: commands.count)
        for _ in 0..<rounds {
            for (i, command) in commands.enumerated() {
                let before = ResourceUsage.cpuSeconds()
                let (_, wall) = try ResourceUsage.time { try command.1() }
                seconds[i].append(wall)
                cpu[i].append(ResourceUsage.cpuSeconds() - before)
            }
        }
        return commands.indices.map { i in
            let fastest = seconds[i].indices.min { seconds[i][$0] < seconds[i][$1] }!
            return Figure(
                command: commands[i].0, minSeconds: seconds[i][fastest], medianSeconds: Statistics.median(seconds[i]),
                cpuSecondsOfFastest: cpu[i][fastest], roundSeconds: seconds[i])
        }
    }
}
