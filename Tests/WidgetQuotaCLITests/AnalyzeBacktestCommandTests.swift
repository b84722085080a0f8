import Foundation
import Testing
import WidgetQuotaCLI
import WidgetQuotaLogsTestSupport
import WidgetQuotaStudies
import WidgetQuotaSupport
import WidgetQuotaTestSupport

/// `analyze --backtest` on the command line: its output, its gate's exit code, its usage errors.
@Suite("analyze --backtest command")
struct AnalyzeBacktestCommandTests {
    /// A log whose getTimeline rate doubles in its second half, and one whose rate holds.
    static func logs(_ tmp: TemporaryDirectory) throws -> (doubled: String, steady: String) {
        (
            try tmp.file(LogTestSupport.foreignLogs(devices: 6, days: 10, before: 24, after: 48), name: "doubled.ndjson"),
            try tmp.file(LogTestSupport.foreignLogs(devices: 6, days: 10, before: 24, after: 24), name: "steady.ndjson")
        )
    }

    @Test("a failed --fail-if on the back-test's error exits 1 after writing the report; a passed one exits 0")
    func thresholdExitCode() throws {
        let tmp = try TemporaryDirectory()
        let (doubled, steady) = try Self.logs(tmp)
        let gate = "backtest.errorPercent{metric=apiRequests} > 10"
        let failed = LogTestSupport.run(["analyze", doubled, "--design", "direct", "--backtest", "--fail-if", gate])
        #expect(failed.code == .thresholdFailed)
        #expect(failed.out.contains("# Back-test"))
        #expect(failed.err.contains("threshold FAILED: \(gate)"))
        let passed = LogTestSupport.run(["analyze", steady, "--design", "direct", "--backtest", "--fail-if", gate])
        #expect(passed.code == .success)
        #expect(passed.err.contains("threshold passed"))
        // A gate on the coverage over every figure.
        let coverage = LogTestSupport.run([
            "analyze", doubled, "--design", "direct", "--backtest", "--fail-if", "backtest.coverage{metric=all} < 0.5",
        ])
        #expect(coverage.code == .thresholdFailed)
    }

    @Test("--format json writes the back-test under the key backtest, to --out when given")
    func jsonOutput() throws {
        let tmp = try TemporaryDirectory()
        let (_, steady) = try Self.logs(tmp)
        let out = tmp.path + "/backtest.json"
        let r = LogTestSupport.run([
            "analyze", steady, "--design", "direct", "--backtest", "--split-devices", "--format", "json", "--out", out,
        ])
        #expect(r.code == .success)
        let json = try JSONValue.parse(Data(contentsOf: URL(fileURLWithPath: out)), file: out)
        #expect(json["backtest"]?["metrics"]?.array?.count == Backtest.Metric.allCases.count)
        #expect(json["backtest"]?["heldOut"]?["devices"]?.number == 3)
        #expect(json["backtest"]?["split"]?.string?.contains("every second device") == true)
    }

    @Test("back-test options without --backtest, or that cannot hold, are usage errors")
    func usageErrors() throws {
        let tmp = try TemporaryDirectory()
        let (_, steady) = try Self.logs(tmp)
        let cases: [([String], String)] = [
            (["--split-devices"], "add --backtest"),
            (["--fail-if", "backtest.errorPercent > 10"], "add --backtest"),
            (["--backtest", "--split", "2026-10-05", "--train-days", "3"], "give at most one"),
            (["--backtest", "--split", "5 Oct"], "YYYY-MM-DD"),
            // A date that does not exist would roll over into the next month.
            (["--backtest", "--split", "2026-02-30"], "a date that exists, got \"2026-02-30\" (February has no day 30)"),
            (["--backtest", "--format", "csv"], "markdown or json"),
            (["--backtest", "--design", "none"], "--design NAME"),
            (["--backtest", "--emit-scenario", tmp.path + "/s.json"], "one at a time"),
        ]
        for (args, message) in cases {
            let r = LogTestSupport.run(["analyze", steady] + args)
            #expect(r.code == .usage, "\(args)")
            #expect(r.err.contains(message), "\(args): \(r.err)")
        }
        let unknown = LogTestSupport.run(["analyze", steady, "--design", "direct", "--backtest", "--fail-if", "backtest.nothing > 1"])
        #expect(unknown.code == .dataError)
        #expect(unknown.out.isEmpty)
    }

    @Test("--split DATE holds out the days from DATE on")
    func splitDate() throws {
        let tmp = try TemporaryDirectory()
        let (_, steady) = try Self.logs(tmp)
        let r = LogTestSupport.run(["analyze", steady, "--design", "direct", "--backtest", "--split", "2026-10-08", "--format", "json"])
        #expect(r.code == .success)
        let json = try JSONValue.parse(Data(r.out.utf8), file: "out")
        #expect(json["backtest"]?["heldOut"]?["deviceDays"]?.number == 18)
        #expect(json["backtest"]?["training"]?["deviceDays"]?.number == 42)
    }
}
