import Foundation
import Testing

@testable import WidgetQuotaKit

/// The engine's glance figures are expectations integrated over what instance 0 shows; drawn
/// glances (what an observer that sees glances gets) are the reference they must agree with.
@Suite("glance integration") struct GlanceIntegrationTests {
    /// Sees glances, records nothing: the simulator draws glances one by one and counts them.
    struct GlanceCounter: SimulationObserver {
        mutating func record(_ event: SimulationEvent, local: Double, utc: Double) {}
    }

    /// One design's figures over `users` users of one run, integrated and drawn.
    struct Figures {
        var integrated = UserTally()
        var drawn = UserTally()
        var integratedAges = AgeHistogram()
        var drawnAges = AgeHistogram()
        /// Users whose tally differed in anything but the glance figures.
        var usersDiffering = 0
    }

    static func figures(_ design: String, scenario: Scenario, users: Int) -> Figures {
        let s = scenario
        let d = s.availableDesigns.first { $0.name == design }!
        let model = SimulationModel(scenario: s, design: d, run: 0, parameters: RunParameters.central(s))
        let workspace = SimulationWorkspace(model: model)
        let steps = 2 * AgeHistogram.binCount
        let integratedSteps = UnsafeMutablePointer<Double>.allocate(capacity: steps)
        let drawnSteps = UnsafeMutablePointer<Double>.allocate(capacity: steps)
        integratedSteps.initialize(repeating: 0, count: steps)
        drawnSteps.initialize(repeating: 0, count: steps)
        defer {
            integratedSteps.deallocate()
            drawnSteps.deallocate()
        }
        var f = Figures()
        for user in 0..<users {
            var engine = UserSimulator(model: model, user: user, observer: NoObserver(), workspace: workspace)
            engine.ages = integratedSteps
            engine.run()
            var sampled = UserSimulator(model: model, user: user, observer: GlanceCounter(), workspace: workspace)
            sampled.ages = drawnSteps
            sampled.run()
            if withoutGlances(engine.tally) != withoutGlances(sampled.tally) || engine.monthRequests != sampled.monthRequests {
                f.usersDiffering += 1
            }
            f.integrated.add(engine.tally)
            f.drawn.add(sampled.tally)
        }
        f.integratedAges = AgeHistogram(steps: integratedSteps)
        f.drawnAges = AgeHistogram(steps: drawnSteps)
        return f
    }

    static func withoutGlances(_ tally: UserTally) -> UserTally {
        var t = tally
        t.glances = 0
        t.staleGlances = 0
        t.errorGlances = 0
        t.overTargetGlances = 0
        t.outageGlances = 0
        t.outageErrorGlances = 0
        t.outageStaleGlances = 0
        return t
    }

    /// A scenario with a 12-hour outage that fails every request, so errors and outage figures show.
    static var outageScenario: Scenario {
        var s = TestSupport.smallScenario(users: [800], runs: 1, days: 10)
        s.api.outages = [Outage(day: 4, startHourUTC: 8, durationHours: 12, errorRate: 1)]
        s.population.multiWidgetShare = 0.3
        return s
    }

    static let designs = ["cache-bgtask", "direct", "prebuilt-timeline", "poll-30m-aligned", "cache-on-open"]

    /// Shares agree within 0.01 (0.04 for the outage shares, over about 3,700 drawn glances),
    /// glances per user-day within 2%, the median content age within 3% and the p95 within 4%,
    /// over 800 users × 10 counted days (about 80,000 drawn glances); requests are identical.
    @Test("integrated glance figures agree with drawn glances", arguments: designs, [false, true])
    func integratedFiguresAgreeWithDrawnGlances(design: String, outage: Bool) {
        let scenario = outage ? Self.outageScenario : TestSupport.smallScenario(users: [800], runs: 1, days: 10)
        let f = Self.figures(design, scenario: scenario, users: 800)
        #expect(f.usersDiffering == 0, "the glances changed something else")
        let i = f.integrated
        let d = f.drawn
        #expect(d.glances > 50_000)
        #expect(abs(i.glances / d.glances - 1) < 0.02)
        let share = { (t: UserTally, k: KeyPath<UserTally, Double>) in t[keyPath: k] / t.glances }
        for k in [\UserTally.staleGlances, \.overTargetGlances, \.errorGlances] {
            #expect(abs(share(i, k) - share(d, k)) <= 0.01, "\(design) \(k): \(share(i, k)) vs \(share(d, k))")
        }
        let iMedian = f.integratedAges.quantileMinutes(0.5)!
        let dMedian = f.drawnAges.quantileMinutes(0.5)!
        #expect(abs(iMedian / dMedian - 1) < 0.03, "\(design) median age \(iMedian) vs \(dMedian)")
        let iP95 = f.integratedAges.quantileMinutes(0.95)!
        let dP95 = f.drawnAges.quantileMinutes(0.95)!
        #expect(abs(iP95 / dP95 - 1) < 0.04, "\(design) p95 age \(iP95) vs \(dP95)")
        // The histogram holds every glance at valid content, the rest are errors.
        #expect(abs(f.integratedAges.counts.reduce(0, +) + i.errorGlances - i.glances) < 1e-6 * i.glances)
        #expect(f.drawnAges.counts.reduce(0, +) + d.errorGlances == d.glances)
        if outage {
            #expect(d.outageGlances > 3_000)
            #expect(abs(i.outageGlances / d.outageGlances - 1) < 0.05)
            let outageShare = { (t: UserTally, k: KeyPath<UserTally, Double>) in t[keyPath: k] / t.outageGlances }
            for k in [\UserTally.outageErrorGlances, \.outageStaleGlances] {
                #expect(abs(outageShare(i, k) - outageShare(d, k)) <= 0.04, "\(design) \(k)")
            }
        } else {
            #expect(i.outageGlances == 0 && d.outageGlances == 0)
        }
    }

