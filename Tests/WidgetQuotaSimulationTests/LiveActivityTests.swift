import Foundation
import Testing
import WidgetQuotaModel
import WidgetQuotaSimulation
import WidgetQuotaSimulationTestSupport
import WidgetQuotaSupport
import WidgetQuotaTestSupport

/// Live Activities against widgets during live events, held to relations the model must keep
/// whatever its numbers: an activity per event for the users who start one, a push per change,
/// the budget that throttles priority-10 pushes, the app's state that does not matter.
@Suite("Live Activities") struct LiveActivityTests {
    /// Two weeks from a Monday with matches on Wednesdays and Saturdays (four in the counted
    /// days), 18:00–21:00 UTC, `changes` data changes in each.
    static func scenario(changes: Double = 30, keys: Int = 10, users: [Int] = [400]) -> Scenario {
        var s = TestSupport.smallScenario(users: users, runs: 2, days: 14, sample: 400)
        s.content.keys = keys
        s.api.dataChangesPerDay = 1
        s.calendar.dayKinds = [
            DayKind(
                name: "match day", weekdays: [.wednesday, .saturday],
                factors: DayFactors(glances: 2, dataChanges: changes, startHourUTC: 18, hours: 3))
        ]
        s.platform.liveActivityUpdatesPerHour = 1_000
        s.platform.liveActivityFrequentUpdatesPerHour = 1_000
        return s
    }

    static func design(
        _ name: String, priority: Int = 10, frequent: Bool = false, channel: Bool = true, startShare: Double = 1
    ) -> Design {
        var d = DesignPresets.direct
        d.name = name
        d.backend = BackendGeneration(regenerate: .onChange, cacheTTLMinutes: 1)
        var activity = LiveActivity()
        activity.priority = priority
        activity.frequentUpdates = frequent
        activity.channel = channel
        activity.startShare = startShare
        d.liveActivity = activity
        return d
    }

    static func run(_ s: Scenario, _ designs: [Design]) -> SimulationResult {
        var s = s
        s.designs = designs
        return MonteCarloEngine(scenario: s, designs: designs, threads: 2).run()
    }

    static func activity(_ result: SimulationResult, _ name: String, users: Int? = nil) throws -> DesignResult.Activity {
        try #require(TestSupport.row(result, name, users: users).liveEvents?.activity)
    }

    @Test("Every user who starts activities gets one per match, and a push for each change of the key in it")
    func oneActivityPerEvent() throws {
        let s = Self.scenario(keys: 1)
        let result = Self.run(s, [Self.design("la")])
        let a = try Self.activity(result, "la")
        // Four matches in fourteen days, whatever the user's time zone.
        #expect(abs(a.perUserDay - 4.0 / 14) < 1e-12, "\(a.perUserDay)")
        #expect(a.throttledShare == 0 && a.behindShare == 0)
        // One key: every activity of a run gets the same pushes, Poisson(30) a match; 8 matches in all.
        let perActivity = a.pushesPerUserDay / a.perUserDay
        #expect(abs(perActivity - 30) < 4 * (30.0 / 8).squareRoot(), "\(perActivity) pushes an activity")
    }

    @Test("The share of users who start an activity is its startShare", arguments: [0.25, 0.5])
    func startShare(share: Double) throws {
        let result = Self.run(Self.scenario(), [Self.design("la", startShare: share)])
        let a = try Self.activity(result, "la")
        // 400 users × 2 runs × 4 matches, each a Bernoulli draw.
        let draws = 400.0 * 2 * 4
        let started = a.perUserDay * 14 / 4
        #expect(abs(started - share) < 4 * (share * (1 - share) / draws).squareRoot(), "\(started)")
    }

    @Test("A smaller update budget throttles more priority-10 pushes and leaves activities further behind")
    func budgetThrottles() throws {
        var tight = Self.scenario(changes: 40)
        tight.platform.liveActivityUpdatesPerHour = 2
        let designs = [Self.design("la"), Self.design("la-frequent", frequent: true), Self.design("la-low", priority: 5)]
        let tightResult = Self.run(tight, designs)
        let roomy = try Self.activity(Self.run(Self.scenario(changes: 40), designs), "la")
        let throttled = try Self.activity(tightResult, "la")
        // 40 changes in 3 hours against 2 tokens and 2 an hour: about 8 get through.
        #expect(throttled.throttledShare > 0.6 && roomy.throttledShare == 0, "\(throttled.throttledShare)")
        #expect(throttled.behindShare > roomy.behindShare)
        #expect(throttled.pushesPerUserDay == roomy.pushesPerUserDay, "the backend sends every push either way")
        // Frequent updates have their own budget; priority 5 spends none.
        #expect(try Self.activity(tightResult, "la-frequent").throttledShare == 0)
        #expect(try Self.activity(tightResult, "la-low").throttledShare == 0)
    }

