import Foundation
import WidgetQuotaGates
import WidgetQuotaSupport

/// The thresholds checked (`--fail-if`, `--warn-if`) and whether each passed.
package struct ThresholdSection {
    let outcomes: [ThresholdOutcome]

    package init(outcomes: [ThresholdOutcome]) {
        self.outcomes = outcomes
    }

    package func markdown() -> String {
        let failed = outcomes.filter(\.failsRun).count
        let failIfs = outcomes.filter { $0.severity == .fail }.count
        let warnings = outcomes.filter { $0.severity == .warn && !$0.passed }.count
        let warnIfs = outcomes.count - failIfs
        var lines = [String]()
        if failIfs > 0 {
            lines.append(
                failed == 0
                    ? "All \(failIfs) fail-if threshold\(failIfs == 1 ? "" : "s") passed."
                    : "**\(failed) of \(failIfs) fail-if threshold\(failIfs == 1 ? "" : "s") failed.**")
        }
        if warnIfs > 0 {
            lines.append(
                warnings == 0
                    ? "No warn-if threshold was crossed (\(warnIfs) checked)."
                    : "\(warnings) of \(warnIfs) warn-if threshold\(warnIfs == 1 ? "" : "s") raised a warning.")
        }
        let md = "## Thresholds\n\n" + lines.joined(separator: " ") + "\n\n"
        var t = MarkdownTable(
            ["Threshold", "Kind", "Result", "Rows checked", "Rows in violation", "Worst row"],
            alignments: [.left, .left, .left, .right, .right, .left])
        for o in outcomes {
            let worst = o.violations.first.map { "\($0.row): \(o.formattedValue($0))" } ?? "–"
            t.append([
                "`\(o.expression)`", o.severity == .fail ? "fail-if" : "warn-if", o.passed ? "passed" : "**\(o.verdict)**",
                String(o.rowsChecked), String(o.violations.count), worst,
            ])
        }
        return md + t.markdown
    }
}
