import Foundation
import Testing
import WidgetQuotaLogs
import WidgetQuotaModel
import WidgetQuotaStudies

/// Logs show every getTimeline call that ran, whatever caused it, less what the reload budget
/// dropped. Calibration simulates the design the logs came from and finds WidgetKit's own
/// reload rates whose simulated logs show what the real ones show.
@Suite("Calibration inverts the model")
struct BudgetCorrectionTests {
    typealias RoundTrip = RoundTripTests

    struct Case: CustomTestStringConvertible, Sendable {
        let design: Design
        let style: TraceGenerator.Style
        let devices: Int
        /// Whether the rate as the logs show it is too low (the budget drops some of WidgetKit's
        /// calls in traces, which name origins) or too high (Apple logs count the design's own reloads).
        let uncorrectedLow: Bool
        var testDescription: String { "\(design.name) \(style.rawValue)" }
    }

    static let cases: [Case] = [
        Case(design: DesignPresets.direct, style: .trace, devices: 500, uncorrectedLow: true),
        Case(design: DesignPresets.direct, style: .compact, devices: 150, uncorrectedLow: false),
        Case(design: DesignPresets.cacheBGTask, style: .compact, devices: 150, uncorrectedLow: false),
    ]

    /// Under the default 40–70 budget, the fitted rate lands on the rate that generated the
    /// logs (within its stated uncertainty), while the rate as the logs show it misses it in the
    /// expected direction.
    @Test("fitted rate recovers WidgetKit's own", arguments: cases)
    func fittedRateRecoversWidgetKitsOwn(_ c: Case) throws {
        let days = 14
        let (base, truth, analysis) = try RoundTrip.analyse(
            c.design, style: c.style, devices: c.devices, days: days, budgetsBind: true, seed: 41)
        let fitted = try ScenarioCalibrator.calibrate(analysis, base: base, design: c.design, simulatedUsers: RoundTrip.simulatedUsers)
        let shown = try ScenarioCalibrator.calibrate(analysis, base: base, design: nil)
        let rate = fitted.platform.systemReloadsPerDay
        let raw = shown.platform.systemReloadsPerDay.central
        let t = truth.systemReloadsPerDay
        #expect(RoundTrip.recovered(rate, t), "fitted \(rate) vs \(t)")
        #expect(c.uncorrectedLow ? rate.central > raw : rate.central < raw, "fitted \(rate.central), shown \(raw)")
        if !c.uncorrectedLow { #expect(raw > 2 * t, "as shown \(raw) vs \(t)") }
        let calibration = try #require(fitted.calibration)
        #expect(calibration.design == c.design.name && calibration.notes.isEmpty, "\(calibration.notes)")
        // Traces count WidgetKit's own calls only; Apple logs count every call.
        let share = try #require(calibration.getTimelineLoggedShare)
        #expect(c.style == .trace ? share < 1 : share == 1, "counted share \(share)")
        // The spread between days is hidden too (budget-capped days, policy reloads filling gaps).
        let spread = fitted.platform.getTimelineDaySpread
        let trueSpread = Scenario().platform.getTimelineDaySpread
        #expect(abs(spread - trueSpread) <= 0.15, "day spread \(spread) vs \(trueSpread)")
        #expect(shown.calibration?.design == nil && shown.calibration?.getTimelineLoggedShare == nil)
        // Traces name the stack: Smart Stack rotation's reloads are fitted as well.
        if c.style == .trace {
            let stack = fitted.population.smartStackReloadsPerDay
            #expect(
                RoundTrip.recovered(stack, truth.smartStackReloadsPerDay),
                "Smart Stack reloads \(stack) vs \(truth.smartStackReloadsPerDay)")
        }
    }

    /// Apple logs count the design's own reloads; traces, which name origins, count only WidgetKit's.
    @Test("apple logs count the design's own reloads") func appleLogsCountTheDesignsOwnReloads() {
        var s = Scenario()
        s.platform.systemReloadsPerDay = .fixed(0)
        s.population.smartStackShare = .fixed(0)
        var traces = TimelineVisibility(design: DesignPresets.cacheBGTask, originKnownShare: 1)
        traces.users = 200
        var apple = TimelineVisibility(design: DesignPresets.cacheBGTask, originKnownShare: 0)
        apple.users = 200
        #expect(traces.shown(s).all == 0)
        // Hourly policy reloads while the phone is in use: well over ten a day.
        #expect((apple.shown(s).all ?? 0) > 10)
        #expect(apple.shown(s).countedShare == 1)
    }

    /// A tighter budget hides more calls.
    @Test("tighter budgets hide more") func tighterBudgetsHideMore() {
        var v = TimelineVisibility(design: DesignPresets.direct, originKnownShare: 1)
        v.users = 300
        var loose = Scenario()
        var tight = Scenario()
        loose.platform.reloadBudgetMin = 60
        loose.platform.reloadBudgetMax = 80
        tight.platform.reloadBudgetMin = 25
        tight.platform.reloadBudgetMax = 35
        let a = v.shown(loose).all ?? 0
        let b = v.shown(tight).all ?? 0
        #expect(b < a, "tight \(b), loose \(a)")
    }

