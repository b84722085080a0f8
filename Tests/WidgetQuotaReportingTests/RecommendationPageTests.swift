import Foundation
import Testing
import WidgetQuotaSimulationTestSupport
import WidgetQuotaStudies
import WidgetQuotaTestSupport

/// The recommendation is built once as blocks: report.md and the web page say the same.
@Suite("Recommendation on the page") struct RecommendationPageTests {
    @Test("the page shows the Recommendation section with the Markdown's subheadings and tables, after the verdict")
    func thePageShowsTheRecommendation() {
        var report = ReportFixtures.report
        report.recommendation = RecommendationStudy(
            scenario: ReportFixtures.scenario,
            designs: ReportFixtures.scenario.availableDesigns.filter { ReportFixtures.designs.contains($0.name) }
        )
        .run(result: ReportFixtures.result, threads: 2)
        let md = report.markdown(linkCharts: true)
        let page = report.html()
        let part = md.components(separatedBy: "## Recommendation\n").dropFirst().first?.components(separatedBy: "\n## ").first ?? ""
        #expect(!part.isEmpty)
        #expect(page.contains(">Recommendation</h2>"))
        #expect(md.range(of: "## Verdict")!.lowerBound < md.range(of: "## Recommendation")!.lowerBound)
        #expect(page.range(of: ">Verdict</h2>")!.lowerBound < page.range(of: ">Recommendation</h2>")!.lowerBound)
        for heading in part.split(separator: "\n").filter({ $0.hasPrefix("### ") }) {
            #expect(page.contains(">\(heading.dropFirst(4))</h3>"), "\(heading)")
        }
        // Built from the same blocks: no blank-line runs in the Markdown, and each block's text on the page.
        #expect(!part.contains("\n\n\n"))
        #expect(page.contains("Wasteful or broken"))
    }
}
