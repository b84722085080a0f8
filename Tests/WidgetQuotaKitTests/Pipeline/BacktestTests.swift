import Foundation
import Testing
import WidgetQuotaGates
import WidgetQuotaKit
import WidgetQuotaLogs
import WidgetQuotaLogsTestSupport
import WidgetQuotaModel
import WidgetQuotaReporting
import WidgetQuotaStudies
import WidgetQuotaSupport
import WidgetQuotaTestSupport

/// The back-test: how logs are split, what is compared, and whether it tells a right model
/// from a wrong one.
@Suite("Backtest")
struct BacktestTests {
    /// A device with `days` logged days numbered from `firstDay`, each with `getTimeline` calls
    /// and as many extension requests.
    static func device(_ name: String, days: Int, firstDay: Int = 20_000, getTimeline: Int = 10, instances: Int = 1)
        -> LogAnalysis.DeviceMeasurement
    {
        var day = DeviceDay()
        day.getTimeline = getTimeline
        day.getTimelineSystem = getTimeline
        day.extensionRequests = getTimeline
        day.hasRecords = true
        return .init(
            device: name, days: Array(repeating: day, count: days), smartStack: false, instances: instances, originKnown: true,
            lowPowerKnown: false, firstDay: firstDay, dayNumbers: Array(firstDay..<(firstDay + days)))
    }

    /// An analysis holding `devices` only (the split reads nothing else).
    static func analysis(_ devices: [LogAnalysis.DeviceMeasurement]) -> LogAnalysis {
        var a = LogAnalyzer().analysis()
        a.measurements = devices
        a.devices = devices.count
        a.deviceDays = devices.reduce(0) { $0 + $1.days.count }
        return a
    }

    static func job(_ split: Backtest.Split = .half, design: String = "direct") throws -> BacktestJob {
        let base = Scenario()
        let d = try #require(base.availableDesigns.first { $0.name == design })
        var job = BacktestJob(split: split, base: base, design: d, designAssumed: false)
        job.repetitions = 100
        return job
    }

    static func row(_ r: BacktestReport, _ name: String) throws -> BacktestResult.MetricRow {
        try #require(r.result.metrics.first { $0.name == name })
    }

    @Test("the default split trains on the first half of each device's days and holds out the rest")
    func halfSplit() throws {
        let parts = try Backtest.split(Self.analysis([Self.device("a", days: 14), Self.device("b", days: 5)]), .half)
        #expect(parts.training.measurements.map(\.days.count) == [7, 2])
        #expect(parts.heldOut.map(\.days.count) == [7, 3])
        #expect(parts.heldOutStart == [7, 2])
        #expect(parts.heldOut[0].firstDay == 20_007)
        #expect(parts.heldOut[0].dayNumbers == Array(20_007..<20_014))
        #expect(parts.training.deviceDays == 9)
        #expect(parts.training.devices == 2)
    }

    @Test("--split DATE and --train-days cut at the date and after N days; a device on one side only stays there")
    func dateAndDaySplits() throws {
        let a = Self.analysis([
            Self.device("a", days: 10), Self.device("early", days: 3), Self.device("late", days: 4, firstDay: 20_008),
        ])
        let byDate = try Backtest.split(a, .date(20_005))
        #expect(byDate.training.measurements.map(\.device) == ["a", "early"])
        #expect(byDate.training.measurements.map(\.days.count) == [5, 3])
        #expect(byDate.heldOut.map(\.device) == ["a", "late"])
        #expect(byDate.heldOut.map(\.days.count) == [5, 4])
        #expect(byDate.heldOutStart == [5, 0])
        let byDays = try Backtest.split(a, .trainDays(8))
        #expect(byDays.training.measurements.map(\.days.count) == [8, 3, 4])
        #expect(byDays.heldOut.map(\.device) == ["a"])
        #expect(byDays.heldOut.map(\.days.count) == [2])
    }

    @Test("--split-devices holds out every second device by name, with all its days")
    func deviceSplit() throws {
        let a = Self.analysis(["d", "b", "a", "c"].map { Self.device($0, days: 6) })
        let parts = try Backtest.split(a, .devices)
        #expect(parts.training.measurements.map(\.device) == ["a", "c"])
        #expect(parts.heldOut.map(\.device) == ["b", "d"])
        #expect(parts.heldOut.map(\.days.count) == [6, 6])
        #expect(parts.heldOutStart == [0, 0])
    }

    @Test("a split that leaves nothing to train on or nothing to hold out is a clear error")
    func emptyParts() throws {
        let a = Self.analysis([Self.device("a", days: 4)])
        #expect(throws: WidgetQuotaError.self) { try Backtest.split(a, .trainDays(4)) }
        #expect(throws: WidgetQuotaError.self) { try Backtest.split(a, .date(19_000)) }
        #expect(throws: WidgetQuotaError.self) { try Backtest.split(a, .devices) }
        do {
            _ = try Backtest.split(a, .trainDays(9))
            Issue.record("expected an error")
        } catch let error as WidgetQuotaError {
            #expect(error.description.contains("held-out part is empty"))
        }
    }

