import Foundation
import WidgetQuotaModel
import WidgetQuotaStudies
import WidgetQuotaSupport

/// "What drives the number": the one-at-a-time sensitivity table (the tornado chart is beside it),
/// shared by the Markdown report and the web page.
struct SensitivitySection {
    let sensitivity: SensitivityResult

    static let title = "What drives the number"

    /// What the table shows and how to read it.
    var intro: String {
        let s = sensitivity
        return "Monthly \(s.measure) of **\(s.design)** (the baseline design) for \(ReportFormat.users(s.users)) users when one uncertain "
            + "assumption moves to its p5 or its p95 (or a fixed input that is a guess before launch, such as the keys a user "
            + "follows or WidgetKit's reload budget, to a low and a high value) and every other stays at its central value "
            + "(\(ReportFormat.whole(s.central)) with all central). Widest swing first: narrow the top rows' ranges "
            + "(measure them with `analyze`) before trusting the totals. Other designs respond to other assumptions: "
            + "a direct design to getTimeline calls, a cache design to app opens and background runs."
    }

    /// One row per uncertain assumption, widest swing first.
    func table() -> MarkdownTable {
        let unit = sensitivity.measure.prefix(1).uppercased() + sensitivity.measure.dropFirst()
        var t = MarkdownTable(["Assumption", "Distribution", "p5 → p95", "\(unit) at p5", "\(unit) at p95", "Swing", "Swing %"])
        for d in sensitivity.drivers {
            t.append([
                "`\(d.assumption)`", d.distribution, "\(NumberText.human(d.lowValue)) → \(NumberText.human(d.highValue))",
                ReportFormat.whole(d.requestsAtLow), ReportFormat.whole(d.requestsAtHigh), ReportFormat.whole(d.swing),
                NumberText.percent(d.swingShare),
            ])
        }
        if t.rows.isEmpty { t.append(["(none: every assumption is fixed)", "–", "–", "–", "–", "–", "–"]) }
        return t
    }

    /// What moves the decision rather than the total: the assumptions whose p5 or p95 changes
    /// the tier or plan needed (nil when the scenario lists no tiers).
    var decisionIntro: String? {
        let s = sensitivity
        guard s.drivers.contains(where: { $0.movesTier != nil || $0.costSwing != nil }) else { return nil }
        let users = ReportFormat.users(s.users)
        let central = (s.centralTier ?? "none of the listed tiers") + (s.centralCost.map { ", \(ReportFormat.money($0)) a month" } ?? "")
        guard !s.decisionDrivers.isEmpty else {
            return "**What moves the decision:** no assumption at its p5 or p95 changes the tier or plan \(users) users of "
                + "\(s.design) need, or their cost by \(NumberText.percent(SensitivityResult.decisiveCostShare, digits: 0)) "
                + "(\(central) with all central)."
        }
        return "**What moves the decision:** at its p5 or p95 each of these changes the tier or plan \(users) users of \(s.design) "
            + "need, or their cost by \(NumberText.percent(SensitivityResult.decisiveCostShare, digits: 0)) or more "
            + "(\(central) with all central); those that change the tier first, then the widest change in cost. "
            + "Pin them down before choosing a plan."
    }

    /// One row per assumption that moves the tier or plan.
    func decisionTable() -> MarkdownTable? {
        let drivers = sensitivity.decisionDrivers
        guard !drivers.isEmpty else { return nil }
        var t = MarkdownTable(["Assumption", "Tier at p5", "Tier at p95", "Cost at p5", "Cost at p95"])
        for d in drivers {
            t.append([
                "`\(d.assumption)`", d.tierAtLow ?? "none listed", d.tierAtHigh ?? "none listed",
                d.costAtLow.map(ReportFormat.money) ?? "–", d.costAtHigh.map(ReportFormat.money) ?? "–",
            ])
        }
        return t
    }

    func markdown(chart: String?) -> String {
        var md = "## \(Self.title)\n\n" + intro + "\n\n"
        if let chart { md += "![Tornado: the swing in monthly \(sensitivity.measure) from each assumption](\(chart))\n\n" }
        md += table().markdown
        if let decision = decisionIntro { md += "\n" + decision + "\n" }
        if let table = decisionTable() { md += "\n" + table.markdown }
        return md
    }
}
