import Foundation
import Testing
import WidgetQuotaLogs
import WidgetQuotaLogsTestSupport
import WidgetQuotaReporting
import WidgetQuotaSupport
import WidgetQuotaTestSupport

@Suite("Real log captures on the command line") struct CaptureCommandTests {
    @Test("an export in which nothing is recognised says so, shows no figure, and fails with --strict")
    func nothingRecognised() throws {
        let path = LogTestSupport.fixture("captures/nothing-recognised.log")
        let a = try LogTestSupport.analyze(fixtures: ["captures/nothing-recognised.log"])
        #expect(a.recognisedNothing)
        #expect(a.processesSeen == ["example", "kernel"])
        #expect(a.notes.first?.hasPrefix("No widget, background-task or network line was recognised in 5 lines") == true)
        #expect(a.notes.first?.contains("processes seen: example, kernel") == true)
        #expect(LogReport(a).markdown().contains("| Implied API requests per user per month | – |"))
        let json = LogTestSupport.run(["analyze", "--format", "json", path])
        #expect(json.code == .success)
        #expect(json.out.contains("\"recognisedNothing\" : true"))
        // Unmeasured, as the Markdown's "–" says: null, not 0, and the key is still there.
        #expect(json.out.contains("\"requestsPerUserPerMonth\" : null"), "\(json.out.prefix(2_000))")
        #expect(a.requestsPerUserPerMonth == nil)

        let strict = LogTestSupport.run(["analyze", "--strict", path])
        #expect(strict.code == .dataError)
        #expect(strict.err.contains("no widget, background-task or network line was recognised"))

        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let emit = LogTestSupport.run(["analyze", path, "--emit-scenario", tmp.path + "/s.json"])
        #expect(emit.code == .dataError)
        #expect(emit.err.contains("no widget, background-task or network line was recognised (processes seen: example, kernel)"))
        #expect(!emit.err.contains("expected records with timestamps"))
    }

    @Test("a header-only export is an empty log: exit 66 alone, skipped with the reason inside a folder")
    func headerOnlyExportIsEmpty() throws {
        let path = LogTestSupport.fixture("captures/header-only.log")
        let alone = LogTestSupport.run(["analyze", path])
        #expect(alone.code == .noInput)
        #expect(alone.err.contains("holds a `log show` header but no log records"))

        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let folder = try tmp.subfolder()
        try FileManager.default.copyItem(atPath: path, toPath: folder + "/header-only.log")
        try FileManager.default.copyItem(atPath: LogTestSupport.fixture("apple-syslog.log"), toPath: folder + "/apple-syslog.log")
        var analyzer = LogAnalyzer()
        try analyzer.read(path: folder)
        let a = analyzer.analysis()
        #expect(a.files.count == 1)
        #expect(
            a.notes.contains {
                $0.hasSuffix(
                    "header-only.log: it holds a `log show` header but no log records (its predicate or time range matched nothing).")
            })
        #expect(!a.notes.contains { $0.contains("not a log in a known format") })
    }

    @Test("a --style json array that never closes is counted as damage, and --strict stops at it")
    func unclosedJSONArrayIsReported() throws {
        let a = try LogTestSupport.analyze(fixtures: ["captures/json-array-unclosed.json"])
        #expect(LogTestSupport.total(a, \.getTimeline) == 1)  // the objects before the cut still count
        #expect(a.malformedLines == 1)
        #expect(
            a.malformedExamples.contains {
                $0.hasSuffix(
                    "json-array-unclosed.json:41: JSON array not closed; expected ']' after the last object (the export is cut off)")
            })
        let strict = LogTestSupport.run(["analyze", "--strict", LogTestSupport.fixture("captures/json-array-unclosed.json")])
        #expect(strict.code == .dataError)
        #expect(strict.err.contains("JSON array not closed"))
        // A closed array is not flagged.
        #expect(try LogTestSupport.analyze(fixtures: ["apple.json"]).malformedLines == 0)
    }

    @Test("CR-only line endings are named as such, not as a file of blank or header lines")
    func crOnlyLineEndingsAreNamed() throws {
        let r = LogTestSupport.run(["analyze", LogTestSupport.fixture("captures/cr-only.log")])
        #expect(r.code == .dataError)
        #expect(r.err.contains("records are separated by CR-only line endings; expected LF or CRLF"))
        #expect(!r.err.contains("header"))
        // NDJSON with CR-only endings, as the trace format or `log show --style ndjson` writes it.
        let trace = try String(contentsOfFile: LogTestSupport.fixture("trace.ndjson"), encoding: .utf8)
        #expect {
            _ = try LogTestSupport.analyze(trace.replacingOccurrences(of: "\n", with: "\r"), name: "cr.ndjson")
        } throws: { error in
            "\(error)".contains("records are separated by CR-only line endings")
        }
    }
}
