import Foundation
import Testing
import WidgetQuotaGates
import WidgetQuotaSupport
import WidgetQuotaTestSupport

@Suite("log diff") struct LogDiffTests {
    static func analysis(requests: Double, errorRate: Double, devices: [(String, Double)]) -> String {
        let rows = devices.map { name, perDay in
            "{\"device\": \"\(name)\", \"apiRequestsPerDay\": \(perDay), \"extensionRequestsPerDay\": \(perDay), "
                + "\"appRequestsPerDay\": 0, \"failedRequests\": 0, \"fetchErrors\": 0}"
        }
        return """
            {"schemaVersion": 1, "requestsPerUserPerMonth": \(requests), "apiErrorRate": \(errorRate), "timelineErrorRate": 0,
             "reloadCallsPerSuccessfulFetch": 0.1, "perDeviceDay": {"apiRequests": {"mean": \(requests / 30), "p50": 4, "p95": 50}},
             "devices": \(devices.count), "files": [{"path": "logs/a.log", "lines": 10}], "perDevice": [\(rows.joined(separator: ","))]}
            """
    }

    static let base = analysis(requests: 450, errorRate: 0.02, devices: [("a", 10), ("b", 5), ("c", 2)])
    static let head = analysis(requests: 300, errorRate: 0.05, devices: [("a", 6), ("b", 5), ("d", 1)])

    @Test("two analyses compare in the pull-request layout, each figure better or worse") func twoAnalysesCompare() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let run = TestSupport.cli(["diff", try tmp.file(Self.base, name: "analysis.json"), try tmp.file(Self.head, name: "analysis.json")])
        #expect(run.code == .success, "\(run.err)")
        let md = run.out
        #expect(md.hasPrefix(ReportDiff.commentMarker + "\n## WidgetQuota logs: "))
        #expect(md.contains("requests per user a month 450 → 300 (▼ 33%, better)"), "\(md)")
        #expect(md.contains("API error rate 2.0% → 5.0% (▲ 3.0 pts, **worse**)"))
        #expect(md.contains("**Trade-off**: lower requests per user a month"))
        #expect(md.contains("3 of 4 devices changed (1 new in head, 1 removed in head)."))
        let changed = try #require(try GFMTables.parse(md).first)
        #expect(changed.rows.map { $0[0] } == ["a", "c (removed in head)", "d (new in head)"])
        #expect(md.contains("<details><summary>1 unchanged device</summary>") && md.contains("| b | 5.00 |"))
        #expect(md.contains("- `devices`: 3 → 3") == false)
    }

    @Test("an analysis against itself says no change") func analysisAgainstItselfSaysNoChange() {
        let diff = LogDiff(
            base: try! JSONValue.parse(Data(Self.base.utf8), file: "a"), head: try! JSONValue.parse(Data(Self.base.utf8), file: "a"))
        #expect(diff.isUnchanged)
        #expect(diff.markdown(base: "a", head: "b").contains("**No change**"))
    }

    @Test("an analysis against a report, or with a threshold, is a data error") func analysisAgainstReportIsADataError() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let analysis = try tmp.file(Self.base, name: "analysis.json")
        let report = try tmp.file(try Fixtures.report("tiny-report.json"), name: "report.json")
        let mixed = TestSupport.cli(["diff", analysis, report])
        #expect(mixed.code == .dataError && mixed.err.contains("compare two of a kind"))
        let gated = TestSupport.cli(["diff", analysis, analysis, "--fail-if", "change(costPerMonth) > 10%"])
        #expect(gated.code == .dataError && gated.err.contains("are log analyses"))
    }
}
