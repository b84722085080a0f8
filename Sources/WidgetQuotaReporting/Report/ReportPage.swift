import Foundation
import WidgetQuotaCharts
import WidgetQuotaGates
import WidgetQuotaModel
import WidgetQuotaSimulation
import WidgetQuotaStudies
import WidgetQuotaSupport

/// The report as a web page (`report.html`): the Markdown's sections in the same order, verdict
/// first, built from the same section types, tables and charts (never from the Markdown text).
///
/// To show a new report section on the page, add a function that returns its `PageSection`
/// and list it in `sections()` where the Markdown places it; a test compares the page's headings
/// and table headers with the Markdown's.
struct ReportPage {
    let report: SimulationReport
    /// Every chart by layout and file name, drawn once.
    let charts: [ChartLayout: [String: String]]

    init(report: SimulationReport) {
        self.report = report
        charts = Dictionary(
            uniqueKeysWithValues: ChartLayout.allCases.map { layout in
                (layout, Dictionary(report.charts(layout: layout).map { ($0.name, $0.svg) }, uniquingKeysWith: { a, _ in a }))
            })
    }

    var result: SimulationResult { report.result }
    var facts: ReportFacts { report.facts }
    var tables: ResultTables { ResultTables(facts: facts) }

    /// The page as one self-contained HTML document.
    func html() -> String {
        let m = result.method
        let lede =
            "\(m.designs.count) design\(m.designs.count == 1 ? "" : "s") for "
            + facts.userCounts.map { ReportFormat.users($0) }.joined(separator: ", ")
            + " users over a \(result.scenario.horizon.days)-day month; seed \(m.seed), \(m.runs) Monte-Carlo runs. "
            + "Written by \(result.tool.name) \(result.tool.version) with report.md, report.json and the CSV and SVG files beside it."
        return HtmlPage(title: report.title, lede: lede, sections: sections()).render()
    }

    /// The sections in the Markdown's order.
    func sections() -> [PageSection] {
        var all = [AtAGlanceSection(result: result).page(), verdict()]
        if let recommendation = report.recommendation {
            let section = RecommendationSection(result: result, recommendation: recommendation)
            all.append(PageSection(title: RecommendationSection.title, blocks: section.blocks()))
        }
        all.append(summary())
        if !report.thresholds.isEmpty { all.append(thresholds()) }
        all += [requests(), behaviour(), quotas()]
        if let cost = cost() { all.append(cost) }
        if let growth = growth() { all.append(growth) }
        all.append(freshness())
        if let shared = SharedContentSection(result: result).page() { all.append(shared) }
        all.append(outage())
        if let s = report.sensitivity { all.append(sensitivity(s)) }
        all.append(assumptions())
        return all
    }

    /// The chart named `file`, when this report draws it.
    func chart(_ file: String) -> PageBlock? {
        guard let svg = charts[.wide]?[file] else { return nil }
        return .chart(
            svg: svg, narrow: charts[.narrow]?[file], id: "chart-" + HtmlText.anchor(file.replacingOccurrences(of: ".svg", with: "")))
    }

    // MARK: Sections

    func verdict() -> PageSection {
        let v = report.verdictSection()
        let q = result.scenario.quotas
        var intro =
            "For each design and population: the quota tier needed (the cheapest with at most a "
            + "\(NumberText.percent(q.acceptableRisk, digits: 0)) chance of hitting a limit in the month), the limit that decides it "
            + "and when, the cost a month, and what to do. Peaks are the p95 across \(result.method.runs) runs"
        intro +=
            v.comparedWithoutOutages
            ? "; the tier without \(v.builder.outageText) is measured on the same runs with \(VerdictBuilder.ordinaryDaysText)." : "."
        var blocks: [PageBlock] = [.paragraph(intro)]
        for design in v.designs {
            let rows = v.verdicts.filter { $0.design == design }
            guard let last = rows.last else { continue }
            blocks.append(
                .card([
                    .heading(v.title(design)), .paragraph("At a glance users see \(v.glance(last))."),
                    .bullets(
                        rows.map { r in
                            "**\(v.users(r.users)): \(v.tierText(r))**\(v.cost(r)). \(r.reason)" + (r.advice.isEmpty ? "" : " " + r.advice)
                        }),
                ]))
        }
        return PageSection(title: "Verdict", blocks: blocks)
    }

    func summary() -> PageSection {
        let s = SummarySection(facts: facts, sensitivity: report.sensitivity)
        let n = facts.focusUsers
        let baseline = result.method.baseline
        var bullets = [String]()
        if let base = facts.row(baseline, users: n) { bullets.append("**\(baseline)** (the baseline design) " + s.describe(base)) }
        bullets += facts.designs.filter { $0 != baseline }.compactMap { facts.row($0, users: n) }.map(s.brief)
        let legend =
            "Each cell: requests a month (mean over runs; k = thousand, M = million, B = billion)\(facts.hasCost ? " · cost a month" : "") "
            + "· the cheapest quota tier with at most a \(NumberText.percent(result.scenario.quotas.acceptableRisk, digits: 0)) chance "
            + "of hitting a limit in the month. *\(s.staleHeader)*: when the user glances at it, the widget shows content older than "
            + "the freshness target (`population.freshnessTargetMinutes`), or an error or placeholder instead of content (a failed "
            + "direct call, or a cache nobody has filled). The same yardstick for every design, whatever its cache TTL; the freshness "
            + "table also gives the share older than each design's own TTL."
        return PageSection(
            title: "In 30 seconds",
            blocks: [
                .paragraph("For **\(ReportFormat.users(n)) users** over a \(result.scenario.horizon.days)-day month:"), .bullets(bullets),
                .paragraph(s.driverSentence(baseline: baseline)),
                .table(s.byUsersTable(), label: "Requests, cost and tier by design and number of users"), .paragraph(legend),
            ])
    }

