import Foundation
import Testing
import WidgetQuotaCharts
import WidgetQuotaModel
import WidgetQuotaReporting
import WidgetQuotaSimulation
import WidgetQuotaSimulationTestSupport
import WidgetQuotaStudies
import WidgetQuotaSupport
import WidgetQuotaTestSupport

#if canImport(FoundationXML)
    import FoundationXML
#endif

@Suite("report") struct ReportTests {
    let report = ReportFixtures.report

    @Test("markdown tables are valid GFM with matching column counts") func markdownTablesAreValidGFMWithMatchingColumnCounts() throws {
        let tables = try GFMTables.parse(report.markdown(linkCharts: true))
        #expect(tables.count >= 10)
        let requests = try #require(tables.first { $0.header.first == "Design" && $0.header.contains("Total / month (mean)") })
        #expect(requests.rows.count == ReportFixtures.result.results.count)
    }

    /// The quota table speaks in the unit the limits count: credits for an API billed in credits
    /// (the busiest minute and day times the credits a request costs, as the verdict), tokens only
    /// where they count, the busiest hour where a tier limits it.
    @Test("With open hours, the freshness table shows the open hours' median age beside the whole day's")
    func freshnessTableOpenHoursMedian() throws {
        var s = TestSupport.smallScenario(users: [40], runs: 2, days: 7, sample: 40)
        s.calendar.hours = OpenHours()
        let result = TestSupport.run(s, designs: ["direct"])
        let tables = try GFMTables.parse(SimulationReport(result).markdown())
        let table = try #require(tables.first { $0.header.contains("Median age in open hours (min)") })
        let column = try #require(table.header.firstIndex(of: "Median age in open hours (min)"))
        let row = try #require(result.results.first)
        let median = try #require(row.freshness.openHours?.medianAgeMinutes)
        #expect(table.rows.first { $0[0] == row.design }?[column] == NumberText.human(median))
        // Without open hours, no such column.
        let plain = try GFMTables.parse(SimulationReport(ReportFixtures.result).markdown())
        #expect(!plain.contains { $0.header.contains("Median age in open hours (min)") })
    }

    @Test("The quota table's peaks are in the limits' unit")
    func quotaTableUnits() throws {
        func quotaTable(_ r: SimulationResult) throws -> GFMTables.Table {
            let tables = try GFMTables.parse(SimulationReport(r).markdown())
            return try #require(tables.first { $0.header.contains("Tier needed") && $0.header.contains("Users") })
        }
        let tokens = try quotaTable(ReportFixtures.result)
        #expect(tokens.header.contains("Peak req/min p95") && tokens.header.contains("Peak tokens/min p95"))
        #expect(!tokens.header.contains { $0.hasPrefix("Busiest hour") })

        var credits = ReportFixtures.result
        credits.scenario.api.pricing = APIPricing(per: .credit, creditsPerRequest: 4, pricePerUnit: 0.001)
        credits.scenario.quotas.tiers = credits.scenario.quotas.tiers.map {
            var t = $0
            t.tpm = nil
            t.rph = 1_000
            return t
        }
        let table = try quotaTable(credits)
        #expect(!table.header.contains("Peak tokens/min p95"))
        let minute = try #require(table.header.firstIndex(of: "Peak credits/min p95"))
        let hour = try #require(table.header.firstIndex(of: "Busiest hour p95 (credits)"))
        let row = try #require(credits.results.first)
        let cells = try #require(table.rows.first { $0[0] == row.design && $0[1] == ReportFormat.users(row.users) })
        #expect(cells[minute] == NumberText.human(4 * row.load.peakRequestsPerMinute.p95))
        #expect(cells[hour] == NumberText.human(4 * (row.load.peakRequestsPerHour?.p95 ?? -1)))
    }

    @Test("pipes and line breaks in cells do not break tables") func pipesAndLineBreaksInCellsDoNotBreakTables() throws {
        var t = MarkdownTable(["Name", "Value"])
        t.append(["a | b", "1\n2"])
        t.append(["back\\slash|", ""])
        let parsed = try GFMTables.parse("\n" + t.markdown)
        #expect(parsed.count == 1 && parsed[0].rows.allSatisfy { $0.count == 2 })
        #expect(parsed[0].rows[0][0] == "a \\| b" && parsed[0].rows[0][1] == "1<br>2")
    }

