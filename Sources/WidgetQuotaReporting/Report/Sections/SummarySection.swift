import Foundation
import WidgetQuotaModel
import WidgetQuotaSimulation
import WidgetQuotaStudies
import WidgetQuotaSupport

/// The first screen of the report: what a product owner needs in 30 seconds.
package struct SummarySection {
    let facts: ReportFacts
    let sensitivity: SensitivityResult?

    package init(facts: ReportFacts, sensitivity: SensitivityResult?) {
        self.facts = facts
        self.sensitivity = sensitivity
    }

    func markdown() -> String {
        let n = facts.focusUsers
        let baseline = facts.result.method.baseline
        var md = "## In 30 seconds\n\n"
        md += "For **\(ReportFormat.users(n)) users** over a \(facts.result.scenario.horizon.days)-day month:\n\n"
        var bullets = [String]()
        if let base = facts.row(baseline, users: n) {
            bullets.append("**\(baseline)** (the baseline design) " + describe(base))
        }
        let others = facts.designs.filter { $0 != baseline }.compactMap { facts.row($0, users: n) }
        for r in others { bullets.append(brief(r)) }
        md += bullets.map { "- " + $0 }.joined(separator: "\n") + "\n"
        md += "\n" + driverSentence(baseline: baseline) + "\n"
        md += "\n" + byUsersTable().markdown
        md +=
            "\nEach cell: requests a month (mean over runs; k = thousand, M = million, B = billion)\(facts.hasCost ? " · cost a month" : "") · the cheapest quota tier with at most a "
        md += "\(NumberText.percent(facts.result.scenario.quotas.acceptableRisk, digits: 0)) chance of hitting a limit in the month. "
        md += "*\(staleHeader)*: when the user glances at it, the widget shows content older than the freshness target "
        md += "(`population.freshnessTargetMinutes`), or an error or placeholder instead of content (a failed direct call, or a "
        md += "cache nobody has filled). The same yardstick for every design, whatever its cache TTL; the freshness table also "
        md += "gives the share older than each design's own TTL.\n"
        return md
    }

    /// The freshness target in minutes, as the headline prints it.
    var target: String { NumberText.human(facts.result.scenario.population.freshnessTargetMinutes) }

    /// The headline's freshness column: glances that find content older than the target, or none.
    var staleHeader: String { "Older than \(target) min, or no content" }

    /// The baseline design in words: requests, cost, tier, staleness.
    func describe(_ r: DesignResult) -> String {
        var text = "sends about **\(ReportFormat.whole(r.totalRequestsPerMonth.mean)) requests a month** "
        text += "(\(ReportFormat.range(r.totalRequestsPerMonth.p5, r.totalRequestsPerMonth.p95)) across runs; "
        text += "\(NumberText.human(r.requestsPerUserMonth.mean)) per user)"
        if let cost = r.cost?.perMonth.mean {
            text += ", costs about **\(ReportFormat.money(cost)) a month**"
        }
        text += ", needs **\(facts.tierText(r))**"
        text +=
            " and shows content older than \(target) min, or none, at \(NumberText.percent(r.freshness.targetShare, digits: 0)) of \(r.freshness.targetGlances)"
        if let age = r.freshness.targetMedianAgeMinutes { text += " (median content age \(NumberText.human(age)) min)" }
        return text + "."
    }

    /// Another design in one line, relative to the baseline.
    func brief(_ r: DesignResult) -> String {
        var text = "**\(r.design)**: \(ReportFormat.whole(r.totalRequestsPerMonth.mean)) requests a month"
        if let x = r.ratioToBaseline { text += " (\(NumberText.human(x))× the baseline)" }
        if let cost = r.cost?.perMonth.mean { text += ", \(ReportFormat.money(cost))" }
        return text
            + ", needs \(facts.tierText(r)), older than \(target) min or none at \(NumberText.percent(r.freshness.targetShare, digits: 0)) of \(r.freshness.targetGlances)."
    }

    /// The one assumption that moves the answer most.
    package func driverSentence(baseline: String) -> String {
        guard let s = sensitivity else {
            return "**What moves the answer most:** not measured in this run (sensitivity analysis turned off)."
        }
        guard let widest = s.drivers.first, widest.swing > 0 else {
            return "**What moves the answer most:** nothing: no assumption of this scenario is uncertain."
        }
        let noise = s.noiseShare.map { " (the sensitivity sample's own noise is ±\(NumberText.percent($0, digits: 1)) of it)" } ?? ""
        guard let top = s.dominantDriver else {
            return "**What moves the answer most:** no single assumption dominates. The widest swing, `\(widest.assumption)`'s "
                + "\(NumberText.percent(widest.swingShare, digits: 1)) of \(s.design)'s monthly \(s.measure), is within "
                + "\(NumberText.plain(SensitivityResult.noiseMultiple)) times the noise of the sample that measured it\(noise); "
                + "the totals' ranges across runs are the uncertainty to plan with."
        }
        // Assumptions whose swing is within the noise of the widest one's move the answer as much.
        let peers =
            s.noise.map { noise in
                s.drivers.dropFirst().filter { top.swing - $0.swing < SensitivityResult.noiseMultiple * noise && $0.exceedsNoise == true }
            } ?? []
        if !peers.isEmpty {
            let named = ([top] + peers).map {
                "`\($0.assumption)` (assumed \($0.distribution), a swing of \(NumberText.percent($0.swingShare, digits: 0)))"
            }
            return "**What moves the answer most:** \(named.dropLast().joined(separator: ", ")) and \(named.last!), about equally: their "
                + "swings in \(s.design)'s monthly \(s.measure) for \(ReportFormat.users(s.users)) users differ by less than "
                + "\(NumberText.plain(SensitivityResult.noiseMultiple)) times the sensitivity sample's own noise"
                + (s.noiseShare.map { " (±\(NumberText.percent($0, digits: 1)) of them)" } ?? "")
                + ". Pin them down first (see *What drives the number*)."
        }
        return "**What moves the answer most:** `\(top.assumption)`, assumed \(top.distribution). "
            + "At its p5 (\(NumberText.human(top.lowValue))) \(s.design) \(s.measure == "credits" ? "uses" : "sends") "
            + "\(ReportFormat.whole(top.requestsAtLow)) \(s.measure) a month "
            + "for \(ReportFormat.users(s.users)) users, at its p95 (\(NumberText.human(top.highValue))) \(ReportFormat.whole(top.requestsAtHigh)): "
            + "a swing of \(NumberText.percent(top.swingShare, digits: 0))\(noise). Pin it down first (see *What drives the number*)."
    }

    /// Designs × user counts: requests, cost and tier.
    func byUsersTable() -> MarkdownTable {
        let users = facts.userCounts
        var t = MarkdownTable(["Design"] + users.map { ReportFormat.users($0) + ($0 == 1 ? " user" : " users") } + [staleHeader])
        for design in facts.designs {
            var row = [design]
            for n in users {
                guard let r = facts.row(design, users: n) else {
                    row.append("–")
                    continue
                }
                var cell = ReportFormat.short(r.totalRequestsPerMonth.mean)
                if let cost = r.cost?.perMonth.mean { cell += " · " + ReportFormat.shortMoney(cost) }
                row.append(cell + " · " + facts.tierText(r))
            }
            row.append(facts.rows(design).first.map { NumberText.percent($0.freshness.targetShare, digits: 0) } ?? "–")
            t.append(row)
        }
        return t
    }
}