    func thresholds() -> PageSection {
        let outcomes = report.thresholds
        let failed = outcomes.filter(\.failsRun).count
        let failIfs = outcomes.filter { $0.severity == .fail }.count
        let warnings = outcomes.filter { $0.severity == .warn && !$0.passed }.count
        let warnIfs = outcomes.count - failIfs
        func plural(_ n: Int) -> String { n == 1 ? "" : "s" }
        var lines = [String]()
        if failIfs > 0 {
            lines.append(
                failed == 0
                    ? "All \(failIfs) fail-if threshold\(plural(failIfs)) passed."
                    : "**\(failed) of \(failIfs) fail-if threshold\(plural(failIfs)) failed.**")
        }
        if warnIfs > 0 {
            lines.append(
                warnings == 0
                    ? "No warn-if threshold was crossed (\(warnIfs) checked)."
                    : "\(warnings) of \(warnIfs) warn-if threshold\(plural(warnIfs)) raised a warning.")
        }
        var t = MarkdownTable(
            ["Threshold", "Kind", "Result", "Rows checked", "Rows in violation", "Worst row"],
            alignments: [.left, .left, .left, .right, .right, .left])
        for o in outcomes {
            t.append([
                "`\(o.expression)`", o.severity == .fail ? "fail-if" : "warn-if", o.passed ? "passed" : "**\(o.verdict)**",
                String(o.rowsChecked), String(o.violations.count),
                o.violations.first.map { "\($0.row): \(o.formattedValue($0))" } ?? "–",
            ])
        }
        return PageSection(title: "Thresholds", blocks: [.paragraph(lines.joined(separator: " ")), .table(t, label: "Thresholds checked")])
    }

    func requests() -> PageSection {
        let note =
            "Per user: mean and spread across users (p5–p95, p99), pooled over runs. Total: mean with the p5–p95 range across "
            + "Monte-Carlo runs, i.e. how sure we are given the uncertain assumptions. Rows marked *projected* are scaled from "
            + "a simulated sample of \(ReportFormat.users(result.method.sampleUsers)) users."
        return PageSection(
            title: "Requests per month",
            blocks: [chart(ReportCharts.File.requestsByUsers), .table(tables.requests(), label: "Requests per month"), .paragraph(note)]
                .compactMap { $0 })
    }

    func behaviour() -> PageSection {
        PageSection(
            title: "What each design does per user and day",
            blocks: [.table(tables.behaviour(), label: "What each design does per user and day")])
    }

    func quotas() -> PageSection {
        let risk = NumberText.percent(result.scenario.quotas.acceptableRisk, digits: 0)
        var blocks = [PageBlock]()
        if let c = chart(ReportCharts.File.typicalDay) { blocks.append(c) }
        if let c = chart(ReportCharts.File.busiestDay) { blocks.append(c) }
        blocks.append(
            .paragraph(
                "*Tier needed*: the cheapest tier with at most a \(risk) chance of hitting any of its limits (\(tables.limitsText)) "
                    + "in the month."))
        blocks.append(.table(tables.quotas(), label: "Tier needed and peak load"))
        if let headroom = tables.headroom() {
            blocks.append(
                .paragraph("Headroom: the most users each design can serve on each tier with at most a \(risk) chance of hitting a limit."))
            blocks.append(.table(headroom, label: "Headroom: most users per tier"))
        }
        blocks.append(.paragraph("Tier limits used (check them in your console; they change):"))
        blocks.append(.table(tables.tiers(), label: "Tier limits used"))
        return PageSection(title: "Quotas and headroom", blocks: blocks)
    }

    func cost() -> PageSection? {
        guard let table = tables.cost() else { return nil }
        var blocks = [PageBlock]()
        if let c = chart(ReportCharts.File.costByUsers) { blocks.append(c) }
        let intro = report.costIntro().trimmingCharacters(in: .whitespacesAndNewlines)
        if !intro.isEmpty { blocks.append(.paragraph(intro)) }
        blocks.append(.table(table, label: "Cost per month"))
        return PageSection(title: "Cost", blocks: blocks)
    }