    @Test("each figure is measured over the held-out device-days and scored against its own interval")
    func metricsOnAConstructedCase() throws {
        let design = try #require(Scenario().availableDesigns.first { $0.name == "direct" })
        // Two devices with 12 and 36 calls a day for 4 and 2 days: 20 a device-day.
        let heldOut = [Self.device("a", days: 4, getTimeline: 12), Self.device("b", days: 2, getTimeline: 36)]
        let r = Backtest.run(scenario: Scenario(), design: design, heldOut: heldOut, repetitions: 60)
        #expect(r.devices == 2)
        #expect(r.deviceDays == 6)
        #expect(r.repetitions == 60)
        let byName = Dictionary(uniqueKeysWithValues: r.metrics.map { ($0.name, $0) })
        #expect(r.metrics.map(\.name) == Backtest.Metric.allCases.map(\.rawValue))
        let api = try #require(byName["apiRequests"])
        #expect(api.measured == 20)
        #expect(try #require(byName["requestsPerUserPerMonth"]).measured == 600)
        #expect(try #require(byName["extensionRequests"]).measured == 20)
        for m in r.metrics {
            #expect(m.p5 <= m.predicted && m.predicted <= m.p95, "\(m.name)")
            #expect(m.inside == (m.p5 <= m.measured && m.measured <= m.p95), "\(m.name)")
            if m.measured > 0 {
                let bias = (m.predicted - m.measured) / m.measured * 100
                #expect(abs(try #require(m.biasPercent) - bias) < 1e-9)
                #expect(abs(try #require(m.errorPercent) - abs(bias)) < 1e-9)
            }
        }
        // direct: no app requests, no background launches, no reload calls, in logs or simulation.
        let bg = try #require(byName["backgroundLaunches"])
        #expect(bg.measured == 0 && bg.predicted == 0 && bg.errorPercent == 0 && bg.inside)
        #expect(bg.devicesChecked == 0 && bg.coverage == nil)
        #expect(api.devicesChecked == 2)
        // Same inputs, any thread count: the same result.
        #expect(Backtest.run(scenario: Scenario(), design: design, heldOut: heldOut, repetitions: 60, threads: 1) == r)
    }

    @Test("devices far outside what the model predicts lie outside every interval")
    func outsideTheInterval() throws {
        let design = try #require(Scenario().availableDesigns.first { $0.name == "direct" })
        let heldOut = (0..<4).map { Self.device("x\($0)", days: 5, getTimeline: 5_000) }
        let r = Backtest.run(scenario: Scenario(), design: design, heldOut: heldOut, repetitions: 40)
        let api = try #require(r.metrics.first { $0.name == "apiRequests" })
        #expect(!api.inside)
        #expect(api.coverage == 0)
        #expect(r.coverage == 0)
        #expect(try #require(api.errorPercent) > 90)
    }

    @Test("the model's own trace back-tests within 10% with coverage near 90%")
    func ownTrace() throws {
        let design = try #require(Scenario().availableDesigns.first { $0.name == "direct" })
        let generator = TraceGenerator(scenario: Scenario(), design: design, devices: 20, style: .trace)
        var text = ""
        for i in 0..<generator.devices { generator.write(device: i, header: false) { text += $0 } }
        let report = try Self.job().run(try LogTestSupport.analyze(text))
        for name in ["getTimeline", "apiRequests", "extensionRequests"] {
            #expect(try #require(try Self.row(report, name).errorPercent) < 10, "\(name)")
        }
        let coverage = try #require(report.result.coverage)
        #expect(coverage >= 0.7 && coverage <= 1)
    }

    @Test("logs from another process whose rate doubles in the held-out half fail the back-test")
    func catchesAWrongModel() throws {
        let steady = try Self.job().run(
            try LogTestSupport.analyze(LogTestSupport.foreignLogs(devices: 10, days: 14, before: 24, after: 24)))
        let doubled = try Self.job().run(
            try LogTestSupport.analyze(LogTestSupport.foreignLogs(devices: 10, days: 14, before: 24, after: 48)))
        let fair = try Self.row(steady, "apiRequests")
        let wrong = try Self.row(doubled, "apiRequests")
        #expect(try #require(fair.errorPercent) < 10)
        #expect(wrong.measured > 1.8 * fair.measured)
        #expect(try #require(wrong.errorPercent) > 40)
        #expect(try #require(wrong.biasPercent) < -40)
        #expect(!wrong.inside)
        #expect(try #require(doubled.result.coverage) < 0.5)
        let gate = try Threshold("backtest.errorPercent{metric=apiRequests} > 10", severity: .fail)
        #expect(try ThresholdEvaluator.evaluate(gate, on: BacktestJob.metricTable(doubled)).failsRun)
        #expect(try !ThresholdEvaluator.evaluate(gate, on: BacktestJob.metricTable(steady)).failsRun)
    }

