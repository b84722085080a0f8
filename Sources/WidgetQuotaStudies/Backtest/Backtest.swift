import Foundation
import WidgetQuotaLogs
import WidgetQuotaModel
import WidgetQuotaSimulation
import WidgetQuotaSupport

/// The back-test of `analyze --backtest`: hold out part of the logs, calibrate on the rest, and
/// score how well the model predicts what the held-out devices did.
///
/// The held-out devices are simulated many times, each time as many devices with as many days
/// as the logs hold, with the calibrated scenario's uncertain assumptions drawn anew for each
/// repetition (what the calibration could not pin down widens the interval). Each simulated
/// device is a user drawn from the calibrated population with the traits the logs show for the
/// device it stands for (its widget instances, and whether it is in a Smart Stack), so an
/// interval says where a device like it falls; its other habits (how often its user opens the
/// app, its time zone) are drawn.
public enum Backtest {
    /// How the logs are split into a training part and a held-out part.
    public enum Split: Sendable, Equatable {
        /// Each device's days before this local day (days since 1970-01-01) train; the rest are held out.
        case date(Int)
        /// Each device's first N days train; the rest are held out.
        case trainDays(Int)
        /// The first half of each device's days trains (rounded down); the rest are held out.
        case half
        /// Devices alternate, sorted by name: the first, third, … train; the second, fourth, … are held out.
        case devices

        /// In words, for the report.
        public var description: String {
            switch self {
            case .date(let day): return "days before \(LogTimestamp.dateText(day: day)) train, later days are held out"
            case .trainDays(let n): return "each device's first \(n) day\(n == 1 ? "" : "s") train, later days are held out"
            case .half: return "each device's first half of its days trains, the second half is held out"
            case .devices: return "every second device (sorted by name) is held out; the others train"
            }
        }
    }

    /// The two parts of a measurement.
    package struct Parts: Sendable {
        /// The training part, as an analysis the calibrator accepts.
        package var training: LogAnalysis
        /// The held-out devices, each with only its held-out days.
        package var heldOut: [LogAnalysis.DeviceMeasurement]
        /// For each held-out device, its logged days before the held-out ones (0 when the whole
        /// device is held out): the simulation counts the held-out days at the same place.
        package var heldOutStart: [Int]
    }

    /// Splits `analysis` by `split`. A device with no day on one side is on the other side only.
    package static func split(_ analysis: LogAnalysis, _ split: Split) throws -> Parts {
        var training = [LogAnalysis.DeviceMeasurement]()
        var heldOut = [LogAnalysis.DeviceMeasurement]()
        var heldOutStart = [Int]()
        let devices = analysis.measurements.filter { !$0.days.isEmpty }.sorted { $0.device < $1.device }
        for (index, m) in devices.enumerated() {
            let cut: Int
            switch split {
            case .date(let day): cut = m.dayNumbers.firstIndex { $0 >= day } ?? m.days.count
            case .trainDays(let n): cut = Swift.min(n, m.days.count)
            case .half: cut = m.days.count / 2
            case .devices: cut = index % 2 == 0 ? m.days.count : 0
            }
            if cut > 0 { training.append(slice(m, 0..<cut)) }
            if cut < m.days.count {
                heldOut.append(slice(m, cut..<m.days.count))
                heldOutStart.append(cut)
            }
        }
        guard !training.isEmpty else {
            throw WidgetQuotaError.malformedInput(
                file: "logs", line: nil,
                problem: "the back-test's training part is empty (\(split.description)); expected logged days before the split")
        }
        guard !heldOut.isEmpty else {
            throw WidgetQuotaError.malformedInput(
                file: "logs", line: nil,
                problem: "the back-test's held-out part is empty (\(split.description)); expected logged days after the split")
        }
        var train = analysis
        train.measurements = training
        train.devices = training.count
        train.deviceDays = training.reduce(0) { $0 + $1.days.count }
        return Parts(training: train, heldOut: heldOut, heldOutStart: heldOutStart)
    }

