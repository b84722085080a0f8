import Foundation
import WidgetQuotaLogs
import WidgetQuotaModel
import WidgetQuotaStudies
import WidgetQuotaSupport

/// The log job behind `analyze` and the first step of `report`: read logs, measure what the
/// devices did, and optionally calibrate a scenario to the measurement.
public struct AnalysisJob: Sendable {
    /// Files, folders, or `-` for standard input.
    public var paths: [String]
    /// How to read them.
    public var options: LogAnalyzer.Options

    /// An analysis of the logs at `paths` (files, folders, `-` for standard input).
    public init(paths: [String], options: LogAnalyzer.Options = .init()) {
        self.paths = paths
        self.options = options
    }

    /// Reads every path and returns the measurement.
    public func run() throws -> LogAnalysis {
        var analyzer = LogAnalyzer(options: options)
        for path in paths { try analyzer.read(path: path) }
        let analysis = analyzer.analysis()
        if options.strict && analysis.recognisedNothing {
            throw WidgetQuotaError.malformedInput(
                file: paths.joined(separator: ", "), line: nil, problem: "n" + analyzer.nothingRecognisedText.dropFirst())
        }
        return analysis
    }

    /// A scenario calibrated to `analysis`, starting from `base`.
    ///
    /// - Parameters:
    ///   - design: the design the logged app runs; the getTimeline rate is corrected for it
    ///     (nil: the rate is kept as the logs show it).
    ///   - designAssumed: true when the design was not named by the user but taken from the
    ///     scenario's baseline; the calibration's notes then say so.
    package static func calibrate(_ analysis: LogAnalysis, base: Scenario, design: Design?, designAssumed: Bool) throws -> Scenario {
        if analysis.recognisedNothing {
            let seen = analysis.processesSeen.isEmpty ? "" : " (processes seen: \(analysis.processesSeen.joined(separator: ", ")))"
            throw WidgetQuotaError.malformedInput(
                file: analysis.files.map(\.path).joined(separator: ", "), line: nil,
                problem: "no widget, background-task or network line was recognised\(seen), so there is nothing to calibrate from")
        }
        var scenario = try ScenarioCalibrator.calibrate(analysis, base: base, design: design)
        if designAssumed, let design, scenario.calibration?.design == design.name {
            // The file must say what the correction assumed, not only the terminal.
            scenario.calibration?.notes.append(
                "WidgetKit's and Smart Stack's reload rates were fitted as if the logged app ran \(design.name), "
                    + "the scenario's baseline; pass --design NAME with the design it runs, or --design none")
        }
        return scenario
    }
}
