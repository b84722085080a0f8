import Foundation
import WidgetQuotaModel
import WidgetQuotaStudies
import WidgetQuotaSupport

/// A back-test as `analyze --backtest` writes it: Markdown, or JSON whose `backtest.metrics[].{name,
/// measured, predicted, p5, p95, errorPercent, inside}` and `backtest.coverage` stay stable for CI.
public struct BacktestReport: Sendable, Equatable {
    /// The split rule, in words.
    public var split: String
    /// Devices the scenario was calibrated on.
    public var trainingDevices: Int
    /// Device-days the scenario was calibrated on.
    public var trainingDeviceDays: Int
    /// The scenario fields the training part measured.
    public var calibratedFields: [String]
    /// What the calibration says a reader should know.
    public var calibrationNotes: [String]
    /// The held-out devices' figures, measured against predicted.
    public var result: BacktestResult

    package init(
        split: String, trainingDevices: Int, trainingDeviceDays: Int, calibratedFields: [String],
        calibrationNotes: [String], result: BacktestResult
    ) {
        self.split = split
        self.trainingDevices = trainingDevices
        self.trainingDeviceDays = trainingDeviceDays
        self.calibratedFields = calibratedFields
        self.calibrationNotes = calibrationNotes
        self.result = result
    }

    private struct Document: Encodable {
        struct Body: Encodable {
            var split: String
            var training: Part
            var heldOut: Part
            var design: String
            var repetitions: Int
            var calibratedFields: [String]
            var calibrationNotes: [String]
            var metrics: [BacktestResult.MetricRow]
            var coverage: Double?
        }
        struct Part: Encodable {
            var devices: Int
            var deviceDays: Int
        }
        var backtest: Body
    }

    /// Pretty, key-sorted JSON under the top-level key `backtest`.
    package func json() throws -> String {
        let r = result
        return try JSONOutput.encode(
            Document(
                backtest: .init(
                    split: split, training: .init(devices: trainingDevices, deviceDays: trainingDeviceDays),
                    heldOut: .init(devices: r.devices, deviceDays: r.deviceDays), design: r.design, repetitions: r.repetitions,
                    calibratedFields: calibratedFields, calibrationNotes: calibrationNotes, metrics: r.metrics,
                    coverage: r.coverage)))
    }

    /// The human report.
    package func markdown() -> String {
        let r = result
        var out = "# Back-test\n\n"
        out +=
            "Does the model predict these devices? A scenario was calibrated on the training part of the logs "
            + "(as `--emit-scenario` does), the held-out devices were simulated \(r.repetitions) times under \(r.design) "
            + "with as many devices and days as the logs hold, and each figure per device-day is compared.\n\n"
        var parts = MarkdownTable(["Part", "Devices", "Device-days"])
        parts.append(["Training", String(trainingDevices), String(trainingDeviceDays)])
        parts.append(["Held out", String(r.devices), String(r.deviceDays)])
        out += "Split: \(split).\n\n" + parts.markdown + "\n"
        var table = MarkdownTable([
            "Per device-day", "Measured", "Predicted", "90% interval", "Error", "Inside", "Devices inside",
        ])
        for m in r.metrics {
            let error =
                m.notInLogs ? "not in these logs" : m.biasPercent.map { ($0 > 0 ? "+" : "") + NumberText.fixed($0, digits: 1) + "%" } ?? "–"
            let devices = m.coverage.map { "\(NumberText.percent($0, digits: 0)) of \(m.devicesChecked)" } ?? "–"
            table.append([
                m.label, m.notInLogs ? "–" : NumberText.human(m.measured), NumberText.human(m.predicted),
                "\(NumberText.human(m.p5))–\(NumberText.human(m.p95))", error, m.notInLogs ? "–" : m.inside ? "yes" : "no", devices,
            ])
        }
        out += table.markdown + "\n"
        let absent = r.metrics.filter(\.notInLogs)
        if !absent.isEmpty {
            out += "Not in these logs: the model predicts these figures, but no line of the logs, on any device or day, could show them, "
            out += "so they are not compared and stay out of the coverage. The line that would show each:\n\n"
            for m in absent { out += "- \(m.label): \(m.wouldShowIt ?? "")\n" }
            out += "\n"
        }
        out += "Error: predicted minus measured, over measured (positive: the model predicts too much). "
        out +=
            "Devices inside: the share of held-out devices whose own figure lies in the 90% interval simulated for a device with as many days.\n\n"
        if let c = r.coverage {
            let verdict: String
            switch c {
            case ..<0.75: verdict = "far fewer than 90%: the model is overconfident, or wrong, for these devices"
            case ...0.97: verdict = "close to the 90% a well-calibrated model gives"
            default: verdict = "more than 90%: the intervals are wider than these devices need"
            }
            out += "Coverage: \(NumberText.percent(c, digits: 0)) of device figures inside their 90% interval (\(verdict)).\n\n"
        }
        if r.devicesUnmatched > 0 {
            out +=
                "- \(r.devicesUnmatched) held-out device\(r.devicesUnmatched == 1 ? "" : "s") had widget instances or a Smart Stack "
                + "that no simulated user of the calibrated population matched; they were simulated as any user.\n\n"
        }
        if !calibrationNotes.isEmpty {
            out += calibrationNotes.map { "- Calibration: \($0)\n" }.joined() + "\n"
        }
        out +=
            "What this can and cannot say: with few devices or days the intervals are wide and a wrong model can still "
            + "fall inside them; a change of design, app version or iOS between the two parts invalidates the comparison; "
            + "each simulated device is drawn from the calibrated population, so a device far from the others (a heavy user) "
            + "falls outside its interval even when the model is right on average.\n"
        return out
    }
}