    /// The days `range` of a device.
    static func slice(_ m: LogAnalysis.DeviceMeasurement, _ range: Range<Int>) -> LogAnalysis.DeviceMeasurement {
        var part = m
        part.days = Array(m.days[range])
        part.dayNumbers = Array(m.dayNumbers[range])
        part.firstDay = part.dayNumbers[0]
        return part
    }

    /// The figures compared, per device-day.
    package enum Metric: String, Sendable, CaseIterable {
        case getTimeline, apiRequests, appRequests, extensionRequests, backgroundLaunches, reloadCalls
        /// API requests per device-day × 30: the implied requests per user a month.
        case requestsPerUserPerMonth

        /// The figure of one logged day.
        func value(_ d: DeviceDay) -> Double {
            switch self {
            case .getTimeline: return Double(d.getTimeline)
            case .apiRequests: return Double(d.apiRequests)
            case .appRequests: return Double(d.appRequests + d.backgroundRequests)
            case .extensionRequests: return Double(d.extensionRequests)
            case .backgroundLaunches: return Double(d.bgLaunches)
            case .reloadCalls: return Double(d.reloadCalls)
            case .requestsPerUserPerMonth: return Double(d.apiRequests) * 30
            }
        }

        /// In words, for the report.
        package var label: String {
            switch self {
            case .getTimeline: return "getTimeline calls"
            case .apiRequests: return "API requests"
            case .appRequests: return "API requests by the app"
            case .extensionRequests: return "API requests by the extension"
            case .backgroundLaunches: return "Background launches"
            case .reloadCalls: return "Reload calls"
            case .requestsPerUserPerMonth: return "Implied requests per user a month"
            }
        }

        /// Counts towards the coverage: the monthly figure repeats `apiRequests`.
        var countsForCoverage: Bool { self != .requestsPerUserPerMonth }

        /// The log line that would show this figure (for "not in these logs").
        package var evidence: String {
            switch self {
            case .getTimeline:
                return "a getTimeline record, or the widget extension's `Request ended for` line"
            case .apiRequests, .appRequests, .extensionRequests, .requestsPerUserPerMonth:
                return "an apiRequest record, or a CFNetwork `Task <UUID> summary for task` line of the app or its extension"
            case .backgroundLaunches:
                return "a bgTaskLaunch record, or the app's BackgroundTasks `Received run request for` line"
            case .reloadCalls:
                return "a reloadAllTimelines or reloadTimelines record, or the app's `reloadAllTimelines` / `reloadTimelines(ofKind:` line"
            }
        }
    }

    /// The figures of which `analysis` holds no line at all, on any device or day: the logs
    /// cannot say what they are (a capture without network summaries has no requests to count),
    /// so a prediction of them is not compared.
    package static func notInLogs(_ analysis: LogAnalysis) -> Set<Metric> {
        let days = analysis.measurements.flatMap(\.days)
        return Set(Metric.allCases.filter { metric in !days.contains { metric.value($0) > 0 } })
    }

    /// The first simulated run: far from the runs `simulate` and `trace` use, so a back-test of a
    /// trace does not replay the very users that wrote it.
    static let runOffset = 1 << 20

    /// Simulated users tried per held-out device for one whose traits match it.
    static let maxMatchTries = 400

    /// A user of `model`'s run with the traits the logs show for `device` (its widget instances,
    /// and whether it is in a Smart Stack when the logs say): users `index`, `index + count`, …
    /// are tried in turn. Nil when none of them matches (the population cannot produce it).
    static func user(like device: LogAnalysis.DeviceMeasurement, index: Int, of count: Int, in model: SimulationModel) -> Int? {
        for k in 0..<maxMatchTries {
            let u = index + k * count
            let traits = UserTraits(model: model, user: u)
            if traits.instances == device.instances && (device.smartStack == nil || traits.smartStack == device.smartStack) {
                return u
            }
        }
        return nil
    }

    /// Repetitions of the held-out devices by default: enough for stable 5th and 95th percentiles.
    public static let defaultRepetitions = 200

