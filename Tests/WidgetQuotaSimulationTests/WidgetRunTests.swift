import Foundation
import Testing
import WidgetQuotaModel
import WidgetQuotaSimulation
import WidgetQuotaSimulationTestSupport
import WidgetQuotaTestSupport

/// `UserSimulator.widgetRun(from:before:fetching:)`, the path for users with one widget whose
/// policy reload draws nothing, gives what the general event loop gives, for widgets that read
/// the cache only and for widgets that fetch: the same tallies, requests, per-minute counts and
/// trace, user by user.
@Suite("widget runs") struct WidgetRunTests {
    /// A design and the scenario changes it is tried under.
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let design: Design
        let scenario: @Sendable (inout Scenario) -> Void
        var testDescription: String { name }
    }

    static let cases: [Case] = {
        var never = DesignPresets.cacheBGTask
        never.reloadPolicy = .never
        var short = DesignPresets.cacheOnOpen
        short.reloadPolicy = .after(minutes: 5)
        var atEnd = DesignPresets.cacheBGTask
        atEnd.reloadPolicy = .atEnd
        atEnd.timelineEntries = 4
        var retrying = DesignPresets.pollAligned
        retrying.retry = .backoff(maxRetries: 3, baseSeconds: 20, jitter: true)
        let outage: @Sendable (inout Scenario) -> Void = { s in
            s.api.outages = [Outage(day: 3, startHourUTC: 15, durationHours: 3, errorRate: 0.95)]
        }
        // Interactive widgets whose intents tell the server on every tap.
        var tapping = DesignPresets.direct
        tapping.interactive = true
        tapping.requestsPerTap = 2
        var tappingCache = DesignPresets.cacheBGTask
        tappingCache.interactive = true
        tappingCache.requestsPerTap = 1
        let taps: @Sendable (inout Scenario) -> Void = { s in s.population.interactiveTapsPerDay = 3 }
        let smallBudget: @Sendable (inout Scenario) -> Void = { s in
            s.platform.reloadBudgetMin = 10
            s.platform.reloadBudgetMax = 20
            s.platform.rarelyViewedBudget = 4
        }
        // Match days with a window of changes: a Live Activity beside a widget that reads a
        // backend regenerating on each change (changes as drawn, live events, activities), and
        // per-user pushes confined to the window.
        let matchDays: @Sendable (inout Scenario) -> Void = { s in
            s.api.dataChangesPerDay = 4
            s.calendar.dayKinds = [
                DayKind(name: "match", weekdays: [.tuesday, .friday], factors: DayFactors(dataChanges: 5, startHourUTC: 17, hours: 4))
            ]
        }
        var activity = DesignPresets.direct
        activity.name = "live-activity"
        activity.backend = BackendGeneration(regenerate: .onChange, cacheTTLMinutes: 1)
        activity.liveActivity = LiveActivity()
        let activityDesign = activity
        let withActivity: @Sendable (inout Scenario) -> Void = { s in
            matchDays(&s)
            s.designs = [activityDesign]
        }
        var pushed = DesignPresets.cacheBGTask
        pushed.fetchTriggers = [.push]
        pushed.reloadPolicy = .never
        pushed.pushes = .perUser
        return [
            // Widgets that read the cache only.
            Case(name: "cache-on-open", design: DesignPresets.cacheOnOpen) { _ in },
            Case(name: "cache-bgtask", design: DesignPresets.cacheBGTask) { _ in },
            Case(name: "cache-bgtask, outages", design: DesignPresets.cacheBGTask, scenario: outage),
            Case(name: "policy never", design: never) { _ in },
            Case(name: "at end", design: atEnd) { _ in },
            // The budget runs out most days: drops, queued policy reloads, exhausted instance-days.
            Case(name: "5-min policy, small budget", design: short, scenario: smallBudget),
            Case(name: "5-min policy, no foreground exemption", design: short) { s in
                s.platform.foregroundReloadsExempt = false
                s.platform.reloadBudgetMin = 10
                s.platform.reloadBudgetMax = 20
            },
            // Widgets that fetch in getTimeline.
            Case(name: "direct", design: DesignPresets.direct) { _ in },
            Case(name: "direct-poll-15m", design: DesignPresets.directPoll15m) { _ in },
            Case(name: "prebuilt-timeline", design: DesignPresets.prebuiltTimeline) { _ in },
            Case(name: "prebuilt-timeline, outages", design: DesignPresets.prebuiltTimeline, scenario: outage),
            Case(name: "poll-30m-aligned", design: DesignPresets.pollAligned) { _ in },
            Case(name: "poll-30m-jittered", design: DesignPresets.pollJittered) { _ in },
            Case(name: "poll-30m-aligned, outages", design: DesignPresets.pollAligned, scenario: outage),
            // Failed fetches retry: a retry ends a run, or replaces a pending one.
            Case(name: "aligned with retries, outages", design: retrying, scenario: outage),
            Case(name: "7-min period, odd phase, 17-min policy", design: AlignedPolicyTests.oddlyAligned) { _ in },
            Case(name: "policy longer than the period", design: AlignedPolicyTests.longerThanPeriod) { _ in },
            Case(name: "interactive, two requests a tap", design: tapping, scenario: taps),
            Case(name: "interactive cache reader, a request a tap", design: tappingCache, scenario: taps),
            Case(name: "Live Activity beside a widget on an onChange backend", design: activity, scenario: withActivity),
            Case(name: "direct beside a Live Activity design", design: DesignPresets.direct, scenario: withActivity),
            Case(name: "per-user pushes in match windows", design: pushed, scenario: matchDays),
            Case(name: "aligned, no foreground exemption, small budget", design: DesignPresets.pollJittered) { s in
                smallBudget(&s)
                s.platform.foregroundReloadsExempt = false
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

    /// Runs `user` with widget runs where they apply or nowhere, with per-minute counts, and
    /// returns the simulator.
    static func simulate<O: SimulationObserver>(
        _ m: SimulationModel, user: Int, observer: O, widgetRuns: Bool, buckets: UnsafeMutablePointer<Int32>
    ) -> UserSimulator<O> {
        var sim = UserSimulator(model: m, user: user, observer: observer)
        #expect(sim.usesWidgetRuns == (sim.traits.instances == 1))
        if !widgetRuns { sim.usesWidgetRuns = false }
        sim.collected.buckets = buckets
        sim.run()
        return sim
    }

    @Test("widget runs match the general loop", arguments: WidgetRunTests.cases)
    func widgetRunsMatchTheGeneralLoop(c: Case) {
        let m = WidgetRunTests.model(c)
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
            let a = WidgetRunTests.simulate(m, user: user, observer: NoObserver(), widgetRuns: false, buckets: general)
            let b = WidgetRunTests.simulate(m, user: user, observer: NoObserver(), widgetRuns: true, buckets: runs)
            #expect(a.tally == b.tally, "user \(user)")
            #expect(a.monthRequests == b.monthRequests, "user \(user)")
            #expect(a.collected.peakPerMinute == b.collected.peakPerMinute, "user \(user)")
            total.add(b.tally)
            if b.traits.instances == 1 { singles += 1 }
            // The trace, event by event.
            let seenA = WidgetRunTests.simulate(m, user: user, observer: TraceLines(), widgetRuns: false, buckets: general)
            let seenB = WidgetRunTests.simulate(m, user: user, observer: TraceLines(), widgetRuns: true, buckets: runs)
            #expect(seenA.observer.lines == seenB.observer.lines, "user \(user)")
        }
        #expect(Array(UnsafeBufferPointer(start: general, count: minutes)) == Array(UnsafeBufferPointer(start: runs, count: minutes)))
        // The cases reach what they are meant to.
        #expect(singles > 30)
        #expect(total.getTimelines > 0 && total.glances > 0 && total.requests > 0 && total.failedFetches > 0)
        if c.name.contains("retries") { #expect(total.retries > 0) }
        if c.name.contains("small budget") { #expect(total.droppedReloads > 0 && total.exhaustedInstanceDays > 0) }
        if c.name.hasPrefix("Live Activity") { #expect(total.activities > 0 && total.activityGlances > 0 && total.liveEventGlances > 0) }
        if c.name.contains("beside a Live Activity") { #expect(total.liveEventGlances > 0 && total.activities == 0) }
        if c.name.contains("per-user pushes") { #expect(total.pushesSent > 0 && total.outdatedGlances > 0) }
    }
}