    /// Logs a widget under `.after(1 hour)` would write by rules the engine does not share
    /// (hourly reloads while the phone is in use, a few of WidgetKit's own, a budget), for the
    /// design that fetches in getTimeline and for the cache design: calibrated on the first
    /// half, the model predicts the second.
    @Test("logs made by the policy and the budget alone back-test within 10%", arguments: [false, true])
    func foreignPolicyLogs(cache: Bool) throws {
        let text = LogTestSupport.foreignPolicyLogs(devices: 30, days: 14, cache: cache)
        let report = try Self.job(design: cache ? "cache-bgtask" : "direct").run(try LogTestSupport.analyze(text))
        for name in ["getTimeline", "apiRequests"] + (cache ? ["appRequests", "backgroundLaunches"] : []) {
            let row = try Self.row(report, name)
            #expect(
                try #require(row.errorPercent) < 10,
                "\(name): measured \(row.measured), predicted \(row.predicted); \(report.calibrationNotes)")
        }
        let coverage = try #require(report.result.coverage)
        #expect(coverage >= 0.7 && coverage <= 1, "coverage \(coverage)")
    }

    /// A capture that holds no reload-call line at all cannot say how many there were: the
    /// figure is "not in these logs", with the line that would show it, not a failed prediction.
    @Test("a figure no line of the logs could show is not in these logs, and out of the coverage")
    func notInTheseLogs() throws {
        let full = LogTestSupport.foreignPolicyLogs(devices: 12, days: 10, cache: true)
        let withoutReloads = full.split(separator: "\n").filter { !$0.contains("reloadAllTimelines") }.joined(separator: "\n") + "\n"
        let analysis = try LogTestSupport.analyze(withoutReloads)
        // The cache design's extension sends no request either, but nothing predicts one: compared as 0.
        #expect(Backtest.notInLogs(analysis) == [.reloadCalls, .extensionRequests])
        let report = try Self.job(design: "cache-bgtask").run(analysis)
        #expect(try !Self.row(report, "extensionRequests").notInLogs)
        let reloads = try Self.row(report, "reloadCalls")
        #expect(reloads.notInLogs && reloads.predicted > 0 && reloads.errorPercent == nil && reloads.devicesChecked == 0)
        #expect(reloads.wouldShowIt?.contains("reloadAllTimelines") == true)
        let md = report.markdown()
        #expect(md.contains("| Reload calls | – |") && md.contains("not in these logs"))
        #expect(md.contains("- Reload calls: a reloadAllTimelines or reloadTimelines record"))
        // No gate fails on it, and the coverage is that of the other figures.
        let gate = try Threshold("backtest.errorPercent{metric=reloadCalls} > 10", severity: .fail)
        #expect(try !ThresholdEvaluator.evaluate(gate, on: BacktestJob.metricTable(report)).failsRun)
        let others = report.result.metrics.filter { $0.name != "requestsPerUserPerMonth" && !$0.notInLogs }
        let inside = others.reduce(0.0) { $0 + ($1.coverage ?? 0) * Double($1.devicesChecked) }
        let checked = others.reduce(0) { $0 + $1.devicesChecked }
        #expect(abs((report.result.coverage ?? -1) - inside / Double(checked)) < 1e-9)
        // The full logs compare it as usual.
        let compared = try Self.row(try Self.job(design: "cache-bgtask").run(try LogTestSupport.analyze(full)), "reloadCalls")
        #expect(!compared.notInLogs && compared.errorPercent != nil && compared.wouldShowIt == nil)
        let json = try JSONValue.parse(Data(report.json().utf8), file: "backtest.json")
        let row = try #require(json["backtest"]?["metrics"]?.array?.first { $0["name"]?.string == "reloadCalls" })
        #expect(row["notInLogs"] == .bool(true) && row["wouldShowIt"]?.string != nil)
    }

    @Test("the JSON keeps backtest.metrics[].{name, measured, predicted, p5, p95, errorPercent, inside} and backtest.coverage")
    func jsonKeys() throws {
        let report = try Self.job().run(try LogTestSupport.analyze(LogTestSupport.foreignLogs(devices: 4, days: 6, before: 20, after: 20)))
        let json = try JSONValue.parse(Data(report.json().utf8), file: "backtest.json")
        let backtest = try #require(json["backtest"])
        #expect(backtest["coverage"]?.number != nil)
        let metrics = try #require(backtest["metrics"]?.array)
        #expect(metrics.count == Backtest.Metric.allCases.count)
        for m in metrics {
            #expect(m["name"]?.string != nil)
            for key in ["measured", "predicted", "p5", "p95", "errorPercent"] { #expect(m[key]?.number != nil, "\(key)") }
            #expect(m["inside"] == .bool(true) || m["inside"] == .bool(false))
        }
        let names: [String] = metrics.compactMap { $0["name"]?.string }
        #expect(names == Backtest.Metric.allCases.map(\.rawValue))
        #expect(try report.json() == report.json())
    }
}