    /// Simulates the held-out devices `repetitions` times under `scenario` and `design` and
    /// compares. Each simulated device runs from the start of its device's log and is counted
    /// on the held-out days only (`start[i]` logged days in), so a model that takes time to
    /// settle is compared at the same point. Deterministic for a given scenario seed, whatever `threads`.
    /// `heldOut` holds at least one device with at least one day (as `split` returns it).
    /// Figures in `notInLogs` that the simulation predicts are reported as not in these logs:
    /// no error, left out of the coverage.
    package static func run(
        scenario: Scenario, design: Design, heldOut: [LogAnalysis.DeviceMeasurement], start: [Int]? = nil,
        notInLogs: Set<Metric> = [], repetitions: Int = defaultRepetitions, threads: Int = Parallel.defaultThreads
    ) -> BacktestResult {
        let dayCounts = heldOut.map(\.days.count)
        let starts = start ?? Array(repeating: 0, count: heldOut.count)
        var s = scenario
        s.horizon.days = zip(starts, dayCounts).map { $0 + $1 }.max() ?? 1
        let metrics = Metric.allCases
        let base = SimulationModel(scenario: s, design: design, run: 0, parameters: .central(s))
        let background = base.backgroundCalibration
        let simulated = s
        // Per repetition, per device, per metric: the simulated per-day mean.
        let runsWithMatches = Parallel.map(count: Swift.max(repetitions, 1), threads: threads) { r -> [(matched: Bool, values: [Double])] in
            let run = runOffset + r
            let model = SimulationModel(
                scenario: simulated, design: design, run: run, parameters: .draw(simulated, run: run),
                backgroundCalibration: background)
            let workspace = SimulationWorkspace(model: model)
            let from = Double(model.countedFirstDay) * .secondsPerDay
            return dayCounts.enumerated().map { device, days in
                let match = user(like: heldOut[device], index: device, of: heldOut.count, in: model)
                var sim = UserSimulator(
                    model: model, user: match ?? device,
                    observer: DayCounter(from: from + Double(starts[device]) * .secondsPerDay, days: days),
                    workspace: workspace)
                sim.run()
                return (matched: match != nil, values: metrics.map { metric in Statistics.mean(sim.observer.days.map(metric.value)) })
            }
        }
        let unmatched = heldOut.indices.filter { i in runsWithMatches.contains { !$0[i].matched } }.count
        let runs = runsWithMatches.map { $0.map(\.values) }
        let totalDays = Double(dayCounts.reduce(0, +))
        var rows = [BacktestResult.MetricRow]()
        var insideAll = 0
        var checkedAll = 0
        for (k, metric) in metrics.enumerated() {
            let measured = heldOut.reduce(0.0) { $0 + $1.days.reduce(0.0) { $0 + metric.value($1) } } / totalDays
            // Each repetition's figure over all held-out device-days, weighted by their days.
            let pooled = runs.map { run in
                zip(run, dayCounts).reduce(0.0) { $0 + $1.0[k] * Double($1.1) } / totalDays
            }.sorted()
            let predicted = Statistics.mean(pooled)
            let p5 = Statistics.quantile(sorted: pooled, 0.05)
            let p95 = Statistics.quantile(sorted: pooled, 0.95)
            // Predicted, but no line of the logs could show it: nothing to compare.
            if notInLogs.contains(metric) && predicted > 0 {
                rows.append(
                    .init(
                        name: metric.rawValue, label: metric.label, measured: measured, predicted: predicted, p5: p5, p95: p95,
                        errorPercent: nil, biasPercent: nil, inside: false, devicesChecked: 0, coverage: nil,
                        notInLogs: true, wouldShowIt: metric.evidence))
                continue
            }
            var inside = 0
            var checked = 0
            for (i, device) in heldOut.enumerated() {
                let own = runs.map { $0[i][k] }.sorted()
                let value = Statistics.mean(device.days.map(metric.value))
                // A figure that neither the device nor any simulation shows says nothing.
                guard value > 0 || own.last! > 0 else { continue }
                checked += 1
                if Statistics.quantile(sorted: own, 0.05) <= value && value <= Statistics.quantile(sorted: own, 0.95) { inside += 1 }
            }
            if metric.countsForCoverage {
                insideAll += inside
                checkedAll += checked
            }
            let bias: Double? =
                measured > 0 ? (predicted - measured) / measured * 100 : (predicted == 0 ? 0 : nil)
            rows.append(
                .init(
                    name: metric.rawValue, label: metric.label, measured: measured, predicted: predicted, p5: p5, p95: p95,
                    errorPercent: bias.map(abs), biasPercent: bias, inside: p5 <= measured && measured <= p95,
                    devicesChecked: checked, coverage: checked > 0 ? Double(inside) / Double(checked) : nil))
        }
        return BacktestResult(
            design: design.name, devices: heldOut.count, devicesUnmatched: unmatched, deviceDays: Int(totalDays),
            repetitions: Swift.max(repetitions, 1),
            metrics: rows, coverage: checkedAll > 0 ? Double(insideAll) / Double(checkedAll) : nil)
    }
}

