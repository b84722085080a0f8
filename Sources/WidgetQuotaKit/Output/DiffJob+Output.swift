import WidgetQuotaReporting
import WidgetQuotaSupport

extension DiffJob {
    /// How `diff` writes the comparison.
    package enum Format: String, Sendable, CaseIterable {
        /// The pull-request comment.
        case markdown
        /// A GitHub annotation per failed gate on standard output; the comment only to a file.
        case github
        /// The comparison for machines (docs/schema/diff.schema.json); simulation reports only.
        case json
    }

    /// Compares the reports and renders the comment for `destination` (for `github`, only when
    /// that is a file, with the annotations on standard output).
    package func output(format: Format, to destination: JobOutput.Destination) throws -> JobOutput {
        let result = try run()
        var output = JobOutput()
        switch format {
        case .github:
            if case .file = destination { output.items.append(.text(result.markdown, to: destination, announce: false)) }
            let annotations = ThresholdText.annotations(result.thresholds, gates: result.changeGates)
            output.items.append(.text(annotations, to: .standardOutput, announce: false))
        case .markdown:
            output.items.append(.text(result.markdown, to: destination, announce: false))
        case .json:
            guard let json = result.json else {
                throw WidgetQuotaError.usage(
                    "--format json compares two simulation reports; two log analyses compare as markdown or github")
            }
            output.items.append(.text(json, to: destination, announce: false))
        }
        output.thresholds = result.thresholds
        output.changeGates = result.changeGates
        return output
    }
}
