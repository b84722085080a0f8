import Testing
import WidgetQuotaLogs
import WidgetQuotaLogsTestSupport
import WidgetQuotaModel
import WidgetQuotaSimulation
import WidgetQuotaStudies
import WidgetQuotaTestSupport

/// trace → analyze → emitted scenario recovers the parameters that generated the trace.
@Suite("Round trip")
struct RoundTripTests {
    /// Users per simulation of the calibration's budget correction (fewer than `analyze` uses:
    /// the tests run in debug builds).
    static let simulatedUsers = 600

    /// Relative tolerance for rates and ratios, absolute tolerance for shares.
    static let relativeTolerance = 0.10
    static let backgroundTolerance = 0.15
    static let shareTolerance = 0.03

    /// The default scenario with budgets that never bind, so every system getTimeline happens.
    static func scenario(days: Int) -> Scenario {
        var s = Scenario()
        s.horizon.days = days
        s.api.outages = []
        s.platform.reloadBudgetMin = 500
        s.platform.reloadBudgetMax = 500
        s.platform.rarelyViewedBudget = 500
        // Rates of WidgetKit's own and Smart Stack's calls high enough for the logs to identify
        // them and their day-to-day spread (the defaults, a few a day and none, leave the spread
        // and a stack rate of 0 nothing to be measured against).
        s.platform.systemReloadsPerDay = .triangular(min: 4, mode: 8, max: 12)
        s.population.smartStackReloadsPerDay = .uniform(min: 4, max: 8)
        return s
    }

    /// Generates logs of `devices` devices running `design` and analyses them; returns the
    /// scenario that generated them, its central parameters and the analysis.
    static func analyse(
        _ design: Design, style: TraceGenerator.Style, devices: Int, days: Int,
        budgetsBind: Bool = false, seed: UInt64? = nil, multiWidgetShare: Double? = nil
    ) throws -> (Scenario, RunParameters, LogAnalysis) {
        var s = scenario(days: days)
        if let multiWidgetShare { s.population.multiWidgetShare = .fixed(multiWidgetShare) }
        if budgetsBind {
            let defaults = Scenario().platform
            s.platform.reloadBudgetMin = defaults.reloadBudgetMin
            s.platform.reloadBudgetMax = defaults.reloadBudgetMax
            s.platform.rarelyViewedBudget = defaults.rarelyViewedBudget
        }
        if let seed { s.horizon.seed = seed }
        let g = TraceGenerator(scenario: s, design: design, devices: devices, style: style)
        var analyzer = LogAnalyzer()
        if style.isApple {
            for i in 0..<devices {
                var text = ""
                g.write(device: i, header: true) { text += $0 }
                var source = MemoryByteSource(text)
                try analyzer.read(source: &source, name: g.deviceName(i))
            }
        } else {
            var text = ""
            for i in 0..<devices { g.write(device: i, header: i == 0) { text += $0 } }
            var source = MemoryByteSource(text)
            try analyzer.read(source: &source, name: "trace")
        }
        return (s, g.parameters, analyzer.analysis())
    }

    /// The scenario `analyze --design` would emit for such logs, with the truth and the analysis.
    static func measure(
        _ design: Design, style: TraceGenerator.Style, devices: Int, days: Int,
        budgetsBind: Bool = false, seed: UInt64? = nil
    ) throws -> (Scenario, RunParameters, LogAnalysis) {
        let (s, truth, analysis) = try analyse(design, style: style, devices: devices, days: days, budgetsBind: budgetsBind, seed: seed)
        return (try ScenarioCalibrator.calibrate(analysis, base: s, design: design, simulatedUsers: simulatedUsers), truth, analysis)
    }

    static func close(_ measured: Double, _ truth: Double, _ tolerance: Double) -> Bool {
        abs(measured - truth) <= tolerance * truth
    }

    /// Whether a measured rate lands on the truth within three of its own standard errors (the
    /// emitted normal's sd), with that error at most half the truth so the check says something.
    static func recovered(_ measured: Distribution, _ truth: Double) -> Bool {
        guard case .normal(let mean, let sd, _, _) = measured else { return false }
        return abs(mean - truth) <= 3 * sd && sd <= 0.5 * truth
    }

    /// Every style logs a failed request's fetch error alike: the devices' fetch errors equal their
    /// failed requests, whatever the style (trace styles once logged none, Apple styles one each).
    @Test("fetch errors agree across styles and equal the failed requests")
    func fetchErrorsAgreeAcrossStyles() throws {
        var perStyle = [[Int]]()
        for style in TraceGenerator.Style.allCases {
            let (_, _, a) = try Self.analyse(DesignPresets.directPoll15m, style: style, devices: 6, days: 7, seed: 5)
            #expect(a.perDevice.map(\.fetchErrors) == a.perDevice.map(\.failedRequests), "\(style)")
            perStyle.append(a.perDevice.map(\.fetchErrors))
        }
        #expect(Set(perStyle).count == 1, "\(perStyle)")
        #expect(perStyle.first?.reduce(0, +) ?? 0 > 0, "no failed request: the test tests nothing")
    }

