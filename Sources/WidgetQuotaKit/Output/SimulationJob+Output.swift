import WidgetQuotaReporting

extension SimulationJob {
    /// What `simulate` writes on standard output, or with `--out` beside the folder.
    package enum Format: String, Sendable, CaseIterable {
        case markdown
        /// The wide summary, one row per design and population.
        case csv
        /// Tidy: design, users, tier, metric, statistic, value.
        case csvLong = "csv-long"
        case json
        /// No report on standard output: a GitHub annotation per threshold that does not pass.
        case github
    }

    /// Runs the job and renders it: with `folder`, every report file written there together
    /// (the verdict as a note first); else the report in `format` on standard output. `github`
    /// puts the annotations on standard output in either case.
    package func output(format: Format, folder: String?, progress: some JobProgress = .silent) throws -> JobOutput {
        let report = try run(progress: progress)
        var output = JobOutput()
        if let folder {
            var files = OutputFiles(directory: folder, ownNames: SimulationReport.FileName.all)
            files.add(contentsOf: try report.files(in: folder))
            output.items += [.note(report.verdictText()), .folder(files)]
        } else {
            let text: String
            switch format {
            case .github: text = ""
            case .csv: text = report.csv()
            case .csvLong: text = report.tidyCSV()
            case .json: text = try report.json()
            case .markdown: text = report.markdown()
            }
            if format != .github { output.items.append(.text(text, to: .standardOutput, announce: false)) }
        }
        if format == .github {
            output.items.append(.text(ThresholdText.annotations(report.thresholds), to: .standardOutput, announce: false))
        }
        output.thresholds = report.thresholds
        return output
    }
}

extension ReportJob {
    /// Runs the job and renders it: every file into `directory` together, after the verdict as a
    /// note; with `annotate`, a GitHub annotation per threshold that does not pass on standard output.
    package func output(into directory: String, annotate: Bool = false, progress: some JobProgress = .silent) throws -> JobOutput {
        let (files, report) = try run(into: directory, progress: progress)
        var output = JobOutput([.note(report.verdictText()), .folder(files)])
        if annotate { output.items.append(.text(ThresholdText.annotations(report.thresholds), to: .standardOutput, announce: false)) }
        output.thresholds = report.thresholds
        return output
    }
}
