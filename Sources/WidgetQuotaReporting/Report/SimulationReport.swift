import Foundation
import WidgetQuotaCharts
import WidgetQuotaGates
import WidgetQuotaModel
import WidgetQuotaSimulation
import WidgetQuotaStudies
import WidgetQuotaSupport

/// Renders a `SimulationResult` as Markdown, CSV (wide and tidy), JSON and SVG charts.
///
/// The Markdown opens with what a product owner needs in 30 seconds, then the tables, the
/// sensitivity analysis, the thresholds checked and the assumptions. Same inputs, same bytes.
public struct SimulationReport: Sendable {
    /// The simulation's result.
    public let result: SimulationResult
    /// The one-at-a-time sensitivity analysis, when it was run.
    public var sensitivity: SensitivityResult?
    /// Thresholds checked against this result.
    public var thresholds: [ThresholdOutcome]
    /// A sweep of one design knob (the TTL trade-off), when it was run.
    public var sweep: SweepResult?
    /// The same runs' loads on ordinary days (the outages' minutes at the other days' mean), for
    /// the verdict's tier without the outages.
    public var withoutOutages: SimulationResult?
    /// The cheapest design within the owner's limits and the simulated changes to their design.
    public var recommendation: Recommendation?
    let facts: ReportFacts

    package init(_ result: SimulationResult, sensitivity: SensitivityResult? = nil, thresholds: [ThresholdOutcome] = []) {
        self.result = result
        self.sensitivity = sensitivity
        self.thresholds = thresholds
        self.facts = ReportFacts(result)
    }

    /// For each design and population: the tier, the limit that decides it and when, and advice.
    public var verdicts: [Verdict] { VerdictBuilder(result: result, withoutOutages: withoutOutages).all() }

    /// The verdict for the terminal: a few lines per design, no tables.
    package func verdictText() -> String { verdictSection().terminal() }

    func verdictSection() -> VerdictSection {
        VerdictSection(
            result: result, verdicts: verdicts, comparedWithoutOutages: withoutOutages != nil && !result.scenario.api.outages.isEmpty)
    }

    /// The report's numbers as labelled records (for thresholds).
    public var metrics: MetricTable { facts.metrics }

    /// "Match summary widget: WidgetQuota projection", or "WidgetQuota projection" for a scenario
    /// without a `name`.
    public var title: String {
        guard let name = result.scenario.name?.trimmingCharacters(in: .whitespaces), !name.isEmpty else {
            return "WidgetQuota projection"
        }
        return name + ": WidgetQuota projection"
    }

    /// What thresholds check: the result rows' metrics and the growth plan's months
    /// (`growth.costPerMonth{design=…,month=7}`), as `diff` reads them from report.json.
    public var thresholdMetrics: MetricTable {
        let plans = growth
        guard !plans.isEmpty, let json = try? JSONValue.of(["growth": plans]) else { return metrics }
        return MetricTable(records: metrics.records + MetricTable(json: json).records)
    }

    /// File names written by `files(in:)`.
    package enum FileName {
        package static let markdown = "report.md"
        package static let json = "report.json"
        package static let summaryCSV = "summary.csv"
        package static let tidyCSV = "metrics.csv"
        package static let html = "report.html"
        /// One row per design, population and calendar event (written when the scenario has events).
        package static let eventsCSV = "events.csv"
        /// Every file a report can write; a run writes a subset (no sweep, no sensitivity chart...).
        package static var all: [String] {
            [markdown, html, json, summaryCSV, tidyCSV, eventsCSV] + Sweep.Knob.allCases.map { "sweep-\($0.rawValue).csv" }
                + ReportCharts.File.all
                + GrowthSection.File.all
        }
    }

    // MARK: JSON

    /// The JSON contract (`schemaVersion` 1), plus `verdicts`, and `sensitivity` and `thresholds` when present.
    package func json() throws -> String {
        try JSONOutput.encode(
            ReportDocument(
                result: result, sensitivity: sensitivity, thresholds: thresholds.isEmpty ? nil : thresholds,
                sweep: sweep, verdicts: verdicts, growth: growth, recommendation: recommendation))
    }

    // MARK: Growth

    /// Per design, `horizon.growth` month by month (empty when the scenario has no growth).
    public var growth: [GrowthPlan] { GrowthSection(result: result).plans() }

    // MARK: CSV

    /// The wide summary: one row per design × user count.
    package func csv() -> String { ReportCSV(facts: facts, verdicts: verdicts).wide() }

