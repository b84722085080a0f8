import WidgetQuotaGates
import WidgetQuotaKit
import WidgetQuotaReporting
import WidgetQuotaSupport

/// Threshold outcomes on standard error, and the exit code they give.
enum ThresholdMessages {
    /// Prints failures and warnings (passes too unless quiet) and returns 1 if a `--fail-if` failed.
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
