import Foundation
import Testing
@testable import WidgetQuotaKit

/// `bench` prints figures, never judges them (targets are not timed tests); these check its
/// contract: the parts asked for, in a JSON shape scripts can read, and a clear usage error.
@Suite struct BenchCommandTests {
    @Test func engineFiguresAreMachineReadable() throws {
        let run = TestSupport.cli(["bench", "--only", "engine", "--users", "100", "--threads", "2", "--json"])
        #expect(run.code == .success, "\(run.err)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
        let engine = try #require(json["engine"] as? [[String: Any]])
        #expect(engine.map { $0["threads"] as? Int } == [1, 2])
        for figure in engine {
            let userDays = try #require(figure["userDays"] as? Int)
            // 7 presets × 2 runs × 100 users × the simulated days of each (padding, warm-up, 30, tail).
            #expect(userDays == 7 * 2 * 100 * 33)
            #expect((figure["userDaysPerSecond"] as? Double ?? 0) > 0)
        }
        #expect(json["parse"] as? [Any] == nil || (json["parse"] as? [Any])?.isEmpty == true)
        #expect(json["simulateSeconds"] == nil)
    }

    /// The memory part runs `simulate` in child processes: its command line must stay valid.
    @Test func memoryJobIsAValidSimulateCommand() throws {
        let bench = MemoryBenchmark(users: [60])
        let run = TestSupport.cli(bench.arguments(users: 60, threads: 1))
        #expect(run.code == .success, "\(run.err)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
        let rows = try #require(json["results"] as? [[String: Any]])
        #expect(rows.map { $0["design"] as? String } == [bench.design])
        #expect(rows.map { $0["method"] as? String } == ["exact"])
    }

    @Test func childProcessReportsItsExitAndUsage() throws {
        let usage = try ChildProcess.run("/bin/sh", ["-c", "exit 0"])
        #expect(usage.peakResidentBytes > 0 && usage.seconds >= 0)
        #expect(throws: WidgetQuotaError.self) { try ChildProcess.run("/bin/sh", ["-c", "exit 3"]) }
        do {
            _ = try ChildProcess.run("/nonexistent/widget-quota", [])
            Issue.record("a missing program must not run")
        } catch let error as WidgetQuotaError {
            #expect(error.exitCode == .internalError)
            #expect(error.description.contains("/nonexistent/widget-quota"))
        }
    }

    @Test func unknownPartIsAUsageError() {
        let run = TestSupport.cli(["bench", "--only", "everything"])
        #expect(run.code == .usage)
        #expect(run.err.contains("--only expects engine, memory, simulate or parse"))
    }
}