    /// The tidy long file: design, users, tier, metric, statistic, value.
    package func tidyCSV() -> String { ReportCSV(facts: facts).tidy() }

    // MARK: Charts

    /// Every chart as (file name, SVG text).
    package func charts() -> [(name: String, svg: String)] { charts(layout: .wide) }

    /// Every chart in `layout`: the files' 820 px, or 400 px for a phone's screen.
    package func charts(layout: ChartLayout) -> [(name: String, svg: String)] {
        ReportCharts(facts: facts, sensitivity: sensitivity, sweep: sweep).all(layout: layout)
    }

    // MARK: Markdown

    /// The report a product owner reads; `linkCharts` embeds the SVG files written beside it.
    package func markdown(linkCharts: Bool = false) -> String {
        let tables = ResultTables(facts: facts)
        func chart(_ file: String, _ alt: String) -> String { linkCharts ? "![\(alt)](\(file))\n\n" : "" }
        var md = "# \(title)\n\n"
        md += AtAGlanceSection(result: result).markdown() + "\n"
        md += verdictSection().markdown() + "\n"
        if let recommendation { md += RecommendationSection(result: result, recommendation: recommendation).markdown() + "\n" }
        md += SummarySection(facts: facts, sensitivity: sensitivity).markdown()
        if !thresholds.isEmpty { md += "\n" + ThresholdSection(outcomes: thresholds).markdown() }
        md += "\n## Requests per month\n\n"
        md += chart(ReportCharts.File.requestsByUsers, "Requests per month by number of users, one line per design")
        md += tables.requests().markdown
        md += "\nPer user: mean and spread across users (p5–p95, p99), pooled over runs. Total: mean with the p5–p95 range across "
        md += "Monte-Carlo runs, i.e. how sure we are given the uncertain assumptions. Rows marked *projected* are scaled from "
        md += "a simulated sample of \(ReportFormat.users(result.method.sampleUsers)) users.\n"
        md += "\n## What each design does per user and day\n\n" + tables.behaviour().markdown
        md += "\n## Quotas and headroom\n\n"
        md += chart(ReportCharts.File.typicalDay, "Requests per minute over a typical day, with per-minute quota limits")
        if result.scenario.quotas.tiers.contains(where: { $0.rpd != nil }) {  // the chart's tiers with a daily limit
            md += chart(ReportCharts.File.busiestDay, "Requests in the busiest quota day by number of users, with daily quota limits")
        }
        md += "*Tier needed*: the cheapest tier with at most a \(NumberText.percent(result.scenario.quotas.acceptableRisk, digits: 0)) "
        md += "chance of hitting any of its limits (\(tables.limitsText)) in the month.\n\n"
        md += tables.quotas().markdown
        if let headroom = tables.headroom() {
            md += "\nHeadroom: the most users each design can serve on each tier with at most a "
            md +=
                "\(NumberText.percent(result.scenario.quotas.acceptableRisk, digits: 0)) chance of hitting a limit.\n\n" + headroom.markdown
        }
        md += "\nTier limits used (check them in your console; they change):\n\n" + tables.tiers().markdown
        if let cost = tables.cost() {
            md +=
                "\n## Cost\n\n" + chart(ReportCharts.File.costByUsers, "Cost per month in dollars by number of users, one line per design")
            md += costIntro() + cost.markdown
        }
        if let growth = GrowthSection(result: result).markdown(chart: linkCharts ? GrowthSection.File.chart : nil) {
            md += "\n" + growth
        }
        md += "\n## Freshness: what users see at a glance\n\n"
        md += chart(
            ReportCharts.File.tradeoff,
            sweep == nil
                ? "Requests per user against the share of glances older than the freshness target, one point per design"
                : "Requests per user against the share of glances older than the freshness target: each design, and the TTL sweep")
        md += tables.freshnessNote + "\n\n"
        md += tables.freshness().markdown
        if let sweep {
            md += "\n" + sweep.markdown().replacingOccurrences(of: "## Trade-off", with: "### Trade-off")
        }
        if let shared = SharedContentSection(result: result).markdown() { md += "\n" + shared }
        md += "\n## Outage\n\n" + outageIntro() + tables.outage().markdown
        if let s = sensitivity {
            md += "\n" + SensitivitySection(sensitivity: s).markdown(chart: linkCharts ? ReportCharts.File.sensitivity : nil)
        }
        md += "\n" + AssumptionsSection(result: result, sensitivity: sensitivity).markdown()
        return md
    }

