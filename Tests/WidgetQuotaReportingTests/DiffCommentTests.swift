import Foundation
import Testing
import WidgetQuotaGates
import WidgetQuotaSupport
import WidgetQuotaTestSupport

@Suite("diff comment") struct DiffCommentTests {
    static let text = try! Fixtures.report("tiny-report.json")

    static func json(_ text: String) -> JSONValue { try! JSONValue.parse(Data(text.utf8), file: "r.json") }

    /// HEAD: cache-bgtask's cache TTL raised: at both user counts fewer requests and a lower cost
    /// (every percentile lower), more stale glances, and the design named in the scenario.
    static let ttlHead =
        text
        .replacingOccurrences(
            of: "\"baseline\": \"cache-bgtask\",\n    \"horizon\"",
            with:
                "\"baseline\": \"cache-bgtask\",\n    \"designs\": [{ \"name\": \"cache-bgtask\", \"cacheTTLMinutes\": 120 }],\n    \"horizon\""
        )
        .replacingOccurrences(of: "\"mean\": 9000, \"p5\": 8000, \"p95\": 10000", with: "\"mean\": 4500, \"p5\": 4000, \"p95\": 5000")
        .replacingOccurrences(of: "\"mean\": 91000, \"p5\": 85000, \"p95\": 97000", with: "\"mean\": 45000, \"p5\": 42000, \"p95\": 48000")
        .replacingOccurrences(of: "\"mean\": 0.95, \"p5\": 0.9, \"p95\": 1", with: "\"mean\": 0.45, \"p5\": 0.4, \"p95\": 0.5")
        .replacingOccurrences(of: "\"mean\": 9.6, \"p5\": 9, \"p95\": 10", with: "\"mean\": 4.6, \"p5\": 4, \"p95\": 5")
        .replacingOccurrences(of: "\"staleShare\": 0.75", with: "\"overTargetShare\": 0.9")
        .replacingOccurrences(of: "\"staleShare\": 0.12", with: "\"overTargetShare\": 0.12")

    static let ttlBase =
        text.replacingOccurrences(of: "\"staleShare\": 0.75", with: "\"overTargetShare\": 0.6")
        .replacingOccurrences(of: "\"staleShare\": 0.12", with: "\"overTargetShare\": 0.12")

    static func comment(limit: Int = ReportDiff.commentLimit) -> String {
        ReportDiff(base: json(ttlBase), head: json(ttlHead)).markdown(base: "base", head: "head", limit: limit)
    }

    @Test("the headline shows the saving with its price, in words") func headlineShowsSavingWithItsPrice() {
        let md = Self.comment()
        let headline = md.split(separator: "\n").first { $0.hasPrefix("**cache-bgtask** at 1,000 users") }.map(String.init) ?? ""
        #expect(headline.contains("cost a month $9.60 → $4.60 (▼ 52%, better)"), "\(md)")
        #expect(headline.contains("stale glances 60.0% → 90.0% (▲ 30.0 pts, **worse**)"), "\(headline)")
        #expect(md.contains("**Trade-off**: fewer requests and lower cost, paid for with more stale glances"), "\(md)")
    }

    @Test("changed rows are one table, the rest folded, the change named by design") func changedRowsTableAndFoldedRest() throws {
        let md = Self.comment()
        let tables = try GFMTables.parse(md)
        let changed = try #require(tables.first)
        #expect(changed.rows.map { $0[0] } == ["cache-bgtask", "cache-bgtask"])
        let folded = try #require(md.range(of: "<details>"))
        #expect(md[folded.lowerBound...].contains("| direct | 100 |"))
        #expect(!md[..<folded.lowerBound].contains("| direct |"))
        #expect(md.contains("- **cache-bgtask**: `cacheTTLMinutes` 60 → 120"))
        #expect(!md.contains("designs[0]"))
        #expect(!md.contains("row(s)"))
    }

    @Test("every difference within noise is said so, and nothing is called a change") func withinNoiseIsSaidSo() throws {
        // A different seed: every mean moved a little, inside the p5–p95 range.
        let head = Self.text.replacingOccurrences(of: "\"seed\": 1", with: "\"seed\": 2")
            .replacingOccurrences(of: "\"mean\": 90000,", with: "\"mean\": 90500,")
            .replacingOccurrences(of: "\"mean\": 905000,", with: "\"mean\": 900000,")
            .replacingOccurrences(of: "\"mean\": 9000,", with: "\"mean\": 9100,")
            .replacingOccurrences(of: "\"mean\": 91000,", with: "\"mean\": 92000,")
        let md = ReportDiff(base: Self.json(Self.text), head: Self.json(head)).markdown(base: "a", head: "b")
        #expect(md.contains("**No change beyond noise**: 4 of 4 design × user rows differ"), "\(md)")
        #expect(!md.contains("### Changed rows"))
        let folded = try #require(try GFMTables.parse(md).first)
        #expect(folded.rows.count == 4 && folded.rows.allSatisfy { $0.last?.hasPrefix("within noise") == true })
        #expect(md.contains("draw different random numbers (seed 1 → 2"))
    }

    @Test("a comment over the limit folds rows out first and stays under it", arguments: [1_600, 1_000, 500])
    func commentOverTheLimitStaysUnderIt(limit: Int) {
        let full = Self.comment()
        #expect(full.utf16.count > limit)
        let cut = Self.comment(limit: limit)
        #expect(cut.utf16.count <= limit, "\(cut.utf16.count) > \(limit)")
        #expect(cut.contains("GitHub's"))
        #expect(cut.hasPrefix(ReportDiff.commentMarker + "\n## WidgetQuota: base → head"))
    }

    @Test("a short comment is left whole") func shortCommentLeftWhole() {
        let full = Self.comment()
        #expect(Self.comment(limit: full.utf16.count) == full)
        #expect(!full.contains("left out"))
    }
}
