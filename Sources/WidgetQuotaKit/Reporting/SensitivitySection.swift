import Foundation

/// "What drives the number": the one-at-a-time sensitivity table (the tornado chart is beside it).
struct SensitivitySection {
    let sensitivity: SensitivityResult

    func markdown(chart: String?) -> String {
        let s = sensitivity
        var md = "## What drives the number\n\n"
        md += "Monthly requests of **\(s.design)** (the baseline design) for \(ReportFormat.users(s.users)) users when one uncertain "
        md += "assumption moves to its p5 or its p95 and every other stays at its central value "
        md += "(\(ReportFormat.whole(s.central)) with all central). Widest swing first: narrow the top rows' ranges "
        md += "(measure them with `analyze`) before trusting the totals. Other designs respond to other assumptions: "
        md += "a direct design to getTimeline calls, a cache design to app opens and background runs.\n\n"
        if let chart { md += "![Tornado: the swing in monthly requests from each assumption](\(chart))\n\n" }
        var t = MarkdownTable(["Assumption", "Distribution", "p5 → p95", "Requests at p5", "Requests at p95", "Swing", "Swing %"])
        for d in s.drivers {
            t.append([
                "`\(d.assumption)`", d.distribution, "\(NumberText.human(d.lowValue)) → \(NumberText.human(d.highValue))",
                ReportFormat.whole(d.requestsAtLow), ReportFormat.whole(d.requestsAtHigh), ReportFormat.whole(d.swing),
                NumberText.percent(d.swingShare),
            ])
        }
        if t.rows.isEmpty { t.append(["(none: every assumption is fixed)", "–", "–", "–", "–", "–", "–"]) }
        return md + t.markdown
    }
}