    @Test("summary comes first and names tiers staleness and the top driver") func summaryComesFirstAndNamesTiersStalenessAndTheTopDriver()
        throws
    {
        let md = report.markdown()
        let summary = try #require(md.range(of: "## In 30 seconds"))
        let tables = try #require(md.range(of: "## Requests per month"))
        #expect(summary.lowerBound < tables.lowerBound)
        let head = String(md[summary.lowerBound..<tables.lowerBound])
        #expect(head.contains("**cache-bgtask** (the baseline design)"))
        #expect(head.contains("needs **"))
        // Freshness on one yardstick for every design (the target), not each design's own TTL.
        let target = NumberText.human(ReportFixtures.result.scenario.population.freshnessTargetMinutes)
        let base = try #require(
            ReportFixtures.result.results.first { $0.design == "cache-bgtask" && $0.users == ReportFixtures.result.focusUsers })
        #expect(
            head.contains(
                "older than \(target) min, or none, at \(NumberText.percent(base.freshness.overTargetShare, digits: 0)) of glances"))
        let top = try #require(ReportFixtures.sensitivity.drivers.first)
        #expect(head.contains("What moves the answer most:** `\(top.assumption)`"))
        #expect(head.contains("## Thresholds"))
    }

    @Test("assumptions list every value mark uncertain and calibrated ones and the method")
    func assumptionsListEveryValueMarkUncertainAndCalibratedOnesAndTheMethod() {
        let md = report.markdown()
        let assumptions = String(md[md.range(of: "## Assumptions")!.lowerBound...])
        for (path, d) in RunParameters.assumptions(of: ReportFixtures.scenario) {
            #expect(assumptions.contains("`\(path)` | \(d.summary)"), "missing \(path)")
        }
        #expect(assumptions.contains("`population.appOpensPerDay` | triangular(1, 2, 4) | uncertain, measured"))
        #expect(assumptions.contains("measured by analyze"))
        #expect(assumptions.contains("Seed \(ReportFixtures.scenario.horizon.seed), 3 Monte-Carlo runs"))
        #expect(assumptions.contains("`horizon.users` | 1, 100"))
    }

    @Test("thresholds are listed with their verdict") func thresholdsAreListedWithTheirVerdict() {
        let md = report.markdown()
        #expect(md.contains("| `requestsPerUserMonth.p95{design=direct} > 1` | fail-if | **FAILED** |"))
        #expect(md.contains("| `staleShare > 2` | warn-if | passed |"))
    }

    @Test("csv files round trip through a strict reader") func csvFilesRoundTripThroughAStrictReader() throws {
        let wide = try StrictCSV.parse(report.csv())
        #expect(wide.count == ReportFixtures.result.results.count + 1)
        let header = wide[0]
        let users = try #require(header.firstIndex(of: "users"))
        let total = try #require(header.firstIndex(of: "total_requests_month_mean"))
        for row in wide.dropFirst() {
            #expect(Int(row[users]) != nil)
            #expect(Double(row[total]) != nil, "numbers carry no thousands separators: \(row[total])")
        }
        let tidy = try StrictCSV.parse(report.tidyCSV())
        #expect(tidy[0] == ["design", "users", "tier", "metric", "statistic", "value"])
        #expect(tidy.dropFirst().allSatisfy { Double($0[5]) != nil })
        #expect(tidy.contains { $0[0] == "direct" && $0[1] == "100" && $0[3] == "requestsPerUserMonth" && $0[4] == "p95" })
        #expect(tidy.contains { $0[2] == "free" && $0[3] == "quota.exceedProbability" })
    }

    @Test(
        "csv text cells round trip and formulas are neutralised",
        arguments: ["plain", "a,b", "say \"hi\"", "two\nlines", "cr\r\nlf", "=SUM(A1:A9)", "+1", "-2", "@cmd", "\tTab", ""])
    func csvTextCellsRoundTripAndFormulasAreNeutralised(text: String) throws {
        var w = CSVWriter(header: ["text", "n"])
        w.appendRow([.text(text), .number(1234567.5)])
        let records = try StrictCSV.parse(w.output)
        #expect(records[1][1] == "1234567.5")
        let formula = text.first.map { "=+-@\t".contains($0) } ?? false
        #expect(records[1][0] == (formula ? "'" + text : text))
    }

    /// A CSV number keeps six significant digits however small (prices per token are ~1e-7).
    @Test(
        "csv numbers keep six significant digits",
        arguments: [
            (3e-7, "0.0000003"), (2.5e-6, "0.0000025"), (0.000123456789, "0.000123457"), (0.136466123, "0.136466"),
            (1234567.5, "1234567.5"), (-0.0123456789, "-0.0123457"), (0.0, "0"), (42.0, "42"),
        ])
    func csvNumbersKeepSixSignificantDigits(value: Double, text: String) {
        #expect(CSVWriter.encode(.number(value)) == text)
    }

    @Test("charts are well formed SVG with light and dark styles") func chartsAreWellFormedSVGWithLightAndDarkStyles() throws {
        let charts = report.charts()
        #expect(
            Set(charts.map(\.name)) == [
                "requests-by-users.svg", "typical-day.svg", "busiest-day-by-users.svg", "tradeoff.svg", "sensitivity.svg",
                "cost-by-users.svg",
            ])
        for chart in charts {
            #expect(chart.svg.contains("@media (prefers-color-scheme: dark)"))
            #expect(chart.svg.contains("class=\"background\""))
            let parser = XMLParser(data: Data(chart.svg.utf8))
            #expect(parser.parse(), "\(chart.name) is not well-formed XML: \(String(describing: parser.parserError))")
        }
    }

    @Test("svg escapes text from the scenario") func svgEscapesTextFromTheScenario() throws {
        let chart = LineChart(
            title: "A <b> & \"c\"", subtitle: "x\u{1}", xTitle: "x", yTitle: "y",
            xScale: AxisScale(kind: .linear, covering: [0, 1]), yScale: AxisScale(kind: .log, covering: [1, 1000]),
            series: [ChartSeries(name: "<script>", points: [ChartPoint(x: 0, y: 10, label: "a&b"), ChartPoint(x: 1, y: 100)])])
        let parser = XMLParser(data: Data(chart.svg().utf8))
        #expect(parser.parse())
        #expect(!chart.svg().contains("<script>"))
    }

    @Test("same inputs give the same bytes whatever the thread count") func sameInputsGiveTheSameBytesWhateverTheThreadCount() throws {
        let one = TestSupport.run(ReportFixtures.scenario, designs: ReportFixtures.designs, threads: 1)
        let a = SimulationReport(one, sensitivity: ReportFixtures.sensitivity)
        let b = SimulationReport(ReportFixtures.result, sensitivity: ReportFixtures.sensitivity)
        let filesA = try a.files(in: "out")
        let filesB = try b.files(in: "out")
        #expect(filesA.map(\.path) == filesB.map(\.path))
        for (x, y) in zip(filesA, filesB) { #expect(x.contents == y.contents, "\(x.path) differs between 1 and 2 threads") }
    }

    @Test("json keeps the contract and adds sensitivity and thresholds") func jsonKeepsTheContractAndAddsSensitivityAndThresholds() throws {
        let json = try JSONValue.parse(Data(try report.json().utf8), file: "report.json")
        #expect(json["schemaVersion"]?.number == 1)
        #expect(json["results"]?.array?.first?["requestsPerUserMonth"]?["p95"] != nil)
        #expect(json["results"]?.array?.first?["totalRequestsPerMonth"]?["mean"] != nil)
        #expect(json["sensitivity"]?["drivers"]?.array?.isEmpty == false)
        #expect(json["thresholds"]?.array?.first?["passed"] == .bool(false))
    }
}

