import Foundation
import Testing
import WidgetQuotaSupport
import WidgetQuotaTestSupport

/// `report`, the README's main command: every file, written together, and the same bytes twice.
@Suite("report command") struct ReportCommandTests {
    static let scenario = #"{"horizon": {"users": [1, 50], "runs": 2, "days": 5, "sampleUsers": 50}}"#

    /// What one `report` run wrote: its exit code, standard error and every file by name.
    struct Run: Sendable {
        let code: ExitCode
        let err: String
        let files: [String: Data]
    }

    /// Runs `report` into a fresh folder and reads back what it wrote; the folder is removed.
    static func runReport() throws -> Run {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let scenario = try tmp.file(Self.scenario)
        let folder = tmp.path + "/out"
        let logs = Fixtures.packageURL("SampleLogs/direct-trace.ndjson").path
        let (code, _, err) = TestSupport.cli([
            "report", "--scenario", scenario, "--logs", logs, "--out", folder, "--threads", "2",
            "--fail-if", "requestsPerUserMonth.mean{design=direct} > 1e9",
        ])
        var files = [String: Data]()
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
            files[name] = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))
        }
        return Run(code: code, err: err, files: files)
    }

    /// One run shared by the tests below (a report simulates, sweeps, calibrates and runs the
    /// sensitivity study: computed once, not once per test).
    static let first = Result { try runReport() }

    @Test("writes every file and is reproducible") func writesEveryFileAndIsReproducible() throws {
        let first = try Self.first.get()
        #expect(first.code == .success, "\(first.err)")
        for name in [
            "analysis.json", "analysis.md", "report.json", "report.md", "summary.csv", "metrics.csv", "sweep-ttl.csv",
            "requests-by-users.svg", "typical-day.svg", "tradeoff.svg", "sensitivity.svg",
        ] {
            #expect(first.files[name] != nil, "missing \(name)")
        }
        let markdown = String(decoding: first.files["report.md"] ?? Data(), as: UTF8.self)
        #expect(markdown.contains("![") && markdown.contains("tradeoff.svg"))
        #expect(markdown.contains("Trade-off: cache-bgtask, ttl"))
        let second = try Self.runReport()
        #expect(second.files.keys.sorted() == first.files.keys.sorted())
        for (name, bytes) in first.files {
            #expect(second.files[name] == bytes, "\(name) differs between two runs")
        }
    }

    /// A run that writes fewer files (no logs, no cache to sweep, no sensitivity) replaces the
    /// earlier run's set: nothing of it stays beside the new report, and other files stay put.
    @Test("a smaller run leaves no stale files behind") func aSmallerRunLeavesNoStaleFilesBehind() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        // The folder as the shared `report` run left it.
        let first = try Self.first.get()
        #expect(first.code == .success, "\(first.err)")
        let folder = try tmp.subfolder()
        for (name, bytes) in first.files { try bytes.write(to: URL(fileURLWithPath: folder + "/" + name)) }
        try "mine\n".write(toFile: folder + "/notes.txt", atomically: true, encoding: .utf8)
        let scenario = try tmp.file(Self.scenario)
        let again = TestSupport.cli([
            "simulate", "--scenario", scenario, "--designs", "direct", "--no-sensitivity", "--quiet", "--out", folder,
        ])
        #expect(again.code == .success, "\(again.err)")
        let files = Set(try FileManager.default.contentsOfDirectory(atPath: folder))
        #expect(
            files == [
                "report.md", "report.html", "report.json", "summary.csv", "metrics.csv", "requests-by-users.svg", "typical-day.svg",
                "busiest-day-by-users.svg", "tradeoff.svg", "cost-by-users.svg", "notes.txt", "analysis.md", "analysis.json",
            ], "\(files.sorted())")
        let noLogs = TestSupport.cli(["report", "--scenario", scenario, "--no-logs", "--quiet", "--out", folder])
        #expect(noLogs.code == .success, "\(noLogs.err)")
        let after = Set(try FileManager.default.contentsOfDirectory(atPath: folder))
        #expect(!after.contains("analysis.md") && !after.contains("analysis.json") && after.contains("notes.txt"))
    }

    @Test("missing logs folder is no input") func missingLogsFolderIsNoInput() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let out = tmp.path + "/never"
        let (code, _, err) = TestSupport.cli(["report", "--logs", "/nonexistent/logs", "--out", out])
        #expect(code == .noInput)
        #expect(err.contains("--no-logs"))
        #expect(!FileManager.default.fileExists(atPath: out))
    }
}
