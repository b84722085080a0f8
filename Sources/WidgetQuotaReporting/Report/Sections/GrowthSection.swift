import Foundation
import WidgetQuotaCharts
import WidgetQuotaModel
import WidgetQuotaSimulation
import WidgetQuotaStudies
import WidgetQuotaSupport

/// The growth plan's section, table, CSV and cost chart, from the plans `GrowthPlanner` makes.
package struct GrowthSection {
    let result: SimulationResult
    let planner: GrowthPlanner

    package init(result: SimulationResult) {
        self.result = result
        planner = GrowthPlanner(result: result)
    }

    /// Names of the files it adds to a report.
    enum File {
        static let csv = "growth.csv"
        static let chart = "growth-cost.svg"
        static let all = [csv, chart]
    }

    /// Users in each month, or nil when the scenario has no growth.
    var users: [Int]? { planner.users }

    /// One plan per design, in the result's design order (empty without growth).
    package func plans() -> [GrowthPlan] { planner.plans() }

    /// How the months were read, in a sentence or two.
    func methodText() -> String {
        let sample = ReportFormat.users(result.method.sampleUsers)
        return "Every month is read from the same simulation, none simulated again: requests and cost scale the mean per user of "
            + "the \(sample) users simulated in each of \(result.method.runs) runs (a month with exactly the users of a listed "
            + "population takes that population's figures), and the tier comes from the headroom search over the same runs, which "
            + "projects any population from that sample, as the tier per population in the quota table does. "
            + (result.scenario.horizon.days == 30 ? "" : "A month here is the scenario's \(result.scenario.horizon.days) days. ")
    }

    /// "Runs out: free and tier1 from month 1 (not enough at launch); tier2 in month 3. Holds through month 6: tier3."
    package func runsOutText(_ plan: GrowthPlan) -> String {
        guard !plan.tiers.isEmpty else {
            return result.scenario.quotas.missingTiersReason(model: result.scenario.api.model) ?? "The scenario lists no quota tiers."
        }
        var byMonth = [(month: Int, tiers: [String])]()
        for t in plan.tiers {
            guard let m = t.runsOutInMonth else { continue }
            if let i = byMonth.firstIndex(where: { $0.month == m }) {
                byMonth[i].tiers.append(t.tier)
            } else {
                byMonth.append((m, [t.tier]))
            }
        }
        func list(_ names: [String]) -> String {
            names.count < 2 ? names.joined() : names.dropLast().joined(separator: ", ") + " and " + names.last!
        }
        var sentences = [String]()
        if !byMonth.isEmpty {
            sentences.append(
                "Runs out: "
                    + byMonth.map {
                        "\(list($0.tiers)) " + ($0.month == 1 ? "from month 1 (not enough at launch)" : "in month \($0.month)")
                    }
                    .joined(separator: "; ") + ".")
        }
        let holding = plan.tiers.filter { $0.runsOutInMonth == nil }.map(\.tier)
        sentences.append(
            holding.isEmpty
                ? "No listed tier is enough from month \(byMonth.last?.month ?? 1) on."
                : "Holds through month \(plan.months.count): \(list(holding)).")
        if let budget = plan.maxCostPerMonth, plan.months.contains(where: { $0.cost != nil }) {
            let money = ReportFormat.money(budget)
            if let month = plan.overBudgetInMonth, let cost = plan.months.first(where: { $0.month == month })?.cost {
                sentences.append(
                    "**Over the \(money) budget "
                        + (month == 1 ? "from month 1**" : "in month \(month)**") + " (\(ReportFormat.money(cost)) a month).")
            } else if let unpriced = plan.unpricedFromMonth {
                sentences.append(
                    "Within the \(money) budget through month \(unpriced - 1); from month \(unpriced) no listed plan carries it, "
                        + "so its cost is not known.")
            } else {
                sentences.append("Within the \(money) budget through month \(plan.months.count).")
            }
        }
        return sentences.joined(separator: " ")
    }

    /// The parts of the "Growth month by month" section, shared by the Markdown and the web page.
    struct Section {
        static let title = "Growth month by month"
        /// What the months are and how they were projected.
        var intro: String
        /// True when some month has a cost (the cost chart is worth drawing).
        var hasCost: Bool
        /// Per design: its heading, its months and when each tier runs out.
        var designs: [(heading: String, table: MarkdownTable, runsOut: String)]
    }

    /// The section's parts (nil without growth).
    func section() -> Section? {
        let plans = plans()
        guard let users, !plans.isEmpty else { return nil }
        var intro = "Users per month from `horizon.growth`: " + users.map(ReportFormat.users).joined(separator: ", ") + ". "
        intro += "Per design: each month's requests, cost and the tier it needs (the cheapest with at most a "
        intro += "\(NumberText.percent(result.scenario.quotas.acceptableRisk, digits: 0)) chance of hitting a limit), the cost so far, "
        intro += "and the month each tier runs out (the first month it is no longer enough). "
        intro += methodText().trimmingCharacters(in: .whitespaces)
        let tierText = VerdictBuilder(result: result, withoutOutages: nil)
        let designs = plans.map { plan in
            let credits = plan.months.contains { $0.credits != nil }
            var table = MarkdownTable(
                ["Month", "Users", "Requests"] + (credits ? ["Credits"] : []) + ["Cost", "Cost so far", "Tier needed"])
            for m in plan.months {
                table.append(
                    [String(m.month), ReportFormat.users(m.users), ReportFormat.whole(m.requests)]
                        + (credits ? [m.credits.map(ReportFormat.whole) ?? "–"] : []) + [
                            m.cost.map(ReportFormat.money) ?? "–", m.cumulativeCost.map(ReportFormat.money) ?? "–",
                            result.scenario.quotas.tiers.isEmpty ? "–" : tierText.tierText(m.tier),
                        ])
            }
            return (plan.design + (plan.design == result.method.baseline ? " (the baseline)" : ""), table, runsOutText(plan))
        }
        return Section(intro: intro, hasCost: plans.contains { $0.months.contains { $0.cost != nil } }, designs: designs)
    }

    /// The report's "Growth month by month" section (nil without growth).
    func markdown(chart: String?) -> String? {
        guard let section = section() else { return nil }
        var md = "## \(Section.title)\n\n" + section.intro + "\n\n"
        if let chart, section.hasCost {
            md += "![Cost a month in US dollars over the launch, one line per design](\(chart))\n\n"
        }
        for design in section.designs {
            md += "### \(design.heading)\n\n" + design.table.markdown + "\n" + design.runsOut + "\n\n"
        }
        return md
    }

    /// growth.csv: one row per design and month; the month each tier runs out, and the first month
    /// over the budget, repeat on the design's rows.
    package func csv() -> String? {
        let plans = plans()
        guard !plans.isEmpty else { return nil }
        let tiers = result.scenario.quotas.tiers.map(\.name)
        var w = CSVWriter(
            header: [
                "design", "month", "users", "method", "requests_per_month", "cost_per_month", "cumulative_cost", "tier_needed",
                "exceeds_every_tier", "within_budget", "over_budget_month",
            ] + tiers.map { "runs_out_month_" + $0 })
        for plan in plans {
            for m in plan.months {
                let fixed: [CSVWriter.Cell] = [
                    .text(plan.design), .integer(m.month), .integer(m.users), .text(m.method), .number(m.requests),
                    m.cost.map(CSVWriter.Cell.number) ?? .empty, m.cumulativeCost.map(CSVWriter.Cell.number) ?? .empty,
                    m.tier.map(CSVWriter.Cell.text) ?? .empty, .text(m.exceedsEveryTier ? "true" : "false"),
                    plan.maxCostPerMonth.flatMap { budget in m.cost.map { .text($0 <= budget ? "true" : "false") } } ?? .empty,
                    plan.overBudgetInMonth.map(CSVWriter.Cell.integer) ?? .empty,
                ]
                let out = tiers.map { name in
                    plan.tiers.first { $0.tier == name }?.runsOutInMonth.map(CSVWriter.Cell.integer) ?? .empty
                }
                w.appendRow(fixed + out)
            }
        }
        return w.output
    }

    /// Cost a month in US dollars against the month, one line per design (nil without growth or prices).
    func chart() -> LineChart? {
        let plans = plans()
        guard let users, !plans.isEmpty, plans.contains(where: { $0.months.contains { $0.cost != nil } }) else { return nil }
        let series = plans.map { plan in
            ChartSeries(
                name: plan.design,
                points: plan.months.compactMap { m in m.cost.map { ChartPoint(x: Double(m.month), y: $0) } })
        }
        let budget = result.scenario.targets.maxCostPerMonth
        let references = budget.map { [ReferenceLine(label: "budget: \(ReportFormat.money($0)) a month", y: $0)] } ?? []
        // Logarithmic, so that the cheap designs and the month each crosses the budget stay visible
        // beside the dearest one.
        let ys = series.flatMap { $0.points.map(\.y) }.filter { $0 > 0 } + references.map(\.y)
        let step = max(1, (users.count + 11) / 12)
        return LineChart(
            title: "Cost a month over the launch, in US dollars",
            subtitle: "Users per month from horizon.growth (" + ReportFormat.users(users.first ?? 0) + " to "
                + ReportFormat.users(users.last ?? 0) + "); mean over \(result.method.runs) Monte-Carlo runs; logarithmic dollars"
                + (budget == nil ? "." : ", with the budget."),
            xTitle: "Month", yTitle: "US dollars a month",
            xScale: AxisScale(
                kind: .linear, format: .number, lower: 1, upper: Double(max(users.count, 2)),
                ticks: stride(from: 1, through: max(users.count, 2), by: step).map(Double.init)),
            yScale: AxisScale(kind: .log, format: .dollars, covering: ys), series: series, references: references)
    }
}