@Suite("axis scale") struct AxisScaleTests {
    @Test("linear ticks are round") func linearTicksAreRound() {
        let s = AxisScale(kind: .linear, covering: [3, 97])
        #expect(s.ticks == [0, 20, 40, 60, 80, 100])
        let small = AxisScale(kind: .linear, covering: [0.013, 0.29])
        #expect(small.ticks.allSatisfy { ($0 * 100).rounded() == $0 * 100 })
        #expect(small.lower == 0 && small.upper >= 0.29)
    }

    @Test("log ticks are decades") func logTicksAreDecades() {
        let s = AxisScale(kind: .log, covering: [1, 880_000])
        #expect(s.ticks == [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000])
        #expect(s.label(100_000) == "100k" && s.label(1_000_000) == "1M")
        #expect(abs(s.position(1_000) - 0.5) < 1e-12)
    }

    @Test("clock and percent labels") func clockAndPercentLabels() {
        #expect(AxisScale(kind: .linear, format: .timeOfDay, lower: 0, upper: 1_440, ticks: []).label(390) == "06:30")
        #expect(AxisScale(kind: .linear, format: .percent, lower: 0, upper: 1, ticks: []).label(0.25) == "25%")
    }
}

/// The committed `Reports/` folder: the default report in every format, and it parses.
@Suite("committed reports") struct CommittedReportsTests {
    static let folder = Fixtures.packageURL("Reports")

