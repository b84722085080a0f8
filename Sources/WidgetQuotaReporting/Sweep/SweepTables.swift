import Foundation
import WidgetQuotaStudies
import WidgetQuotaSupport

/// The sweep's table in Markdown and CSV.
extension SweepResult {
    /// The sweep's heading: design, knob and population.
    var title: String { "Trade-off: \(design), \(knob.rawValue) for \(NumberText.human(Double(users))) users" }

    /// One row per value, the Pareto-optimal ones marked; shared by the Markdown and the web page.
    func table() -> MarkdownTable {
        var t = MarkdownTable([
            "\(knob.rawValue) (\(unit))", "Requests / user / month", "Total / month",
            "Cost / month", "Peak req/min p95", "Older than target", "Median age (min)", "Pareto",
        ])
        for p in points {
            t.append([
                NumberText.plain(p.value), NumberText.human(p.requestsPerUserMonth),
                NumberText.human(p.totalRequestsPerMonth.mean.rounded()),
                p.costPerMonth.map(ReportFormat.money) ?? "–", NumberText.human(p.peakRequestsPerMinuteP95),
                NumberText.percent(p.overTargetShare), p.medianAgeMinutes.map { NumberText.human($0) } ?? "–",
                p.pareto ? "✓" : "",
            ])
        }
        return t
    }

    /// What the ✓ means, and the runs and seed behind the table.
    var paretoNote: String {
        "✓ marks values that no other value beats on both requests and glances older than the freshness target "
            + "(the Pareto front). \(runs) runs, seed \(seed)."
    }

    /// A Markdown table with the Pareto-optimal values marked.
    package func markdown() -> String {
        "## \(title)\n\n" + (addition.map { "**Note:** \($0).\n\n" } ?? "") + table().markdown + "\n" + paretoNote + "\n" + note
    }

    /// What a reader must know to read this knob's table.
    var note: String {
        switch knob {
        case .background:
            return "\niOS grants about `platform.backgroundRunsPerDay` launches a day whatever `earliestBeginDate` says, as long "
                + "as the interval is shorter than 24 h ÷ runs per day (the Gemini widget report: \"not a promise\"), so short intervals change "
                + "little; differences smaller than the run-to-run spread are noise, not a reason to choose.\n"
        case .ttl, .poll:
            return ""
        }
    }

    /// One row per value.
    package func csv() -> String {
        var w = CSVWriter(header: [
            "design", "knob", "value", "unit", "users", "requests_per_user_month", "total_requests_month_mean",
            "cost_per_month", "peak_rpm_p95", "over_target_share", "stale_share", "error_share", "median_age_minutes", "pareto",
        ])
        for p in points {
            w.appendRow([
                .text(design), .text(knob.rawValue), .number(p.value), .text(unit), .integer(users),
                .number(p.requestsPerUserMonth), .number(p.totalRequestsPerMonth.mean),
                p.costPerMonth.map(CSVWriter.Cell.number) ?? .empty, .number(p.peakRequestsPerMinuteP95),
                .number(p.overTargetShare), .number(p.staleShare), .number(p.errorShare),
                p.medianAgeMinutes.map(CSVWriter.Cell.number) ?? .empty, .text(p.pareto ? "true" : "false"),
            ])
        }
        return w.output
    }
}