    /// A model whose widget is as busy at every hour: 24 glances a day is one an hour.
    static func flatModel() -> SimulationModel {
        var s = TestSupport.smallScenario(users: [1], runs: 1, days: 1)
        s.population.activity.widget = Array(repeating: 1, count: 24)
        s.population.freshnessTargetMinutes = 120
        let d = s.availableDesigns.first { $0.name == "direct" }!  // no TTL: stale means older than 2 h
        return SimulationModel(scenario: s, design: d, run: 0, parameters: RunParameters.central(s))
    }

    /// On a flat day with one glance an hour, what was shown when gives the figures by hand.
    @Test("integrator matches a hand-computed day") func integratorMatchesAHandComputedDay() {
        let model = Self.flatModel()
        let workspace = SimulationWorkspace(model: model)
        let constants = workspace.constants
        let steps = UnsafeMutablePointer<Double>.allocate(capacity: 2 * AgeHistogram.binCount)
        steps.initialize(repeating: 0, count: 2 * AgeHistogram.binCount)
        defer { steps.deallocate() }
        var g = GlanceIntegrator(glancesPerDay: 24, constants: constants, workspace: workspace, utcOffset: 0, steps: steps)
        let start = constants.countedStartLocal
        let hour = 3_600.0
        g.show(start - hour, error: false, at: start - 0.5 * hour)  // before the window: not counted
        g.show(start, error: false, at: start)  // fresh at the window's start
        g.show(start, error: false, at: start + hour)  // the same content again changes nothing
        g.show(start, error: true, at: start + 5 * hour)  // an error for an hour
        g.show(start + 6 * hour, error: false, at: start + 6 * hour)  // fresh again until the end
        var tally = UserTally()
        g.finish(into: &tally)
        let close = { (a: Double, b: Double) in abs(a - b) < 1e-9 }
        #expect(close(tally.glances, 24))
        #expect(close(tally.errorGlances, 1))
        // Older than 2 h: hours 2–5 of the first content and hours 2–18 of the second.
        #expect(close(tally.staleGlances, 3 + 16), "\(tally.staleGlances)")
        #expect(close(tally.overTargetGlances, 1 + 3 + 16))
        #expect(tally.outageGlances == 0)
        let ages = AgeHistogram(steps: steps)
        // 5-minute bins, 1/12 of a glance each per hour of showing: both contents cover ages
        // 0–5 h, the second alone 5–18 h.
        for bin in 0..<AgeHistogram.binCount {
            let expected = bin < 60 ? 2.0 / 12 : bin < 216 ? 1.0 / 12 : 0
            #expect(abs(ages.counts[bin] - expected) < 1e-9, "bin \(bin): \(ages.counts[bin])")
        }
    }

    /// The engine's glance figures are expectations: the same for any thread count and run to run,
    /// and free of the noise of drawn glances (a design that never errs shows exactly none).
    @Test("engine freshness is exact and repeatable") func engineFreshnessIsExactAndRepeatable() {
        let s = TestSupport.smallScenario(users: [60], runs: 2, days: 5)
        let one = TestSupport.run(s, designs: ["prebuilt-timeline", "direct"], threads: 1)
        let two = TestSupport.run(s, designs: ["prebuilt-timeline", "direct"], threads: 2)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        for design in ["prebuilt-timeline", "direct"] {
            let a = try? encoder.encode(TestSupport.row(one, design).freshness)
            let b = try? encoder.encode(TestSupport.row(two, design).freshness)
            #expect(a != nil && a == b)
        }
        #expect(TestSupport.row(one, "prebuilt-timeline").freshness.errorShare == 0)
    }
}