    func costIntro() -> String {
        guard let c = result.results.lazy.compactMap(\.cost).first else { return "" }
        if let pricing = result.scenario.api.pricing, pricing.per != .token {
            return PricingText.sentence(pricing, tiers: result.scenario.quotas.tiers) + "\n\n"
        }
        return "Model `\(c.model)` at \(NumberText.dollars(c.inputCostPerToken * 1e6)) per million input tokens and "
            + "\(NumberText.dollars(c.outputCostPerToken * 1e6)) per million output tokens (\(c.priceSource)); failed requests are not billed.\n\n"
    }

    func outageIntro() -> String {
        let outages = result.scenario.api.outages
        guard !outages.isEmpty else { return "The scenario has no outage window.\n\n" }
        let windows = outages.map { o in
            "day \(o.day) from \(ReportFormat.clock(minutes: o.startHourUTC * .minutesPerHour)) UTC "
                + "for \(NumberText.plain(o.durationHours, maxFractionDigits: 2)) h, "
                + "\(NumberText.percent(o.errorRate, digits: 0)) of requests failing"
        }
        let several = outages.count > 1
        return "What users saw at a glance during the \(several ? "outages" : "outage") (\(windows.joined(separator: "; "))), "
            + "how many requests \(several ? "they" : "it") added (against the same users without \(several ? "them" : "it")) "
            + "and the retry storm when \(several ? "the earliest" : "it") ended, for \(ReportFormat.users(facts.focusUsers)) users. "
            + "Extra requests are measured on the first \(MonteCarloEngine.outageCounterfactualUsers) simulated users of each run, "
            + "re-simulated without the outage, and scaled to the population; a negative figure means the outage saved requests "
            + "(a fetch stops at its first failed request, so a design that sends several requests per fetch sends fewer).\n\n"
    }

    // MARK: Web page

    /// The report as one self-contained web page: the Markdown's sections, charts inline.
    package func html() -> String { ReportPage(report: self).html() }

    // MARK: Files

    /// Every output for `--out DIR`: Markdown (linking the charts), the web page, JSON, both CSV files and the SVGs.
    package func files(in directory: String) throws -> [(path: String, contents: String)] {
        let dir = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        var files = [
            (dir + "/" + FileName.markdown, markdown(linkCharts: true)),
            (dir + "/" + FileName.html, html()),
            (dir + "/" + FileName.json, try json()),
            (dir + "/" + FileName.summaryCSV, csv()),
            (dir + "/" + FileName.tidyCSV, tidyCSV()),
        ]
        if let sweep { files.append((dir + "/sweep-\(sweep.knob.rawValue).csv", sweep.csv())) }
        if let events = ReportCSV(facts: facts).events() { files.append((dir + "/" + FileName.eventsCSV, events)) }
        files += charts().map { (dir + "/" + $0.name, $0.svg) }
        let growth = GrowthSection(result: result)
        if let csv = growth.csv() { files.append((dir + "/" + GrowthSection.File.csv, csv)) }
        if let chart = growth.chart() { files.append((dir + "/" + GrowthSection.File.chart, chart.svg())) }
        return files.map { (path: $0.0, contents: $0.1) }
    }
}

/// The JSON document: the result's own keys, plus the sensitivity analysis and thresholds.
struct ReportDocument: Encodable {
    let result: SimulationResult
    let sensitivity: SensitivityResult?
    let thresholds: [ThresholdOutcome]?
    let sweep: SweepResult?
    let verdicts: [Verdict]
    var growth: [GrowthPlan] = []
    var recommendation: Recommendation? = nil

    enum Keys: String, CodingKey { case sensitivity, thresholds, sweep, verdicts, growth, recommendation }

    func encode(to encoder: Encoder) throws {
        try result.encode(to: encoder)
        var c = encoder.container(keyedBy: Keys.self)
        try c.encodeIfPresent(sensitivity, forKey: .sensitivity)
        try c.encodeIfPresent(thresholds, forKey: .thresholds)
        try c.encodeIfPresent(sweep, forKey: .sweep)
        if !verdicts.isEmpty { try c.encode(verdicts, forKey: .verdicts) }
        if !growth.isEmpty { try c.encode(growth, forKey: .growth) }
        try c.encodeIfPresent(recommendation, forKey: .recommendation)
    }
}
