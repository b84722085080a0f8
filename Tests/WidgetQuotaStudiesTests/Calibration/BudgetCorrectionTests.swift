import Foundation
import Testing
import WidgetQuotaLogs
import WidgetQuotaModel
import WidgetQuotaStudies

/// Logs show the getTimeline calls that ran: the reload budget hides some of the system's calls,
/// and Apple logs count the design's own reloads as the system's. Calibration simulates the
/// design the logs came from to find the system's rate behind them.
@Suite("Budget correction")
struct BudgetCorrectionTests {
    typealias RoundTrip = RoundTripTests

    struct Case: CustomTestStringConvertible, Sendable {
        let design: Design
        let style: TraceGenerator.Style
        let devices: Int
        /// Whether the uncorrected rate is too low (budget) or too high (the design's own reloads in Apple logs).
        let uncorrectedLow: Bool
        var testDescription: String { "\(design.name) \(style.rawValue)" }
    }

    static let cases: [Case] = [
        Case(design: DesignPresets.direct, style: .trace, devices: 500, uncorrectedLow: true),
        Case(design: DesignPresets.direct, style: .compact, devices: 150, uncorrectedLow: true),
        Case(design: DesignPresets.cacheBGTask, style: .compact, devices: 150, uncorrectedLow: false),
    ]

    /// Under the default 40–70 budget, the corrected rate lands on the rate that generated the
    /// logs (within its stated uncertainty), while the rate as the logs show it misses it in the
    /// expected direction.
    @Test("corrected rate recovers the systems rate", arguments: cases)
    func correctedRateRecoversTheSystemsRate(_ c: Case) throws {
        let days = 14
        let (base, truth, analysis) = try RoundTrip.analyse(
            c.design, style: c.style, devices: c.devices, days: days, budgetsBind: true, seed: 41)
        let corrected = try ScenarioCalibrator.calibrate(analysis, base: base, design: c.design, simulatedUsers: RoundTrip.simulatedUsers)
        let shown = try ScenarioCalibrator.calibrate(analysis, base: base, design: nil)
        let rate = corrected.platform.getTimelinePerDay.central
        let raw = shown.platform.getTimelinePerDay.central
        let t = truth.getTimelinePerDay
        // Where the design's reloads fill in for the system's (Apple logs), the logs pin the
        // system's rate down less tightly, and the emitted sd is wider by as much.
        guard case .normal(_, let sd, _, _) = corrected.platform.getTimelinePerDay else {
            Issue.record("expected a normal distribution, got \(corrected.platform.getTimelinePerDay)")
            return
        }
        #expect(abs(rate - t) <= max(0.05 * t, 3 * sd), "corrected \(rate) ± \(sd) vs \(t)")
        #expect(c.uncorrectedLow ? rate > raw : rate < raw, "corrected \(rate), shown \(raw)")
        if !c.uncorrectedLow { #expect(raw > 1.15 * t, "uncorrected \(raw) vs \(t)") }
        let calibration = try #require(corrected.calibration)
        #expect(calibration.design == c.design.name && calibration.notes.isEmpty)
        let share = try #require(calibration.getTimelineLoggedShare)
        #expect(c.uncorrectedLow ? share < 1 : share > 1, "logged share \(share)")
        // The spread between days is hidden too (budget-capped days, policy reloads filling gaps).
        let spread = corrected.platform.getTimelineDaySpread
        let trueSpread = Scenario().platform.getTimelineDaySpread
        #expect(abs(spread - trueSpread) <= 0.1, "day spread \(spread) vs \(trueSpread)")
        #expect(shown.calibration?.design == nil && shown.calibration?.getTimelineLoggedShare == nil)
        // Stacked devices reach the budget sooner: their uplift is hidden more (traces name the stack).
        if c.style == .trace {
            let uplift = corrected.population.smartStackUplift.central
            let raw = shown.population.smartStackUplift.central
            #expect(
                abs(uplift - truth.smartStackUplift) <= 0.1 * truth.smartStackUplift && uplift > raw,
                "uplift \(uplift) (shown \(raw)) vs \(truth.smartStackUplift)")
        }
    }

    /// With budgets nobody reaches and origins in the logs, the logs show every system call.
    @Test("unbounded budget shows every system call") func unboundedBudgetShowsEverySystemCall() {
        var s = Scenario()
        s.platform.reloadBudgetMin = TimelineVisibility.unboundedBudget
        s.platform.reloadBudgetMax = TimelineVisibility.unboundedBudget
        s.platform.rarelyViewedBudget = TimelineVisibility.unboundedBudget
        var v = TimelineVisibility(design: DesignPresets.direct, originKnownShare: 1)
        v.users = 200
        let shares = v.shownPerOffered(s)
        #expect(shares.all == 1 && shares.inside == 1 && shares.outside == 1)
        // Apple logs (no origins) also count the policy's reloads: more calls than the system offered.
        v = TimelineVisibility(design: DesignPresets.cacheBGTask, originKnownShare: 0)
        v.users = 200
        #expect((v.shownPerOffered(s).all ?? 0) > 1)
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
        let a = v.shownPerOffered(loose).all ?? 0
        let b = v.shownPerOffered(tight).all ?? 0
        #expect(b < a && a < 1, "tight \(b), loose \(a)")
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
        #expect(calibration.notes.contains { $0.contains("not corrected") })
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

    /// A design whose own reloads would flood the logs cannot be the one logged: the rate is left
    /// as shown, no design is recorded, and the note says to check --design.
    @Test("implausible design is reported not fitted") func implausibleDesignIsReportedNotFitted() throws {
        let (base, _, analysis) = try RoundTrip.analyse(DesignPresets.direct, style: .compact, devices: 30, days: 7, budgetsBind: true)
        let emitted = try ScenarioCalibrator.calibrate(
            analysis, base: base, design: DesignPresets.directPoll15m,
            simulatedUsers: RoundTrip.simulatedUsers)
        let shown = try ScenarioCalibrator.calibrate(analysis, base: base, design: nil)
        let calibration = try #require(emitted.calibration)
        #expect(calibration.design == nil && calibration.getTimelineLoggedShare == nil)
        #expect(calibration.notes.contains { $0.contains("check that --design names the design") }, "\(calibration.notes)")
        #expect(emitted.platform.getTimelinePerDay == shown.platform.getTimelinePerDay)
    }

    /// Emitted scenarios with the new provenance fields load back (they are valid keys).
    @Test("emitted scenario loads back") func emittedScenarioLoadsBack() throws {
        let (emitted, _, _) = try RoundTrip.measure(DesignPresets.direct, style: .trace, devices: 40, days: 7, budgetsBind: true)
        let loaded = try ScenarioLoader.decode(Data(ScenarioLoader.encode(emitted).utf8), file: "emitted.json")
        #expect(loaded.calibration == emitted.calibration)
        #expect(loaded.calibration?.design == "direct")
    }
}
