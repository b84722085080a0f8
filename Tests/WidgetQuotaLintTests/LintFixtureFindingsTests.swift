import Foundation
import Testing
import WidgetQuotaLint
import WidgetQuotaTestSupport

/// The whole lint run on each fixture app gives exactly the findings its EXPECTED.md lists.
@Suite("Lint fixture findings")
struct LintFixtureFindingsTests {
    @Test(
        "the lint run's findings are EXPECTED.md's Findings table (rule, file, line), and its Suppressed rows are counted",
        arguments: LintFixtureTests.apps)
    func findings(app: String) throws {
        let rows = LintFixtureTests.rows(try Fixtures.text("apps/\(app)/EXPECTED.md"))
        let expected = rows.filter { $0.section == "Findings" }.map { "\($0.rule) \($0.file):\($0.line)" }.sorted()
        let report = try LintRun(paths: [Fixtures.path("apps/\(app)")]).run().report
        let found = report.findings.map { "\($0.rule.rawValue) \($0.location.file):\($0.location.line ?? 0)" }.sorted()
        #expect(
            found == expected,
            "\(app): missing \(Set(expected).subtracting(found).sorted()), extra \(Set(found).subtracting(expected).sorted())")
        #expect(report.suppressed == rows.filter { $0.section == "Suppressed" }.count, "\(app)")
    }
}
