import WidgetQuotaGates
import WidgetQuotaKit
import WidgetQuotaReporting

/// Threshold and change-gate outcomes on standard error, coloured on a terminal.
enum ThresholdMessages {
    /// Prints failures and warnings (passes too unless quiet).
    static func report(_ outcomes: [ThresholdOutcome], console: Console, quiet: Bool) {
        for o in outcomes where !(o.passed && quiet) {
            console.err("threshold \(colored(o.verdict, o.passed, o.severity, console)): \(o.expression) (\(ThresholdText.details(o)))\n")
        }
    }

    /// Prints the change gates as `report` prints thresholds.
    static func report(_ gates: [ChangeOutcome], console: Console, quiet: Bool) {
        for gate in gates where !(gate.passed && quiet) {
            console.err(
                "change gate \(colored(gate.verdict, gate.passed, gate.severity, console)): \(gate.expression) "
                    + "(\(ThresholdText.details(gate)))\n")
        }
    }

    static func colored(_ verdict: String, _ passed: Bool, _ severity: Threshold.Severity, _ console: Console) -> String {
        guard console.decorates && !passed else { return verdict }
        return (severity == .fail ? "\u{1B}[31m" : "\u{1B}[33m") + verdict + "\u{1B}[0m"
    }
}
