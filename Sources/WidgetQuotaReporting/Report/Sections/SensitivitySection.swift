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
        return "Monthly requests of **\(s.design)** (the baseline design) for \(ReportFormat.users(s.users)) users when one uncertain "
            + "assumption moves to its p5 or its p95 and every other stays at its central value "
            + "(\(ReportFormat.whole(s.central)) with all central). Widest swing first: narrow the top rows' ranges "
            + "(measure them with `analyze`) before trusting the totals. Other designs respond to other assumptions: "
            + "a direct design to getTimeline calls, a cache design to app opens and background runs."
    }

    /// One row per uncertain assumption, widest swing first.
    func table() -> MarkdownTable {
        var t = MarkdownTable(["Assumption", "Distribution", "p5 → p95", "Requests at p5", "Requests at p95", "Swing", "Swing %"])
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

    func markdown(chart: String?) -> String {
        var md = "## \(Self.title)\n\n" + intro + "\n\n"
        if let chart { md += "![Tornado: the swing in monthly requests from each assumption](\(chart))\n\n" }
        return md + table().markdown
    }
}
