import WidgetQuotaGates
import WidgetQuotaSupport

/// Threshold and change-gate outcomes in words: the details after each verdict, and one GitHub
/// Actions annotation per outcome that did not pass.
package enum ThresholdText {
    /// One `::error` (a failed `--fail-if`) or `::warning` (a `--warn-if` that holds) per
    /// threshold or gate that did not pass, a line each; nothing when all pass.
    package static func annotations(_ outcomes: [ThresholdOutcome], gates: [ChangeOutcome] = []) -> String {
        var lines = outcomes.filter { !$0.passed }.map { o in
            GitHubCommand.annotation(
                level(o.severity), [("title", "widget-quota threshold " + o.verdict)], "\(o.expression): \(details(o))")
        }
        lines += gates.filter { !$0.passed }.map { gate in
            GitHubCommand.annotation(
                level(gate.severity), [("title", "widget-quota change gate " + gate.verdict)], "\(gate.expression): \(details(gate))")
        }
        return lines.map { $0 + "\n" }.joined()
    }

    static func level(_ severity: Threshold.Severity) -> String { severity == .fail ? "error" : "warning" }

    /// "14 rows checked; 14 in violation, worst design=direct, users=250000: $38,312".
    package static func details(_ o: ThresholdOutcome) -> String {
        var text = "\(o.rowsChecked) row\(o.rowsChecked == 1 ? "" : "s") checked"
        if let worst = o.violations.first {
            text += "; \(o.violations.count) in violation, worst \(worst.row): \(o.formattedValue(worst))"
        }
        return text
    }

    /// "3 rows compared; 1 in violation, worst design=…: $10 → $12, +20%".
    package static func details(_ gate: ChangeOutcome) -> String {
        var text = "\(gate.rows.count) row\(gate.rows.count == 1 ? "" : "s") compared"
        if let worst = gate.worst {
            text +=
                "; \(gate.violations) in violation, \(gate.passed ? "largest" : "worst") \(worst.row): "
                + "\(worst.baseText ?? gate.formatted(worst.base)) → \(worst.headText ?? gate.formatted(worst.head)), "
                + gate.formattedChange(worst.change)
        }
        return text
    }
}