    @Test("Who follows which event does not depend on the budget, the priority or the events before")
    func startsIndependentOfUpdates() throws {
        var tight = Self.scenario(changes: 40)
        tight.platform.liveActivityUpdatesPerHour = 2
        let designs = [
            Self.design("la", startShare: 0.5), Self.design("la-frequent", frequent: true, startShare: 0.5),
            Self.design("la-low", priority: 5, startShare: 0.5),
        ]
        let counts = try [tight, Self.scenario(changes: 40)].flatMap { s in
            let result = Self.run(s, designs)
            return try designs.map { try Self.activity(result, $0.name).perUserDay }
        }
        #expect(Set(counts).count == 1, "\(counts)")
    }

    @Test("Priority-5 pushes that arrive later leave activities further behind")
    func lowPriorityDelay() throws {
        var quick = Self.scenario()
        quick.platform.liveActivityLowPriorityDelayMinutes = 0.01
        var slow = Self.scenario()
        slow.platform.liveActivityLowPriorityDelayMinutes = 30
        let design = Self.design("la-low", priority: 5)
        let fast = try Self.activity(Self.run(quick, [design]), "la-low")
        let late = try Self.activity(Self.run(slow, [design]), "la-low")
        #expect(fast.behindShare < 0.01 && late.behindShare > 0.2, "\(fast.behindShare) \(late.behindShare)")
    }

    @Test("Activities are updated whether or not the user force-quit the app, unlike silent pushes")
    func appStateDoesNotMatter() throws {
        var quitting = Self.scenario()
        quitting.population.forceQuitShare = 1
        var silent = Design(name: "silent")
        silent.fetchTriggers = [.push]
        silent.cacheTTLMinutes = 60
        silent.reloadPolicy = .never
        silent.pushes = .broadcast
        let designs = [Self.design("la", startShare: 0.5), silent]
        let everyone = Self.run(Self.scenario(), designs)
        let quitters = Self.run(quitting, designs)
        let a = try Self.activity(everyone, "la")
        let b = try Self.activity(quitters, "la")
        #expect(a.perUserDay == b.perUserDay && a.pushesPerUserDay == b.pushesPerUserDay && a.behindShare == b.behindShare)
        #expect(TestSupport.row(quitters, "silent").pushes?.deliveredShare == 0)
    }

    @Test("A Live Activity adds no paid request: the backend calls the API per change, not per device")
    func noPaidRequests() throws {
        var twin = Self.design("backend")
        twin.liveActivity = nil
        let result = Self.run(Self.scenario(users: [1_000, 100_000]), [Self.design("la"), twin])
        for users in [1_000, 100_000] {
            let la = TestSupport.row(result, "la", users: users).totalRequestsPerMonth.mean
            #expect(la == TestSupport.row(result, "backend", users: users).totalRequestsPerMonth.mean)
        }
        #expect(TestSupport.row(result, "backend").liveEvents?.activity == nil)
        #expect(TestSupport.row(result, "backend").liveEvents != nil, "every design of the scenario is measured in the events")
    }

    @Test("Channel pushes follow the keys followed; pushes to each device follow the users")
    func channelPushes() throws {
        var s = Self.scenario(keys: 200, users: [50, 100_000])
        s.content.skew = 1
        let result = Self.run(s, [Self.design("channel"), Self.design("devices", channel: false)])
        let few = try Self.activity(result, "channel", users: 50)
        let many = try Self.activity(result, "channel", users: 100_000)
        // Fifty fans follow some of the 200 teams; 100,000 follow nearly all, and the channels
        // carry each followed team's changes once, however many fans it has.
        let perKey = 30.0 * 4 / 14
        #expect(few.backendPushesPerDay < 0.5 * many.backendPushesPerDay, "\(few.backendPushesPerDay)")
        #expect(many.backendPushesPerDay <= 200 * perKey + 1e-9 && many.backendPushesPerDay > 0.95 * 200 * perKey)
        // One push per device and change: what the simulated devices received, times the users.
        let devices = try Self.activity(result, "devices", users: 100_000)
        #expect(abs(devices.backendPushesPerDay - devices.pushesPerUserDay * 100_000) < 1e-6 * devices.backendPushesPerDay)
        #expect(devices.backendPushesPerDay > 100 * many.backendPushesPerDay)
    }

    @Test("Scenarios without a Live Activity design measure nothing of live events")
    func absentWithoutActivities() {
        var s = Self.scenario()
        s.designs = []
        let result = TestSupport.run(s, designs: ["direct"])
        #expect(TestSupport.row(result, "direct").liveEvents == nil)
    }
}