    func growth() -> PageSection? {
        let growth = GrowthSection(result: result)
        guard let section = growth.section() else { return nil }
        var blocks: [PageBlock] = [.paragraph(section.intro)]
        if section.hasCost, let chart = growth.chart() {
            let id = "chart-" + HtmlText.anchor(GrowthSection.File.chart.replacingOccurrences(of: ".svg", with: ""))
            blocks.append(.chart(svg: chart.svg(), narrow: chart.svg(layout: .narrow), id: id))
        }
        for design in section.designs {
            blocks += [.heading(design.heading), .table(design.table, label: "Growth of \(design.heading)"), .paragraph(design.runsOut)]
        }
        return PageSection(title: GrowthSection.Section.title, blocks: blocks)
    }

    func freshness() -> PageSection {
        var blocks = [PageBlock]()
        if let c = chart(ReportCharts.File.tradeoff) { blocks.append(c) }
        blocks.append(.paragraph(tables.freshnessNote))
        blocks.append(.table(tables.freshness(), label: "Freshness by design"))
        if let sweep = report.sweep { blocks += self.sweep(sweep) }
        return PageSection(title: "Freshness: what users see at a glance", blocks: blocks)
    }

    /// The sweep's table, as `SweepResult.markdown()` lays it out.
    func sweep(_ sweep: SweepResult) -> [PageBlock] {
        var blocks: [PageBlock] = [.heading(sweep.title)]
        if let addition = sweep.addition { blocks.append(.paragraph("**Note:** \(addition).")) }
        blocks += [.table(sweep.table(), label: "Trade-off: \(sweep.knob.rawValue) sweep"), .paragraph(sweep.paretoNote)]
        let note = sweep.note.trimmingCharacters(in: .whitespacesAndNewlines)
        if !note.isEmpty { blocks.append(.paragraph(note)) }
        return blocks
    }

    func outage() -> PageSection {
        PageSection(
            title: "Outage",
            blocks: [
                .paragraph(report.outageIntro().trimmingCharacters(in: .whitespacesAndNewlines)),
                .table(tables.outage(), label: "Outage: what users saw and what it cost"),
            ])
    }

    func sensitivity(_ s: SensitivityResult) -> PageSection {
        let section = SensitivitySection(sensitivity: s)
        return PageSection(
            title: SensitivitySection.title,
            blocks: [
                .paragraph(section.intro), chart(ReportCharts.File.sensitivity), .table(section.table(), label: SensitivitySection.title),
                section.decisionIntro.map { PageBlock.paragraph($0) },
                section.decisionTable().map { PageBlock.table($0, label: "What moves the decision") },
            ]
            .compactMap { $0 })
    }

    func assumptions() -> PageSection {
        let a = AssumptionsSection(result: result, sensitivity: report.sensitivity)
        let m = result.method
        let scenario = result.scenario
        var blocks: [PageBlock] = [
            .paragraph(
                "Seed \(m.seed), \(m.runs) Monte-Carlo runs × \(ReportFormat.users(m.sampleUsers)) simulated users, "
                    + "\(scenario.horizon.days) days after a \(scenario.horizon.warmupDays)-day warm-up; written by "
                    + "\(result.tool.name) \(result.tool.version). The same scenario and seed give byte-identical reports, whatever the "
                    + "number of threads."),
            .paragraph("**Method.** " + m.description),
        ]
        if let s = report.sensitivity {
            blocks.append(
                .paragraph(
                    "**Sensitivity.** Each uncertain assumption was moved alone to its p5 and its p95 (each fixed input to its low and high value) while the others stayed at their "
                        + "central value; each setting is one run of \(ReportFormat.users(s.sampleUsers)) users of \(s.design) with the "
                        + "same random streams (common random numbers), scaled to \(ReportFormat.users(s.users)) users. "
                        + (s.noise.map { noise in
                            "The sample's own noise, measured by repeating every setting on each half of its users, is "
                                + "±\(ReportFormat.whole(noise)) \(s.measure) a month (\(NumberText.percent(s.noiseShare ?? 0, digits: 1))) on a "
                                + "swing; the headline names an assumption only when its swing is at least "
                                + "\(NumberText.plain(SensitivityResult.noiseMultiple)) times that."
                        } ?? "Swings of a few percent are within that sample's noise.")))
        }
        if let c = scenario.calibration {
            blocks.append(.paragraph("**Calibrated.** Values marked *measured* come from `analyze` (\(c.source))."))
        }
        blocks += [
            .heading("Uncertain assumptions"),
            .paragraph(
                "Drawn once per run: what we do not know. How users differ from each other is drawn per user inside each run."),
            .table(a.uncertainTable(), label: "Uncertain assumptions"),
            .heading("Designs compared"), .table(a.designsTable(), label: "Designs compared"),
        ]
        let all = a.settings()
        var t = MarkdownTable(["Setting", "Value", "Kind"], alignments: [.left, .left, .left])
        for s in all {
            t.append([
                "`\(s.path)`", s.value,
                [s.uncertain ? "uncertain" : "", s.calibrated ? "measured" : ""].filter { !$0.isEmpty }.joined(separator: ", "),
            ])
        }
        blocks.append(.details(summary: "Every scenario value used (\(all.count))", [.table(t, label: "Every scenario value used")]))
        return PageSection(title: "Assumptions", blocks: blocks)
    }
}