    func read(_ name: String) throws -> String {
        try String(contentsOf: Self.folder.appendingPathComponent(name), encoding: .utf8)
    }

    @Test("markdown tables and chart links are valid") func markdownTablesAndChartLinksAreValid() throws {
        let md = try read("report.md")
        _ = try GFMTables.parse(md)
        for chart in ["requests-by-users.svg", "typical-day.svg", "tradeoff.svg", "sensitivity.svg"] {
            #expect(md.contains("](\(chart))"))
            let parser = XMLParser(data: Data(try read(chart).utf8))
            #expect(parser.parse(), "\(chart) is not well-formed")
        }
    }

    @Test("csv and JSON parse") func csvAndJSONParse() throws {
        _ = try StrictCSV.parse(try read("summary.csv"))
        _ = try StrictCSV.parse(try read("metrics.csv"))
        let json = try JSONValue.parse(Data(try read("report.json").utf8), file: "report.json")
        let designs = json["method"]?["designs"]?.array?.count ?? 0
        let users = json["scenario"]?["horizon"]?["users"]?.array?.count ?? 0
        #expect(designs > 0 && json["results"]?.array?.count == designs * users, "one result per design × user count")
    }
}

/// The summary CSV says what the Markdown says, in columns a spreadsheet can filter on.
@Suite("summary CSV") struct SummaryCSVTests {
    static func rows(_ csv: String) -> [[String: String]] {
        let lines = csv.split(whereSeparator: \.isNewline).map {
            $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        }
        return lines.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(lines[0], $0)) }
    }

    /// A population no tier can serve is marked as such, not left blank like "no tiers".
    @Test("a population above every tier is marked") func aPopulationAboveEveryTierIsMarked() throws {
        var s = ReportFixtures.scenario
        s.quotas.tiers = [QuotaTier(name: "tiny", rpm: 2, tpm: nil, rpd: nil, readOn: "test", note: "")]
        let report = SimulationReport(TestSupport.run(s, designs: ["direct"]))
        let rows = SummaryCSVTests.rows(report.csv())
        #expect(rows.count == 2)
        for row in rows {
            let above = row["exceeds_every_tier"] == "true"
            #expect(above == (row["tier_needed"] == ""), "\(row)")
        }
        #expect(rows.first { $0["users"] == "100" }?["exceeds_every_tier"] == "true", "100 direct users send more than 2 a minute")
        s.quotas.tiers = []
        let noTiers = SummaryCSVTests.rows(SimulationReport(TestSupport.run(s, designs: ["direct"])).csv())
        #expect(noTiers.allSatisfy { $0["exceeds_every_tier"] == "false" && $0["tier_needed"] == "" })
    }

    /// A reader by position keeps working whatever the tiers: every column but the tiers' has the
    /// same place with no tier, one tier or four, and the tiers' come last.
    @Test("summary columns do not move with the scenario's tiers") func columnsDoNotMoveWithTiers() throws {
        var s = ReportFixtures.scenario
        func header(_ tiers: [QuotaTier]) -> [String] {
            s.quotas.tiers = tiers
            let csv = SimulationReport(TestSupport.run(s, designs: ["direct"])).csv()
            return csv.split(whereSeparator: \.isNewline).first.map { $0.split(separator: ",").map(String.init) } ?? []
        }
        let tier = { (name: String) in QuotaTier(name: name, rpm: 100, tpm: nil, rpd: nil, readOn: "test", note: "") }
        let none = header([])
        #expect(none.first == "design" && none.contains("verdict_deciding_value_without_outage"))
        for tiers in [[tier("solo")], ["a", "b", "c", "d"].map(tier)] {
            let columns = header(tiers)
            #expect(Array(columns.prefix(none.count)) == none)
            #expect(Array(columns.dropFirst(none.count)) == tiers.map { "exceed_probability_" + $0.name })
        }
    }

    /// The headline's freshness yardstick is in the CSV too, and agrees with the JSON.
    @Test("over target share matches the JSON") func overTargetShareMatchesTheJSON() throws {
        let report = ReportFixtures.report
        let json = try JSONValue.parse(Data(try report.json().utf8), file: "report.json")
        let results = try #require(json["results"]?.array)
        let rows = SummaryCSVTests.rows(report.csv())
        #expect(rows.count == results.count)
        for (row, result) in zip(rows, results) {
            let csv = try #require(Double(row["over_target_glance_share"] ?? ""))
            let value = try #require(result["freshness"]?["overTargetShare"]?.number)
            #expect(abs(csv - value) <= 1e-5 * max(value, 1e-9) + 1e-12)
        }
    }
}