    @Test("calibration is deterministic") func calibrationIsDeterministic() throws {
        let (a, _, _) = try RoundTrip.measure(DesignPresets.direct, style: .trace, devices: 60, days: 7, budgetsBind: true)
        let (b, _, _) = try RoundTrip.measure(DesignPresets.direct, style: .trace, devices: 60, days: 7, budgetsBind: true)
        #expect(ScenarioLoader.encode(a) == ScenarioLoader.encode(b))
    }

    /// When every device spends its budget, the logs say only that the rate is at least the
    /// budget: no rate reproduces them, and the calibration says so instead of guessing.
    @Test("hopeless censoring is reported not guessed") func hopelessCensoringIsReportedNotGuessed() throws {
        var s = RoundTrip.scenario(days: 7)
        s.platform.reloadBudgetMin = 5
        s.platform.reloadBudgetMax = 5
        s.platform.rarelyViewedBudget = 5
        s.population.appOpensPerDay = .fixed(0)
        s.population.neverOpenShare = .fixed(1)
        let g = TraceGenerator(scenario: s, design: DesignPresets.direct, devices: 40, style: .trace)
        var text = ""
        for i in 0..<40 { g.write(device: i, header: i == 0) { text += $0 } }
        var analyzer = LogAnalyzer()
        var source = MemoryByteSource(text)
        try analyzer.read(source: &source, name: "trace")
        let emitted = try ScenarioCalibrator.calibrate(
            analyzer.analysis(), base: s, design: DesignPresets.direct,
            simulatedUsers: RoundTrip.simulatedUsers)
        let calibration = try #require(emitted.calibration)
        #expect(calibration.getTimelineLoggedShare == nil)
        #expect(calibration.notes.contains { $0.contains("as the logs show them") }, "\(calibration.notes)")
    }

    /// Trace-format logs name each call's origin even when every call was the system's, so the
    /// design's own reloads are never counted as shown calls, whichever design is simulated.
    @Test("traces count only system calls under any design") func tracesCountOnlySystemCallsUnderAnyDesign() throws {
        let (base, _, analysis) = try RoundTrip.analyse(DesignPresets.direct, style: .trace, devices: 80, days: 7, budgetsBind: true)
        let emitted = try ScenarioCalibrator.calibrate(
            analysis, base: base, design: DesignPresets.cacheBGTask,
            simulatedUsers: RoundTrip.simulatedUsers)
        let calibration = try #require(emitted.calibration)
        #expect(calibration.design == DesignPresets.cacheBGTask.name, "\(calibration.notes)")
        let share = try #require(calibration.getTimelineLoggedShare)
        #expect(share <= 1, "logged share \(share)")
    }

    /// Logs that reload less often than the design's policy asks (hourly logs, a 15-minute
    /// policy) are WidgetKit honouring the policy late: calibration fits the mean lateness, with
    /// WidgetKit's own reloads at 0, so that the design simulated with it shows the logged rate.
    @Test("rarer reloads than the policy asks are fitted as lateness") func rarerReloadsAreFittedAsLateness() throws {
        let (base, _, analysis) = try RoundTrip.analyse(DesignPresets.direct, style: .compact, devices: 30, days: 7, budgetsBind: true)
        let design = DesignPresets.directPoll15m
        let emitted = try ScenarioCalibrator.calibrate(analysis, base: base, design: design, simulatedUsers: RoundTrip.simulatedUsers)
        let calibration = try #require(emitted.calibration)
        #expect(calibration.fields.contains("platform.policyLatenessMinutes"), "\(calibration.fields)")
        #expect(calibration.notes.contains { $0.contains("platform.policyLatenessMinutes is") }, "\(calibration.notes)")
        #expect(emitted.platform.systemReloadsPerDay.central == 0)
        #expect(emitted.platform.policyLatenessMinutes.central > 15, "\(emitted.platform.policyLatenessMinutes)")
        // The design simulated with the fitted lateness shows what the logs show.
        let logged = CalibrationMeasurement.loggedTimelines(analysis.measurements.filter { !$0.days.isEmpty }).all.value
        var visibility = TimelineVisibility(design: design, originKnownShare: 0)
        visibility.users = 2_000
        visibility.days = 7
        let shown = try #require(visibility.shown(emitted).all)
        #expect(abs(shown / logged - 1) < 0.1, "shown \(shown) vs logged \(logged)")
    }

    /// Emitted scenarios with the new provenance fields load back (they are valid keys).
    @Test("emitted scenario loads back") func emittedScenarioLoadsBack() throws {
        let (emitted, _, _) = try RoundTrip.measure(DesignPresets.direct, style: .trace, devices: 40, days: 7, budgetsBind: true)
        let loaded = try ScenarioLoader.decode(Data(ScenarioLoader.encode(emitted).utf8), file: "emitted.json")
        #expect(loaded.calibration == emitted.calibration)
        #expect(loaded.calibration?.design == "direct")
    }
}
