import Foundation
import WidgetQuotaCharts
import WidgetQuotaModel
import WidgetQuotaSimulation
import WidgetQuotaStudies
import WidgetQuotaSupport

/// The report's first section: one table a CEO can read, design × population → whether it fits
/// the owner's limits (tier, staleness and, when set, budget), the tier it needs, its cost a month
/// and how often a glance finds old content or none.
struct AtAGlanceSection {
    let result: SimulationResult

    static let title = "At a glance"

    var targets: Targets { result.scenario.targets }
    var tiers: [QuotaTier] { result.scenario.quotas.tiers }
    var target: String { NumberText.human(result.scenario.population.freshnessTargetMinutes) }

    /// Designs in the order the verdict speaks of them: the baseline first.
    var designs: [String] {
        let baseline = result.method.baseline
        return result.method.designs.filter { $0 == baseline } + result.method.designs.filter { $0 != baseline }
    }

    /// "yes", or "no (tier, budget)" naming the limits the row misses.
    func fits(_ r: DesignResult) -> String {
        var missed = [String]()
        if !RecommendationStudy.withinTier(r, maxTier: targets.maxTier, tiers: tiers) { missed.append("tier") }
        if r.freshness.targetShare > targets.maxStaleShare { missed.append("staleness") }
        if !targets.withinBudget(r.cost?.perMonth.mean) { missed.append("budget") }
        return missed.isEmpty ? "**yes**" : "no (" + missed.joined(separator: ", ") + ")"
    }

    /// What a cell says, in order, and the limits, with the flags and keys that set them.
    var legend: String {
        let tier = targets.maxTier ?? tiers.last.map { "\($0.name) (the last listed tier)" } ?? "any tier"
        var text = "Each cell: whether the design fits your limits (and which it misses), the quota tier it needs"
        text += result.results.contains { $0.cost != nil } ? ", its cost a month" : ""
        let glances = DesignResult.Freshness.targetGlances(openHours: result.scenario.hasOpenHours)
        text += ", and the share of \(glances) at content older than \(target) min, or none. Your limits: at most **\(tier)**, "
        text += "that share at no more than **\(NumberText.percent(targets.maxStaleShare, digits: 0))**"
        if let budget = targets.maxCostPerMonth { text += ", and at most **\(ReportFormat.money(budget)) a month**" }
        return text + " (`targets`, or `--max-tier`, `--max-stale-share`, `--max-cost`). The verdict below says why."
    }

    /// One row per design, one column per population.
    func table() -> MarkdownTable {
        let users = Array(Set(result.results.map(\.users))).sorted()
        var table = MarkdownTable(
            ["Design"] + users.map { ReportFormat.users($0) + ($0 == 1 ? " user" : " users") },
            alignments: [.left] + users.map { _ in .left })
        let builder = VerdictBuilder(result: result, withoutOutages: nil)
        for design in designs {
            table.append(
                [design]
                    + users.map { n in
                        guard let r = result.results.first(where: { $0.design == design && $0.users == n }) else { return "–" }
                        var cell = [fits(r), tiers.isEmpty ? "no tiers" : builder.tierText(r.requiredTier)]
                        if let cost = r.cost?.perMonth.mean { cell.append(ReportFormat.money(cost)) }
                        cell.append(NumberText.percent(r.freshness.targetShare, digits: 0) + " old")
                        return cell.joined(separator: " · ")
                    })
        }
        return table
    }

    func markdown() -> String { "## \(Self.title)\n\n" + table().markdown + "\n" + legend + "\n" }

    func page() -> PageSection {
        PageSection(
            title: Self.title,
            blocks: [.table(table(), label: "Each design and population: fits, tier, cost, staleness"), .paragraph(legend)])
    }
}
