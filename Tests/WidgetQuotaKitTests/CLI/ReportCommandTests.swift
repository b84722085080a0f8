import Foundation
import Testing
@testable import WidgetQuotaKit

/// `report`, the README's main command: every file, written together, and the same bytes twice.
@Suite struct ReportCommandTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    func runReport(into folder: String) throws -> (ExitCode, String) {
        let scenario = try TestSupport.temporaryFile(#"{"horizon": {"users": [1, 50], "runs": 2, "days": 5, "sampleUsers": 50}}"#)
        let logs = Self.root.appendingPathComponent("SampleLogs/direct-trace.ndjson").path
        let (code, _, err) = TestSupport.cli(["report", "--scenario", scenario, "--logs", logs, "--out", folder, "--threads", "2",
                                               "--fail-if", "requestsPerUserMonth.mean{design=direct} > 1e9"])
        return (code, err)
    }

    @Test func writesEveryFileAndIsReproducible() throws {
        let first = FileManager.default.temporaryDirectory.appendingPathComponent("wq-report-\(UUID().uuidString)").path
        let second = first + "-again"
        let (code, err) = try runReport(into: first)
        #expect(code == .success, "\(err)")
        let files = try FileManager.default.contentsOfDirectory(atPath: first).sorted()
        for name in ["analysis.json", "analysis.md", "report.json", "report.md", "summary.csv", "metrics.csv", "sweep-ttl.csv",
                     "requests-by-users.svg", "typical-day.svg", "tradeoff.svg", "sensitivity.svg"] {
            #expect(files.contains(name), "missing \(name)")
        }
        let markdown = try String(contentsOfFile: first + "/report.md", encoding: .utf8)
        #expect(markdown.contains("![") && markdown.contains("tradeoff.svg"))
        #expect(markdown.contains("Trade-off: cache-bgtask, ttl"))
        _ = try runReport(into: second)
        for name in files {
            let a = try Data(contentsOf: URL(fileURLWithPath: first + "/" + name))
            let b = try Data(contentsOf: URL(fileURLWithPath: second + "/" + name))
            #expect(a == b, "\(name) differs between two runs")
        }
    }

    /// A run that writes fewer files (no logs, no cache to sweep, no sensitivity) replaces the
    /// earlier run's set: nothing of it stays beside the new report, and other files stay put.
    @Test func aSmallerRunLeavesNoStaleFilesBehind() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wq-report-\(UUID().uuidString)").path
        let (code, err) = try runReport(into: folder)
        #expect(code == .success, "\(err)")
        try "mine\n".write(toFile: folder + "/notes.txt", atomically: true, encoding: .utf8)
        let scenario = try TestSupport.temporaryFile(#"{"horizon": {"users": [1, 50], "runs": 2, "days": 5, "sampleUsers": 50}}"#)
        let again = TestSupport.cli(["simulate", "--scenario", scenario, "--designs", "direct", "--no-sensitivity", "--quiet", "--out", folder])
        #expect(again.code == .success, "\(again.err)")
        let files = Set(try FileManager.default.contentsOfDirectory(atPath: folder))
        #expect(files == ["report.md", "report.json", "summary.csv", "metrics.csv", "requests-by-users.svg", "typical-day.svg",
                          "tradeoff.svg", "notes.txt", "analysis.md", "analysis.json"], "\(files.sorted())")
        let noLogs = TestSupport.cli(["report", "--scenario", scenario, "--no-logs", "--quiet", "--out", folder])
        #expect(noLogs.code == .success, "\(noLogs.err)")
        let after = Set(try FileManager.default.contentsOfDirectory(atPath: folder))
        #expect(!after.contains("analysis.md") && !after.contains("analysis.json") && after.contains("notes.txt"))
    }

    @Test func missingLogsFolderIsNoInput() {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("wq-never-\(UUID().uuidString)").path
        let (code, _, err) = TestSupport.cli(["report", "--logs", "/nonexistent/logs", "--out", out])
        #expect(code == .noInput)
        #expect(err.contains("--no-logs"))
        #expect(!FileManager.default.fileExists(atPath: out))
    }
}
