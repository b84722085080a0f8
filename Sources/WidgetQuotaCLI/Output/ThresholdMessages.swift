import WidgetQuotaGates
import WidgetQuotaKit
import WidgetQuotaReporting
import WidgetQuotaSupport

/// Threshold and change-gate outcomes on standard error (or as GitHub annotations), and the exit
/// code they give.
enum ThresholdMessages {
    /// Prints failures and warnings (passes too unless quiet) and returns 1 if a `--fail-if` failed.
    static func report(_ outcomes: [ThresholdOutcome], console: Console, quiet: Bool) -> ExitCode {
        for o in outcomes where !(o.passed && quiet) {
            console.err("threshold \(colored(o.verdict, o.passed, o.severity, console)): \(o.expression) (\(details(o)))\n")
        }
        return outcomes.contains(where: \.failsRun) ? .thresholdFailed : .success
    }

    /// Prints the change gates as `report` prints thresholds.
    static func report(_ gates: [ChangeOutcome], console: Console, quiet: Bool) {
        for gate in gates where !(gate.passed && quiet) {
            console.err(
                "change gate \(colored(gate.verdict, gate.passed, gate.severity, console)): \(gate.expression) (\(details(gate)))\n")
        }
    }

    /// One GitHub Actions annotation per threshold or gate that did not pass: `::error` for a
    /// failed `--fail-if`, `::warning` for a `--warn-if` that holds; nothing when all pass.
    static func annotations(_ outcomes: [ThresholdOutcome], gates: [ChangeOutcome] = []) -> String {
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

    static func colored(_ verdict: String, _ passed: Bool, _ severity: Threshold.Severity, _ console: Console) -> String {
        guard console.decorates && !passed else { return verdict }
        return (severity == .fail ? "\u{1B}[31m" : "\u{1B}[33m") + verdict + "\u{1B}[0m"
    }

    /// "14 rows checked; 14 in violation, worst design=direct, users=250000: $38,312".
    static func details(_ o: ThresholdOutcome) -> String {
        var text = "\(o.rowsChecked) row\(o.rowsChecked == 1 ? "" : "s") checked"
        if let worst = o.violations.first {
            text += "; \(o.violations.count) in violation, worst \(worst.row): \(o.formattedValue(worst))"
        }
        return text
    }

    /// "3 rows compared; 1 in violation, worst design=…: $10 → $12, +20%".
    static func details(_ gate: ChangeOutcome) -> String {
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

extension Console {
    /// The report's verdict, a few lines per design, on standard error (not with `--quiet`).
    func verdict(_ report: SimulationReport, quiet: Bool) {
        guard !quiet else { return }
        err(report.verdictText())
    }

    /// `Wrote N files into DIR: a, b, c` (unless quiet).
    func wrote(_ files: OutputFiles, quiet: Bool) {
        guard !quiet else { return }
        err("Wrote \(files.files.count) files into \(files.directory): \(files.names.joined(separator: ", "))\n")
    }
}
