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
            t.append(["`\(d.assumption)`", d.distribution, "\(NumberText.human(d.lowValue)) → \(NumberText.human(d.highValue))",
                      ReportFormat.whole(d.requestsAtLow), ReportFormat.whole(d.requestsAtHigh), ReportFormat.whole(d.swing),
                      NumberText.percent(d.swingShare)])
        }
        if t.rows.isEmpty { t.append(["(none: every assumption is fixed)", "–", "–", "–", "–", "–", "–"]) }
        return md + t.markdown
    }
}

/// The thresholds checked (`--fail-if`, `--warn-if`) and whether each passed.
struct ThresholdSection {
    let outcomes: [ThresholdOutcome]

    func markdown() -> String {
        let failed = outcomes.filter(\.failsRun).count
        let failIfs = outcomes.filter { $0.severity == .fail }.count
        let warnings = outcomes.filter { $0.severity == .warn && !$0.passed }.count
        let warnIfs = outcomes.count - failIfs
        var lines = [String]()
        if failIfs > 0 {
            lines.append(failed == 0 ? "All \(failIfs) fail-if threshold\(failIfs == 1 ? "" : "s") passed."
                         : "**\(failed) of \(failIfs) fail-if threshold\(failIfs == 1 ? "" : "s") failed.**")
        }
        if warnIfs > 0 {
            lines.append(warnings == 0 ? "No warn-if threshold was crossed (\(warnIfs) checked)."
                         : "\(warnings) of \(warnIfs) warn-if threshold\(warnIfs == 1 ? "" : "s") raised a warning.")
        }
        var md = "## Thresholds\n\n" + lines.joined(separator: " ") + "\n\n"
        var t = MarkdownTable(["Threshold", "Kind", "Result", "Rows checked", "Rows in violation", "Worst row"],
                              alignments: [.left, .left, .left, .right, .right, .left])
        for o in outcomes {
            let worst = o.violations.first.map { "\($0.row): \(o.formattedValue($0))" } ?? "–"
            t.append(["`\(o.expression)`", o.severity == .fail ? "fail-if" : "warn-if", o.passed ? "passed" : "**\(o.verdict)**",
                      String(o.rowsChecked), String(o.violations.count), worst])
        }
        return md + t.markdown
    }
}
