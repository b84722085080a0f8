import Foundation
import WidgetQuotaModel
import WidgetQuotaSimulation
import WidgetQuotaStudies
import WidgetQuotaSupport

/// The verdict in words: the report's first section, and the few lines a command prints on the
/// terminal after writing a report.
package struct VerdictSection {
    let result: SimulationResult
    let verdicts: [Verdict]
    /// True when the verdicts compare against the loads of ordinary days (the outages' minutes at
    /// the other days' mean).
    let comparedWithoutOutages: Bool

    package init(result: SimulationResult, verdicts: [Verdict], comparedWithoutOutages: Bool) {
        self.result = result
        self.verdicts = verdicts
        self.comparedWithoutOutages = comparedWithoutOutages
    }

    var builder: VerdictBuilder { VerdictBuilder(result: result, withoutOutages: nil) }
    var target: String { NumberText.human(result.scenario.population.freshnessTargetMinutes) }

    /// Designs in the order the report speaks of them: the baseline first.
    var designs: [String] {
        let baseline = result.method.baseline
        return result.method.designs.filter { $0 == baseline } + result.method.designs.filter { $0 != baseline }
    }

    func title(_ design: String) -> String { design == result.method.baseline ? design + " (the baseline)" : design }

    /// `tier2`, or `above tier3: no published tier is enough`.
    func tierText(_ v: Verdict) -> String {
        v.exceedsEveryTier ? builder.tierText(v.tier) + " (no published tier is enough)" : builder.tierText(v.tier)
    }

    func glance(_ v: Verdict) -> String {
        var text =
            "content older than \(target) min, or none, at \(NumberText.percent(v.overTargetShare, digits: 0)) of "
            + DesignResult.Freshness.targetGlances(openHours: result.scenario.hasOpenHours)
        if let age = v.medianAgeMinutes { text += " (median age \(NumberText.human(age)) min)" }
        return text
    }

    /// `, $12.40 a month`, and against the budget when there is one: `, $412 a month: $112 over the $300 budget`.
    func cost(_ v: Verdict, emphasis: String = "**") -> String {
        guard let cost = v.costPerMonth else { return "" }
        var text = ", " + ReportFormat.money(cost) + " a month"
        if let budget = v.maxCostPerMonth, let within = v.withinBudget {
            text +=
                within
                ? " (within the \(ReportFormat.money(budget)) budget)"
                : ": \(emphasis)\(ReportFormat.money(cost - budget)) over the \(ReportFormat.money(budget)) budget\(emphasis)"
        }
        return text
    }

    func users(_ n: Int) -> String { ReportFormat.users(n) + (n == 1 ? " user" : " users") }

    package func markdown() -> String {
        let q = result.scenario.quotas
        var md = "## Verdict\n\n"
        md += "For each design and population: the quota tier needed (the cheapest with at most a "
        md += "\(NumberText.percent(q.acceptableRisk, digits: 0)) chance of hitting a limit in the month), the limit that decides it "
        md += "and when, the cost a month, and what to do. Peaks are the p95 across \(result.method.runs) runs"
        md +=
            comparedWithoutOutages
            ? "; the tier without \(builder.outageText) is measured on the same runs with \(VerdictBuilder.ordinaryDaysText).\n"
            : ".\n"
        if let note = meanCreditsNote { md += "\n" + note + "\n" }
        for design in designs {
            let rows = verdicts.filter { $0.design == design }
            guard let first = rows.last else { continue }
            md += "\n### \(title(design))\n\n"
            md += "At a glance users see \(glance(first)).\n\n"
            for v in rows {
                md += "- **\(users(v.users)): \(tierText(v))**\(cost(v)). \(v.reason)" + (v.advice.isEmpty ? "" : " " + v.advice) + "\n"
            }
        }
        return md
    }

    /// The populations the terminal speaks of: the report's focus population and the largest.
    var terminalUsers: [Int] {
        let focus = result.focusUsers
        let largest = result.results.map(\.users).max() ?? focus
        return focus == largest ? [focus] : [focus, largest]
    }

    /// When users follow different numbers of keys of an API billed per key, what the limits
    /// count a request that carries its user's keys at (the mix's mean credits), and how much more
    /// a minute's credits vary than its requests at the smallest busiest minute of such a design
    /// (the credits of R requests from independent users vary by the keys' coefficient of
    /// variation ÷ √R more than R × the mean); nil otherwise.
    package var meanCreditsNote: String? {
        let s = result.scenario
        guard let mix = s.content.keysPerUserMix, let fewest = mix.map(\.keys).min(), let most = mix.map(\.keys).max(), fewest < most,
            let pricing = s.api.pricing, pricing.per == .credit, let perKey = pricing.creditsPerKey, perKey > 0
        else { return nil }
        let carrying = Set(
            result.method.designs.filter { name in
                guard let d = s.availableDesigns.first(where: { $0.name == name }) else { return false }
                return d.backend == nil && !d.requestPerKey
            })
        let peaks = result.results.filter { carrying.contains($0.design) }.map(\.load.peakRequestsPerMinute.p95).filter { $0 > 0 }
        guard let peak = peaks.min() else { return nil }
        let mean = s.content.meanKeysPerUser
        let cv = max(s.content.requestWeightedKeys / mean - 1, 0).squareRoot()
        return "A request that carries its user's keys counts at the mix's mean, \(NumberText.plain(mean * perKey)) credits, in the limits "
            + "and the busiest minutes below. Users follow \(fewest) to \(most) keys, so a minute's credits vary more than its requests: "
            + "by about ±\(NumberText.percent(cv / peak.squareRoot(), digits: 0)) (one standard deviation) at a busiest minute of "
            + "\(NumberText.plain(peak.rounded())) requests, less in busier ones."
    }

    /// A few lines per design, no tables: the tier, its reason and the cost at the focus and the
    /// largest population, what users see, and the advice for the largest.
    func terminal() -> String {
        let shown = terminalUsers
        var text = "Verdict for \(shown.map { users($0) }.joined(separator: " and ")) (every population is in report.md):\n"
        for design in designs {
            let rows = verdicts.filter { $0.design == design && shown.contains($0.users) }
            guard let largest = rows.last else { continue }
            text += "\n\(title(design)): users see \(glance(largest)).\n"
            for v in rows { text += "  \(users(v.users)): \(tierText(v))\(cost(v, emphasis: "")). \(v.reason)\n" }
            if !largest.advice.isEmpty { text += "  What to do: \(largest.advice)\n" }
        }
        return text + "\n"
    }
}
