import WidgetQuotaLint
import WidgetQuotaModel
import WidgetQuotaReporting
import WidgetQuotaSupport

extension LintJob {
    /// How `lint` writes its findings.
    package enum Format: String, Sendable, CaseIterable {
        case markdown, json
        /// SARIF 2.1.0, for GitHub code scanning.
        case sarif
        /// GitHub Actions workflow commands, one per finding.
        case github
        /// `path:line:column: error: …` lines for an Xcode build phase.
        case xcode
    }

    /// Runs the job and renders the findings in `format` for `destination`, after the scenario of
    /// the design read from the code when `scenario` names where it goes, and the baseline of
    /// every finding when `writeBaseline` does. Findings `baseline` holds are left out of the
    /// rendered findings and of the exit code, which `failOn` decides.
    package func output(
        format: Format, to destination: JobOutput.Destination, scenario scenarioDestination: JobOutput.Destination?,
        failOn: LintFailOn, paths: RepositoryPath, baseline: LintBaseline? = nil,
        writeBaseline: JobOutput.Destination? = nil
    ) throws -> JobOutput {
        let result = try execute()
        let filtered = baseline.map { $0.filtered(result.report, paths: paths) }
        let report = filtered?.report ?? result.report
        let fingerprints = filtered?.fingerprints
        let text: String
        switch format {
        case .json: text = try LintReportJSON.render(report, paths: paths, fingerprints: fingerprints)
        case .sarif: text = try SARIFLog.render(report, paths: paths, fingerprints: fingerprints)
        case .github: text = LintAnnotations.github(report, paths: paths)
        case .xcode: text = LintAnnotations.xcode(report, paths: paths)
        case .markdown: text = LintReportMarkdown.render(report)
        }
        var output = JobOutput()
        if let writeBaseline {
            let written = LintBaseline(result.report, paths: paths)
            output.items.append(.text(try written.render(), to: writeBaseline, announce: false))
            if case .file(let path) = writeBaseline {
                output.items.append(.note("Wrote \(path) (\(written.findings.count) finding\(written.findings.count == 1 ? "" : "s"))\n"))
            }
        }
        if let scenarioDestination {
            guard let scenario = result.scenario else {
                throw WidgetQuotaError.malformedInput(
                    file: run.paths.joined(separator: ", "), line: nil,
                    problem: "no code sends a request, so there is no design to write as a scenario")
            }
            output.items.append(.text(ScenarioLoader.encode(scenario), to: scenarioDestination, announce: false))
            if case .file(let path) = scenarioDestination { output.items.append(.note("Wrote \(path) (design \(scenario.baseline))\n")) }
        }
        output.items.append(.text(text, to: destination, announce: true))
        output.items += result.outcome.tree.notes.map { .note("Note: \($0)\n") }
        output.exitCode = report.exitCode(failOn: failOn)
        return output
    }
}
