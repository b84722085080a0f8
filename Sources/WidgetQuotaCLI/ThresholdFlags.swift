import Foundation
import WidgetQuotaKit

/// `--fail-if` and `--warn-if`, shared by `simulate` and `diff`.
enum ThresholdFlags {
    static let names: Set<String> = ["fail-if", "warn-if"]

    static let help = """
          --fail-if EXPR    fail (exit 1, after writing the report) if EXPR is true for any matching row; repeatable
          --warn-if EXPR    print a warning if EXPR is true for any matching row; repeatable
        """

    /// Parses the thresholds given on the command line (before any work, so a typo fails fast).
    static func parse(_ a: Arguments) throws -> [Threshold] {
        try a.all("fail-if").map { try Threshold($0, severity: .fail) } + a.all("warn-if").map { try Threshold($0, severity: .warn) }
    }

    /// Prints failures and warnings on stderr (passes too unless quiet) and returns the exit code.
    static func report(_ outcomes: [ThresholdOutcome], console: Console, quiet: Bool) -> ExitCode {
        for o in outcomes {
            if o.passed && quiet { continue }
            var verdict = o.verdict
            if console.decorates && !o.passed { verdict = (o.severity == .fail ? "\u{1B}[31m" : "\u{1B}[33m") + verdict + "\u{1B}[0m" }
            var line = "threshold \(verdict): \(o.expression) (\(o.rowsChecked) rows checked"
            if let worst = o.violations.first {
                line += "; \(o.violations.count) in violation, worst \(worst.row): \(o.formattedValue(worst))"
            }
            console.err(line + ")\n")
        }
        return outcomes.contains(where: \.failsRun) ? .thresholdFailed : .success
    }
}
