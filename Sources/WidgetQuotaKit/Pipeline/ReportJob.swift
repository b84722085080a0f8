import Foundation
import WidgetQuotaReporting
import WidgetQuotaSupport

/// The main job, `report`: analyse the logs, simulate every design with the sensitivity analysis
/// and the TTL sweep, and gather every report, table and chart for one folder.
public struct ReportJob: Sendable {
    /// Logs to analyse first (nil: no log analysis).
    public var logs: String?
    /// The projection; its sweep and sensitivity analysis are on.
    public var simulation: SimulationJob

    /// A report of `simulation`, with the logs at `logs` analysed first.
    public init(logs: String?, simulation: SimulationJob) {
        self.logs = logs
        var simulation = simulation
        simulation.sensitivity = true
        simulation.sweep = true
        self.simulation = simulation
    }

    /// Every file name `report` may write into its folder.
    package static let ownNames = SimulationReport.FileName.all + LogReport.fileNames

    /// Runs the analysis and the projection and returns the files for `directory` and the report.
    public func run(into directory: String, progress: some JobProgress = .silent) throws -> (files: OutputFiles, report: SimulationReport) {
        var files = OutputFiles(directory: directory, ownNames: Self.ownNames)
        if let logs {
            guard logs == InputFile.standardInput || FileManager.default.fileExists(atPath: logs) else {
                throw WidgetQuotaError.unreadable(file: logs, problem: "no such file or folder (pass --logs PATH, or --no-logs)")
            }
            progress.note("Analysing \(logs)…")
            let analysis = LogReport(try AnalysisJob(paths: [logs]).run())
            files.add(LogReport.fileNames[0], analysis.markdown())
            files.add(LogReport.fileNames[1], try analysis.json())
        }
        let report = try simulation.run(progress: progress)
        files.add(contentsOf: try report.files(in: directory))
        return (files, report)
    }
}
