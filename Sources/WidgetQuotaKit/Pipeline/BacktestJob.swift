import Foundation
import WidgetQuotaGates
import WidgetQuotaLogs
import WidgetQuotaModel
import WidgetQuotaReporting
import WidgetQuotaStudies
import WidgetQuotaSupport

/// The job behind `analyze --backtest`: split a measurement, calibrate a scenario on the training
/// part as `--emit-scenario` does, and score the scenario's prediction of the held-out part.
public struct BacktestJob: Sendable {
    /// Which devices calibrate the model and which are held out.
    public var split: Backtest.Split
    /// The scenario the calibration starts from.
    public var base: Scenario
    /// The design the logged app runs.
    public var design: Design
    /// True when the design was taken from the scenario's baseline rather than named.
    public var designAssumed: Bool
    /// Times the held-out devices are simulated.
    public var repetitions = Backtest.defaultRepetitions
    /// Threads to simulate on.
    public var threads = Parallel.defaultThreads

    /// A back-test of `design` on the devices `split` holds out, calibrating `base` from the
    /// others; `designAssumed` says the design was the scenario's baseline, not one named.
    public init(split: Backtest.Split, base: Scenario, design: Design, designAssumed: Bool) {
        self.split = split
        self.base = base
        self.design = design
        self.designAssumed = designAssumed
    }

    /// Splits, calibrates and simulates.
    public func run(_ analysis: LogAnalysis) throws -> BacktestReport {
        let parts = try Backtest.split(analysis, split)
        let scenario = try AnalysisJob.calibrate(parts.training, base: base, design: design, designAssumed: designAssumed)
        let result = Backtest.run(
            scenario: scenario, design: design, heldOut: parts.heldOut, start: parts.heldOutStart,
            notInLogs: Backtest.notInLogs(analysis), repetitions: repetitions, threads: threads)
        return BacktestReport(
            split: split.description, trainingDevices: parts.training.devices, trainingDeviceDays: parts.training.deviceDays,
            calibratedFields: scenario.calibration?.fields ?? [], calibrationNotes: scenario.calibration?.notes ?? [],
            result: result)
    }

    /// The report's figures as threshold records: `backtest.errorPercent{metric=apiRequests}`
    /// and the row's other numbers (`measured`, `predicted`, `p5`, `p95`, `biasPercent`,
    /// `coverage`), each labelled with its `metric`; the coverage over every figure is
    /// `backtest.coverage{metric=all}`. A figure not in the logs has no error (NaN: no comparison holds).
    package static func metricTable(_ report: BacktestReport) -> MetricTable {
        var records = [MetricRecord]()
        for row in report.result.metrics {
            let labels = ["metric": row.name, "design": report.result.design]
            let fields: [(String, Double?)] = [
                ("measured", row.measured), ("predicted", row.predicted), ("p5", row.p5), ("p95", row.p95),
                ("errorPercent", row.errorPercent), ("biasPercent", row.biasPercent), ("coverage", row.coverage),
            ]
            for (name, value) in fields {
                // No measured figure but a predicted one: the error is unbounded, unless the logs
                // could not have shown the figure at all (no error then, so no gate fails on it).
                let v = value ?? (name.hasSuffix("Percent") && !row.notInLogs ? .infinity : .nan)
                records.append(MetricRecord(labels: labels, metric: "backtest." + name, value: v))
            }
        }
        records.append(
            MetricRecord(
                labels: ["metric": "all", "design": report.result.design], metric: "backtest.coverage",
                value: report.result.coverage ?? .nan))
        return MetricTable(records: records)
    }
}