/// The report opens with its title and one table a CEO can read before the verdict.
@Suite("At a glance") struct AtAGlanceTests {
    @Test("the scenario's name titles the report and the page; without one, the default title")
    func title() throws {
        var result = ReportFixtures.result
        #expect(SimulationReport(result).markdown().hasPrefix("# WidgetQuota projection\n\n## At a glance\n\n"))
        result.scenario.name = "Match summary widget"
        let report = SimulationReport(result)
        #expect(report.markdown().hasPrefix("# Match summary widget: WidgetQuota projection\n\n## At a glance\n\n"))
        #expect(report.html().contains("<title>Match summary widget: WidgetQuota projection</title>"))
        #expect(throws: (any Error).self) { try ScenarioLoader.decode(Data(#"{"name": "   "}"#.utf8)) }
        #expect(throws: (any Error).self) { try ScenarioLoader.decode(Data(#"{"name": "two\nlines"}"#.utf8)) }
    }

    @Test("one row per design, a column per population; a cell names the limits it misses, the budget among them")
    func fitsNamesTheMissedLimits() throws {
        var result = ReportFixtures.result
        let cells = { (r: SimulationResult) -> [String] in
            let md = SimulationReport(r).markdown()
            let section = md.components(separatedBy: "## At a glance\n\n")[1].components(separatedBy: "\n\n")[0]
            let rows = section.split(separator: "\n").dropFirst(2)
            #expect(rows.count == r.method.designs.count)
            return rows.flatMap { $0.split(separator: "|").dropFirst().map { $0.trimmingCharacters(in: .whitespaces) } }
        }
        #expect(cells(result).count == result.results.count)
        result.scenario.targets = Targets(maxStaleShare: 1, maxCostPerMonth: 1e12)
        #expect(cells(result).allSatisfy { $0.hasPrefix("**yes**") || $0.hasPrefix("no (tier)") })
        result.scenario.targets = Targets(maxStaleShare: 1, maxCostPerMonth: 0)
        let costly = result.results.filter { ($0.cost?.perMonth.mean ?? 0) > 0 }.count
        #expect(cells(result).filter { $0.contains("budget)") }.count == costly)
    }
}
