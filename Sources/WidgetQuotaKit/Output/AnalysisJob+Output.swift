import WidgetQuotaGates
import WidgetQuotaLogs
import WidgetQuotaModel
import WidgetQuotaReporting
import WidgetQuotaSupport

extension AnalysisJob {
    /// How `analyze` writes the measurement.
    package enum Format: String, Sendable, CaseIterable {
        case markdown
        /// One row per device-day.
        case csv
        /// Stable keys for CI.
        case json
    }

    /// A scenario calibrated to the measurement (`--emit-scenario`), and where it goes.
    package struct Calibration: Sendable {
        /// The scenario the calibration starts from.
        package var base: Scenario
        /// The design the logged app runs (nil: the getTimeline rate is kept as the logs show it).
        package var design: Design?
        /// True when `design` is the scenario's baseline rather than one the user named.
        package var designAssumed: Bool
        package var destination: JobOutput.Destination

        package init(base: Scenario, design: Design?, designAssumed: Bool, destination: JobOutput.Destination) {
            self.base = base
            self.design = design
            self.designAssumed = designAssumed
            self.destination = destination
        }
    }

    /// Reads the logs and renders the measurement in `format` for `destination`, after the
    /// calibrated scenario and its notes when `calibration` asks for one.
    package func output(format: Format, to destination: JobOutput.Destination, calibration: Calibration?) throws -> JobOutput {
        let analysis = try run()
        let report = LogReport(analysis)
        let text: String
        switch format {
        case .csv: text = report.csv()
        case .json: text = try report.json()
        case .markdown: text = report.markdown()
        }
        var output = JobOutput()
        if let calibration {
            let scenario = try Self.calibrate(
                analysis, base: calibration.base, design: calibration.design, designAssumed: calibration.designAssumed)
            output.items.append(.text(ScenarioLoader.encode(scenario), to: calibration.destination, announce: false))
            let fields = scenario.calibration?.fields.joined(separator: ", ") ?? ""
            if case .file(let path) = calibration.destination { output.items.append(.note("Wrote \(path) (calibrated: \(fields))\n")) }
            if let c = scenario.calibration {
                if let design = c.design {
                    let system = scenario.platform.systemReloadsPerDay.central
                    let stack = scenario.population.smartStackReloadsPerDay.central
                    let lateness = scenario.platform.policyLatenessMinutes.central
                    // The lateness is named as fitted only when the logs measured it.
                    let honoured =
                        c.fields.contains("platform.policyLatenessMinutes")
                        ? ", honoured \(NumberText.fixed(lateness, digits: 1)) min late on average" : ""
                    output.items.append(
                        .note(
                            "getTimeline: beside \(design)'s own reloads\(honoured), WidgetKit's \(NumberText.fixed(system, digits: 1)) "
                                + "and Smart Stack's \(NumberText.fixed(stack, digits: 1)) per instance-day reproduce the logs\n"))
                }
                output.items += c.notes.map { .note("Note: \($0)\n") }
            }
        }
        output.items.append(.text(text, to: destination, announce: true))
        return output
    }

    /// Reads the logs and renders the back-test in `format` (markdown or json) for `destination`,
    /// with `thresholds` checked against it; a threshold naming an unknown figure fails before
    /// anything is written.
    package func output(
        backtest: BacktestJob, format: Format, to destination: JobOutput.Destination, thresholds: [Threshold]
    ) throws -> JobOutput {
        let report = try backtest.run(try run())
        var output = JobOutput()
        output.thresholds = try ThresholdEvaluator.evaluate(thresholds, on: BacktestJob.metricTable(report))
        output.items = [.text(format == .json ? try report.json() : report.markdown(), to: destination, announce: true)]
        return output
    }
}