    /// Two instances reloaded at once fetch and read the cache at the same moment: their lines must
    /// differ, so the duplicate check counts every event the generator logged, in every style.
    @Test("simultaneous events of two instances are not folded as repeats", arguments: TraceGenerator.Style.allCases)
    func simultaneousEventsOfTwoInstancesAreNotFoldedAsRepeats(style: TraceGenerator.Style) throws {
        // The scenario `analyse` builds for these arguments.
        var s = Self.scenario(days: 14)
        let defaults = Scenario().platform
        s.platform.reloadBudgetMin = defaults.reloadBudgetMin
        s.platform.reloadBudgetMax = defaults.reloadBudgetMax
        s.platform.rarelyViewedBudget = defaults.rarelyViewedBudget
        s.horizon.seed = 3
        s.population.multiWidgetShare = 0.5
        let design = DesignPresets.directPoll15m
        let g = TraceGenerator(scenario: s, design: design, devices: 12, style: style)
        let logged = (0..<12).flatMap { g.events(device: $0) }
        let (_, _, a) = try Self.analyse(
            design, style: style, devices: 12, days: 14, budgetsBind: true, seed: 3,
            multiWidgetShare: 0.5)
        #expect(a.duplicateLines == 0, "\(style)")
        let requests = logged.filter { $0.kind == .apiRequest && $0.actor == .widgetExtension }.count
        #expect(LogTestSupport.total(a, \.extensionRequests) == requests, "\(style)")
        if style == .trace || style == .traceCSV {
            #expect(LogTestSupport.total(a, \.cacheHits) == logged.filter { $0.kind == .cacheHit }.count, "\(style)")
        }
    }

    @Test("trace format recovers the model") func traceFormatRecoversTheModel() throws {
        let (emitted, truth, analysis) = try Self.measure(DesignPresets.cacheBGTask, style: .trace, devices: 200, days: 14)
        #expect(analysis.malformedLines == 0)
        let system = emitted.platform.systemReloadsPerDay
        #expect(Self.recovered(system, truth.systemReloadsPerDay), "system reloads \(system) vs \(truth.systemReloadsPerDay)")
        let stack = emitted.population.smartStackReloadsPerDay
        #expect(Self.recovered(stack, truth.smartStackReloadsPerDay), "Smart Stack reloads \(stack) vs \(truth.smartStackReloadsPerDay)")
        let lowPower = emitted.population.lowPowerDayShare.central
        #expect(abs(lowPower - truth.lowPowerDayShare) <= Self.shareTolerance, "low power \(lowPower) vs \(truth.lowPowerDayShare)")
        let runs = emitted.platform.backgroundRunsPerDay.central
        #expect(
            Self.close(runs, truth.backgroundRunsPerDay, Self.backgroundTolerance), "background \(runs) vs \(truth.backgroundRunsPerDay)")
        let share = emitted.population.smartStackShare.central
        #expect(abs(share - truth.smartStackShare) <= 2 * Self.shareTolerance, "smart stack share \(share) vs \(truth.smartStackShare)")
        #expect(emitted.calibration?.fields.contains("platform.backgroundRunsPerDay") == true)
        try ScenarioValidator.validate(emitted)
    }

    @Test("apple export recovers get timeline and background runs") func appleExportRecoversGetTimelineAndBackgroundRuns() throws {
        // Apple logs carry no Smart Stack state: the base scenario's share and rotation reloads are backed out.
        let (emitted, truth, analysis) = try Self.measure(DesignPresets.cacheBGTask, style: .ndjson, devices: 80, days: 10)
        #expect(analysis.malformedLines == 0)
        #expect(analysis.appProcesses == ["AIMessage"] && analysis.extensionProcesses == ["AIMessageWidgetExtension"])
        // Apple logs cannot tell policy reloads from WidgetKit's own; simulating the design takes them out.
        let system = emitted.platform.systemReloadsPerDay
        #expect(Self.recovered(system, truth.systemReloadsPerDay), "system reloads \(system) vs \(truth.systemReloadsPerDay)")
        let runs = emitted.platform.backgroundRunsPerDay.central
        #expect(
            Self.close(runs, truth.backgroundRunsPerDay, Self.backgroundTolerance), "background \(runs) vs \(truth.backgroundRunsPerDay)")
        let lowPower = emitted.population.lowPowerDayShare.central
        #expect(abs(lowPower - truth.lowPowerDayShare) <= Self.shareTolerance, "low power \(lowPower)")
    }

    @Test("direct design apple export recovers get timeline") func directDesignAppleExportRecoversGetTimeline() throws {
        let (emitted, truth, _) = try Self.measure(DesignPresets.direct, style: .compact, devices: 120, days: 10)
        let system = emitted.platform.systemReloadsPerDay
        #expect(Self.recovered(system, truth.systemReloadsPerDay), "system reloads \(system) vs \(truth.systemReloadsPerDay)")
    }

    @Test("trace is reproducible") func traceIsReproducible() {
        let s = Self.scenario(days: 3)
        let g = TraceGenerator(scenario: s, design: DesignPresets.direct, devices: 2, style: .syslog)
        var a = ""
        var b = ""
        g.write(device: 1, header: true) { a += $0 }
        g.write(device: 1, header: true) { b += $0 }
        #expect(a == b && !a.isEmpty)
        var other = s
        other.horizon.seed = 7
        var c = ""
        TraceGenerator(scenario: other, design: DesignPresets.direct, devices: 2, style: .syslog).write(device: 1, header: true) { c += $0 }
        #expect(c != a)
    }
}