/// Counts one simulated device's figures on each of its first `days` counted local days.
struct DayCounter: SimulationObserver {
    let from: Double
    var days: [DeviceDay]

    init(from: Double, days: Int) {
        self.from = from
        self.days = Array(repeating: DeviceDay(), count: days)
    }

    mutating func record(_ event: SimulationEvent, local: Double, utc: Double) {
        guard local >= from else { return }
        let day = Int((local - from) / .secondsPerDay)
        guard day < days.count else { return }
        switch event {
        case .getTimeline: days[day].getTimeline += 1
        case .apiRequest(let actor, _, _, _):
            switch actor {
            case .widgetExtension: days[day].extensionRequests += 1
            case .app: days[day].appRequests += 1
            case .background: days[day].backgroundRequests += 1
            }
        case .bgTaskLaunch: days[day].bgLaunches += 1
        case .reloadCall: days[day].reloadCalls += 1
        default: break
        }
    }
}

/// What the back-test found. Its JSON keeps `metrics[].{name, measured, predicted, p5, p95,
/// errorPercent, inside}` and `coverage` stable for CI.
public struct BacktestResult: Codable, Sendable, Equatable {
    /// One figure per device-day over the held-out part.
    public struct MetricRow: Codable, Sendable, Equatable {
        /// The figure's key (`getTimeline`, `apiRequests`, …).
        public var name: String
        /// The figure in words.
        public var label: String
        /// The held-out devices' mean per device-day.
        public var measured: Double
        /// The mean over repetitions of the simulated held-out devices' mean per device-day.
        public var predicted: Double
        /// The 5th percentile of that figure across repetitions: with `p95`, the 90% interval.
        public var p5: Double
        /// The 95th percentile.
        public var p95: Double
        /// |predicted − measured| ÷ measured × 100; nil when nothing was measured but something predicted.
        public var errorPercent: Double?
        /// (predicted − measured) ÷ measured × 100: positive when the model predicts too much.
        public var biasPercent: Double?
        /// True when the measured figure lies in the 90% interval.
        public var inside: Bool
        /// Held-out devices on which the figure was compared (a figure no device and no simulation shows is skipped).
        public var devicesChecked: Int
        /// The share of those devices whose own per-day figure lies in their own simulated 90% interval.
        public var coverage: Double?
        /// True when the model predicts the figure but the logs hold no line that could show it
        /// (on any device or day): then there is no error, `inside` is false, and the figure is
        /// left out of the coverage.
        public var notInLogs: Bool = false
        /// The log line that would show the figure, when it is not in these logs.
        public var wouldShowIt: String?
    }

    /// The design the held-out devices were simulated with.
    public var design: String
    /// Held-out devices and device-days.
    public var devices: Int
    /// Held-out devices whose instances or Smart Stack no simulated user matched in some
    /// repetition (simulated there as any user of the population).
    public var devicesUnmatched: Int
    /// Held-out device-days.
    public var deviceDays: Int
    /// Times the held-out devices were simulated.
    public var repetitions: Int
    /// One row per figure compared.
    public var metrics: [MetricRow]
    /// Over devices and figures (without the monthly figure, which repeats API requests): the
    /// share inside their 90% interval. About 0.9 is right; far less is overconfident, far more vague.
    public var coverage: Double?
}
