import Foundation
import Testing

@testable import WidgetQuotaKit

/// `UserSimulator.fetchingRun(from:before:)`, the path for designs whose widget fetches in
/// getTimeline, gives what the general event loop gives: the same tallies, requests, per-minute
/// counts and trace, user by user. And `policyTime(after:)`, whose aligned boundary is
/// predicted, gives the boundary's formula.
@Suite("fetching runs") struct FetchingRunTests {
    /// A design and the scenario changes it is tried under.
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let design: Design
        let scenario: @Sendable (inout Scenario) -> Void
        var testDescription: String { name }
    }

    static let cases: [Case] = {
        var retrying = DesignPresets.pollAligned
        retrying.retry = .backoff(maxRetries: 3, baseSeconds: 20, jitter: true)
        var odd = DesignPresets.pollJittered
        odd.alignToWallClockMinutes = 7
        odd.jitterSeconds = 333.3
        odd.reloadPolicy = .after(minutes: 17)
        var long = DesignPresets.pollAligned
        long.reloadPolicy = .after(minutes: 50)
        let outage: @Sendable (inout Scenario) -> Void = { s in
            s.api.outages = [Outage(day: 3, startHourUTC: 15, durationHours: 3, errorRate: 0.95)]
        }
        return [
            Case(name: "poll-30m-aligned", design: DesignPresets.pollAligned) { _ in },
            Case(name: "poll-30m-jittered", design: DesignPresets.pollJittered) { _ in },
            Case(name: "poll-30m-aligned, outages", design: DesignPresets.pollAligned, scenario: outage),
            // Failed fetches retry: a retry ends a run, or replaces a pending one.
            Case(name: "aligned with retries, outages", design: retrying, scenario: outage),
            Case(name: "7-min period, odd phase, 17-min policy", design: odd) { _ in },
            Case(name: "policy longer than the period", design: long) { _ in },
            Case(name: "direct", design: DesignPresets.direct) { _ in },
            Case(name: "direct-poll-15m", design: DesignPresets.directPoll15m) { _ in },
            Case(name: "prebuilt-timeline", design: DesignPresets.prebuiltTimeline) { _ in },
            Case(name: "prebuilt-timeline, outages", design: DesignPresets.prebuiltTimeline, scenario: outage),
            Case(name: "aligned, no foreground exemption, small budget", design: DesignPresets.pollJittered) { s in
                s.platform.foregroundReloadsExempt = false
                s.platform.reloadBudgetMin = 10
                s.platform.reloadBudgetMax = 20
            },
        ]
    }()

    static func model(_ c: Case) -> SimulationModel {
        var s = TestSupport.smallScenario(users: [60], runs: 1, days: 6)
        s.population.multiWidgetShare = 0.2
        s.population.instancesWhenMulti = 2
        s.api.failureProbability = 0.05
        c.scenario(&s)
        return SimulationModel(scenario: s, design: c.design, run: 1, parameters: RunParameters.draw(s, run: 1))
    }

    /// Runs `user` with fetching runs where they apply or nowhere, with per-minute counts, and
    /// returns the simulator.
    static func simulate<O: SimulationObserver>(
        _ m: SimulationModel, user: Int, observer: O, fetchingRuns: Bool, buckets: UnsafeMutablePointer<Int32>
    ) -> UserSimulator<O> {
        var sim = UserSimulator(model: m, user: user, observer: observer)
        #expect(sim.usesFetchingRuns == (sim.traits.instances == 1))
        #expect(!sim.usesWidgetRuns)
        if !fetchingRuns { sim.usesFetchingRuns = false }
        sim.buckets = buckets
        sim.run()
        return sim
    }

    @Test("fetching runs match the general loop", arguments: FetchingRunTests.cases)
    func fetchingRunsMatchTheGeneralLoop(c: Case) {
        let m = FetchingRunTests.model(c)
        let minutes = m.countedMinutes
        let general = UnsafeMutablePointer<Int32>.allocate(capacity: minutes)
        let runs = UnsafeMutablePointer<Int32>.allocate(capacity: minutes)
        defer {
            general.deallocate()
            runs.deallocate()
        }
        general.initialize(repeating: 0, count: minutes)
        runs.initialize(repeating: 0, count: minutes)
        var singles = 0
        var total = UserTally()
        for user in 0..<60 {
            let a = FetchingRunTests.simulate(m, user: user, observer: NoObserver(), fetchingRuns: false, buckets: general)
            let b = FetchingRunTests.simulate(m, user: user, observer: NoObserver(), fetchingRuns: true, buckets: runs)
            #expect(a.tally == b.tally, "user \(user)")
            #expect(a.monthRequests == b.monthRequests, "user \(user)")
            #expect(a.peakPerMinute == b.peakPerMinute, "user \(user)")
            total.add(b.tally)
            if b.traits.instances == 1 { singles += 1 }
            // The trace, event by event.
            let seenA = FetchingRunTests.simulate(m, user: user, observer: Recorder(), fetchingRuns: false, buckets: general)
            let seenB = FetchingRunTests.simulate(m, user: user, observer: Recorder(), fetchingRuns: true, buckets: runs)
            #expect(seenA.observer.lines == seenB.observer.lines, "user \(user)")
        }
        #expect(Array(UnsafeBufferPointer(start: general, count: minutes)) == Array(UnsafeBufferPointer(start: runs, count: minutes)))
        // The cases reach what they are meant to.
        #expect(singles > 30)
        #expect(total.getTimelines > 0 && total.glances > 0 && total.fetches > 0 && total.failedFetches > 0)
        if c.name.contains("retries") { #expect(total.retries > 0) }
        if c.name.contains("small budget") { #expect(total.droppedReloads > 0 && total.exhaustedInstanceDays > 0) }
    }

    /// The policy reload time by its formula: the first aligned boundary after the time (after
    /// t + delay − period for a delay longer than the period), at least the minimum spacing on.
    static func formula(_ c: SimulationConstants, phase: Double, after t: Double) -> Double {
        let period = c.alignPeriod
        let from = t + max(c.policyDelay - period, 0)
        let boundary = (((from - phase) / period).rounded(.down) + 1) * period + phase
        return max(boundary, t + c.minReloadSpacing)
    }

    @Test("predicted aligned boundaries are the formula's", arguments: [0, 1, 2, 4])
    func predictedBoundariesAreTheFormulas(caseIndex: Int) {
        let c = FetchingRunTests.cases[caseIndex]
        let m = FetchingRunTests.model(c)
        var rng = SplitMix(state: UInt64(caseIndex))
        for user in 0..<20 {
            var sim = UserSimulator(model: m, user: user, observer: NoObserver())
            let constants = sim.constants
            #expect(constants.aligned)
            let period = constants.alignPeriod
            var t = Double.random(in: 0..<period, using: &rng)
            for _ in 0..<3_000 {
                // Times between boundaries, at them and an ulp either side, and after long gaps.
                switch Int.random(in: 0..<6, using: &rng) {
                case 0: t += Double.random(in: 0..<period / 3, using: &rng)
                case 1: t = FetchingRunTests.formula(constants, phase: sim.wallClockPhase, after: t)
                case 2: t = FetchingRunTests.formula(constants, phase: sim.wallClockPhase, after: t).nextDown
                case 3: t = FetchingRunTests.formula(constants, phase: sim.wallClockPhase, after: t).nextUp
                case 4: t += Double.random(in: 0..<(4 * period), using: &rng)
                default: t += 1
                }
                let expected = FetchingRunTests.formula(constants, phase: sim.wallClockPhase, after: t)
                #expect(sim.policyTime(after: t) == expected, "user \(user), t \(t)")
            }
        }
    }

    /// A small seeded generator, so that the times tried are the same on every run.
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// Records each event and its times as text.
    struct Recorder: SimulationObserver {
        var lines: [String] = []
        mutating func record(_ event: SimulationEvent, local: Double, utc: Double) { lines.append("\(local) \(utc) \(event)") }
    }
}
