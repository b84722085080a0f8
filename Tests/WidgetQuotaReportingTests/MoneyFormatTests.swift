import Testing
import WidgetQuotaSimulationTestSupport
import WidgetQuotaSupport
import WidgetQuotaTestSupport

/// Every cost in a report reads the same way: to the cent, with small amounts as
/// `NumberText.human` writes them, and one text for one amount whichever table it is in.
@Suite("money format") struct MoneyFormatTests {
    @Test(
        "amounts",
        arguments: [
            (0.0058, "$0.0058"), (0.09996, "$0.10"), (0.1004, "$0.10"), (0.0994, "$0.099"),
            (12.345, "$12.35"), (0, "$0.00"), (1_234.4, "$1,234"),
        ])
    func amounts(value: Double, text: String) {
        #expect(ReportFormat.money(value) == text)
    }

    /// The cost table and the summary's bullets write each design's monthly cost alike.
    @Test("the cost table and the summary agree") func theCostTableAndTheSummaryAgree() throws {
        let report = ReportFixtures.report
        let markdown = report.markdown(linkCharts: false)
        let focus = ReportFixtures.result.focusUsers
        for r in ReportFixtures.result.results {
            guard let cost = r.cost?.perMonth.mean else { continue }
            let text = ReportFormat.money(cost)
            #expect(markdown.contains("| \(r.design) | \(ReportFormat.users(r.users)) | \(text) |"), "\(r.design) \(r.users): \(text)")
            if r.users == focus {
                let summary = markdown.components(separatedBy: "\n").filter { $0.hasPrefix("- **\(r.design)") }
                #expect(summary.count == 1 && summary[0].contains(text), "summary of \(r.design): \(summary)")
            }
        }
    }
}
