import Foundation
import Testing
import WidgetQuotaModel
import WidgetQuotaReporting
import WidgetQuotaSimulationTestSupport
import WidgetQuotaStudies
import WidgetQuotaSupport
import WidgetQuotaTestSupport

/// The web page says what the Markdown says, in the same order, and nothing in it can break it.
@Suite("Report page") struct ReportPageTests {
    static let page = ReportFixtures.report.html()
    static let markdown = ReportFixtures.report.markdown(linkCharts: true)

    /// Text content of an HTML fragment: tags dropped, the escapes the page writes undone.
    static func text(_ html: String) -> String {
        let stripped = html.replacingOccurrences(of: "<[^>]*>", with: "", options: .regularExpression)
        return stripped.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    /// A Markdown cell or heading as the page shows it: without code and strong marks.
    static func plain(_ markdown: String) -> String {
        markdown.replacingOccurrences(of: "**", with: "").replacingOccurrences(of: "`", with: "")
    }

    @Test("the page has the Markdown's sections and subsections, in the same order: at a glance, then the verdict")
    func sameSectionsInTheSameOrder() {
        let mdHeadings = Self.markdown.split(separator: "\n").filter { $0.hasPrefix("## ") || $0.hasPrefix("### ") }
            .map { Self.plain(String($0.drop { $0 == "#" }.dropFirst())) }
        let pageHeadings = TestSupport.matches(#"<h[23][^>]*>(.*?)</h[23]>"#, in: Self.page).map(Self.text)
        #expect(pageHeadings == mdHeadings)
        #expect(Array(pageHeadings.prefix(2)) == ["At a glance", "Verdict"])
        #expect(mdHeadings.count > 8)
    }

    @Test("every table of the Markdown is on the page, cell for cell")
    func everyTableCellForCell() throws {
        let mdTables = try GFMTables.parse(Self.markdown)
        let pageTables = TestSupport.matches(#"<table[^>]*>(.*?)</table>"#, in: Self.page).map { table in
            TestSupport.matches(#"<tr>(.*?)</tr>"#, in: table).map { row in
                TestSupport.matches(#"<t[hd][^>]*>(.*?)</t[hd]>"#, in: row).map(Self.text)
            }
        }
        #expect(pageTables.count == mdTables.count)
        for (md, page) in zip(mdTables, pageTables) {
            #expect(page == [md.header.map(Self.plain)] + md.rows.map { $0.map(Self.plain) })
        }
    }

    @Test("every chart the report draws is inline, wide and narrow, with ids unique on the page")
    func chartsInlineWithUniqueIds() {
        let charts = ReportFixtures.report.charts()
        // Each chart twice: the wide layout, and the narrow one a phone's screen shows instead.
        #expect(Self.page.components(separatedBy: "<svg ").count - 1 == 2 * charts.count)
        #expect(Self.page.components(separatedBy: "<div class=\"chart-narrow\">").count - 1 == charts.count)
        for chart in ReportFixtures.report.charts(layout: .narrow) {
            #expect(chart.svg.contains(#"width="400""#), "\(chart.name) narrow is 400 px wide")
        }
        for chart in charts {
            let title = TestSupport.matches(#"<title id="title">(.*?)</title>"#, in: chart.svg).first ?? "?"
            #expect(Self.page.contains(">\(title)</title>"), "\(chart.name) is on the page")
        }
        let ids = TestSupport.matches(#" id="([^"]*)""#, in: Self.page)
        #expect(Set(ids).count == ids.count, "duplicate ids: \(ids.sorted())")
        for labelled in TestSupport.matches(#"aria-labelledby="([^"]*)""#, in: Self.page) {
            for id in labelled.split(separator: " ") { #expect(ids.contains(String(id)), "\(id) is labelled but not on the page") }
        }
        #expect(!Self.page.contains("<?xml"))
    }

    @Test("the page is self-contained: no file, font, style sheet or script from anywhere else")
    func selfContained() {
        // The SVG namespace is a name, not an address the browser loads.
        let page = Self.page.replacingOccurrences(of: #"xmlns="http://www.w3.org/2000/svg""#, with: "")
        for outside in [" src=", "<link", "@import", "url(", "http://", "https://", "@font-face"] {
            #expect(!page.contains(outside), "the page holds \(outside)")
        }
        #expect(page.components(separatedBy: "<script").count == 2, "one small script")
        #expect(page.contains("@media print"))
        #expect(page.contains("default-src 'none'"), "a policy that blocks any load the page does not hold")
    }

    @Test("a design named with markup cannot break the page: every text is escaped")
    func markupInADesignNameIsEscaped() throws {
        let name = #"<img src=x onerror=alert(1)> & "quoted" </script><b>"#
        var s = TestSupport.smallScenario(users: [1, 40], runs: 2, days: 7, sample: 20)
        var design = try #require(DesignPresets.named("direct"))
        design.name = name
        s.designs = [design]
        let result = TestSupport.run(s, designs: [name, "cache-bgtask"])
        let page = SimulationReport(result).html()
        #expect(!page.contains("<img") && !page.contains("<b>"))
        #expect(page.contains("&lt;img src=x onerror=alert(1)&gt; &amp; &quot;quoted&quot; &lt;/script&gt;&lt;b&gt;"))
        #expect(page.components(separatedBy: "</script>").count == 2, "only the page's own script ends a script")
        for tag in ["table", "section", "svg", "div", "ul", "figure", "details"] {
            #expect(
                page.components(separatedBy: "<\(tag)").count == page.components(separatedBy: "</\(tag)>").count,
                "every <\(tag)> is closed")
        }
    }

    @Test("report and simulate --out write the page with the other files, and name it as their own")
    func writtenWithTheOtherFiles() throws {
        let files = try ReportFixtures.report.files(in: "/out")
        let page = try #require(files.first { $0.path == "/out/report.html" })
        #expect(page.contents == Self.page)
        #expect(SimulationReport.FileName.all.contains("report.html"))
        #expect(files.allSatisfy { SimulationReport.FileName.all.contains(String($0.path.dropFirst("/out/".count))) })
    }

    @Test("the same report gives the same page, byte for byte")
    func samePageSameBytes() {
        #expect(ReportFixtures.report.html() == Self.page)
    }
}
