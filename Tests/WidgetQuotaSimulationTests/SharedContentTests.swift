import Foundation
import Testing
import WidgetQuotaModel
import WidgetQuotaSimulation
import WidgetQuotaSimulationTestSupport
import WidgetQuotaSupport
import WidgetQuotaTestSupport

/// Content many users share: backend designs, broadcast pushes and calendars, held to the
/// relations the model must keep whatever its numbers.
@Suite("shared content") struct SharedContentTests {
    /// A push design (the app fetches on each silent push) with per-user or broadcast pushes.
    static func pushDesign(_ scope: Design.PushScope) -> Design {
        var d = Design(name: "push-\(scope.rawValue)")
        d.fetchTriggers = [.push]
        d.cacheTTLMinutes = 60
        d.reloadPolicy = .never
        d.pushes = scope
        return d
    }

    static func backendDesign(_ regenerate: BackendGeneration.Regeneration) -> Design {
        var d = DesignPresets.direct
        d.name = "backend-\(regenerate.summary)"
        d.backend = BackendGeneration(regenerate: regenerate, cacheTTLMinutes: 15)
        return d
    }

    static func run(_ s: Scenario, _ designs: [Design]) -> SimulationResult {
        var s = s
        s.designs = designs
        return MonteCarloEngine(scenario: s, designs: designs, threads: 2).run()
    }

    @Test(
        "Doubling users leaves a backend design's paid requests unchanged when every key has users",
        arguments: [BackendGeneration.Regeneration.onChange, .every(minutes: 30)])
    func backendPaidRequestsFollowKeys(regenerate: BackendGeneration.Regeneration) {
        var s = TestSupport.smallScenario(users: [50_000, 100_000], runs: 2, days: 7, sample: 300)
        s.content.keys = 20
        s.api.dataChangesPerDay = 4
        let backend = Self.backendDesign(regenerate)
        let result = Self.run(s, [backend, DesignPresets.direct])
        let paid = [50_000, 100_000].map { TestSupport.row(result, backend.name, users: $0) }
        #expect(paid[0].totalRequestsPerMonth.mean > 0)
        #expect(paid[1].totalRequestsPerMonth.mean == paid[0].totalRequestsPerMonth.mean)
        #expect(paid[1].cost?.perMonth.mean == paid[0].cost?.perMonth.mean)
        // The devices' requests, which the backend serves, double as a per-device design's do.
        let served = paid.map { $0.backend!.requestsPerDay.mean }
        #expect(abs(served[1] / served[0] - 2) < 1e-9, "\(served)")
        let direct = [50_000, 100_000].map { TestSupport.row(result, "direct", users: $0).totalRequestsPerMonth.mean }
        #expect(abs(direct[1] / direct[0] - 2) < 1e-9)
        #expect(abs(served[0] * Double(s.horizon.days) / direct[0] - 1) < 1e-9, "the backend serves what direct's devices send")
    }

    @Test("A schedule by popularity: the top keys on their own period, the tail on the schedule's")
    func popularSchedule() throws {
        var s = TestSupport.smallScenario(users: [1_000_000], runs: 2, days: 2, sample: 200)
        s.content.keys = 300
        s.content.skew = 0.5  // a flatter spread, so a million users follow every key
        let tail = Self.backendDesign(.every(minutes: 5))
        var ranked = Self.backendDesign(.every(minutes: 5))
        ranked.name = "backend-ranked"
        ranked.backend?.popular = .init(keys: 20, everyMinutes: 1)
        let result = Self.run(s, [tail, ranked])
        let row = { (d: Design) in TestSupport.row(result, d.name) }
        let minutes = 2.0 * 1_440
        // Every key is followed: 300 keys every 5 minutes, against 20 every minute and 280 every 5.
        #expect(abs(row(tail).totalRequestsPerMonth.mean - 300 * minutes / 5) <= 1)
        #expect(abs(row(ranked).totalRequestsPerMonth.mean - (20 * minutes + 280 * minutes / 5)) <= 1)
        // Each period's keys spread over its minutes: 20 + 280 ÷ 5 in every minute.
        #expect(row(ranked).load.peakRequestsPerMinute.mean == 76, "\(row(ranked).load.peakRequestsPerMinute.mean)")
        #expect(row(ranked).backend?.regenerate == "every(5), the top 20 keys every(1)")
        // A popular key's answer is at most a minute old; the tail's, five.
        let b = try #require(ranked.backend)
        #expect(b.generationLagMinutes(keyRank: 0) == 1 && b.generationLagMinutes(keyRank: 19) == 1)
        #expect(b.generationLagMinutes(keyRank: 20) == 5)
    }

    @Test("A backend regenerating after its TTL saturates at one generation per key and TTL")
    func afterTTLSaturates() {
        var s = TestSupport.smallScenario(users: [1_000, 100_000, 1_000_000], runs: 2, days: 7, sample: 300)
        s.content.keys = 5
        let backend = Self.backendDesign(.afterTTL)
        let result = Self.run(s, [backend])
        let paid = [1_000, 100_000, 1_000_000].map { TestSupport.row(result, backend.name, users: $0).totalRequestsPerMonth.mean }
        #expect(paid[0] <= paid[1] && paid[1] <= paid[2], "\(paid)")
        // At most one generation per key every 15 minutes, and a million users come within 2% of it.
        let ceiling = 5.0 * Double(s.horizon.days) * 24 * 4
        #expect(paid[2] <= ceiling + 1)
        #expect(paid[2] > 0.98 * ceiling, "\(paid[2]) of \(ceiling)")
    }

    @Test("every(M) spreads the keys over its M minutes: every(2)'s busiest minute is about half every(1)'s")
    func staggeredSchedule() throws {
        var s = TestSupport.smallScenario(users: [1_000_000], runs: 2, days: 2, sample: 200)
        s.content.keys = 3_000
        let one = Self.backendDesign(.every(minutes: 1))
        let two = Self.backendDesign(.every(minutes: 2))
        var allAtOnce = Self.backendDesign(.every(minutes: 2))
        allAtOnce.name = "backend-every-2-at-once"
        allAtOnce.backend?.staggered = false
        let result = Self.run(s, [one, two, allAtOnce])
        let peak = { (d: Design) in TestSupport.row(result, d.name).load.peakRequestsPerMinute.mean }
        let month = { (d: Design) in TestSupport.row(result, d.name).totalRequestsPerMonth.mean }
        // A million users follow nearly all 3,000 keys.
        #expect(peak(one) > 2_900 && peak(one) <= 3_000)
        #expect(abs(peak(two) / peak(one) - 0.5) < 0.02, "\(peak(two)) against \(peak(one))")
        #expect(peak(allAtOnce) == peak(one), "unstaggered, every key regenerates in the same minute")
        #expect(abs(month(two) / month(one) - 0.5) < 0.01 && abs(month(allAtOnce) - month(two)) <= 1)
    }

    @Test("A watchlist of k keys a user follows as many distinct keys as k times the users with one each")
    func watchlists() throws {
        var five = SharedContent()
        five.keys = 3_000
        five.keysPerUser = 5
        var one = five
        one.keysPerUser = 1
        for users in [10, 2_000, 200_000] {
            #expect(abs(five.followedKeys(users: users) - one.followedKeys(users: 5 * users)) <= 1e-9 * one.followedKeys(users: 5 * users))
            #expect(five.followedKeys(users: users) > one.followedKeys(users: users))
        }
        // The backend regenerates every followed key once a minute: its busiest minute follows them.
        var s = TestSupport.smallScenario(users: [2_000], runs: 2, days: 2, sample: 200)
        s.content = five
        var sFive = s
        sFive.content.keysPerUser = 1
        sFive.horizon.users = [10_000]
        let schedule = Self.backendDesign(.every(minutes: 1))
        let watch = TestSupport.row(Self.run(s, [schedule]), schedule.name).load.peakRequestsPerMinute.mean
        let single = TestSupport.row(Self.run(sFive, [schedule]), schedule.name).load.peakRequestsPerMinute.mean
        #expect(abs(watch - single) <= 1, "\(watch) against \(single)")
        #expect(abs(watch - five.followedKeys(users: 2_000)) <= 1)
    }

    /// Many keys spread evenly, so that the month's total of broadcast pushes varies little
    /// from run to run; every push delivered, and a change rate the throttle never reaches.
    static func broadcastScenario(keys: Int, users: [Int], runs: Int) -> Scenario {
        var s = TestSupport.smallScenario(users: users, runs: runs, days: 14, sample: users.max()!)
        s.content.keys = keys
        s.content.skew = 0
        s.api.dataChangesPerDay = 2
        s.platform.silentPushDeliveryShare = 1
        s.population.forceQuitShare = 0
        return s
    }

    @Test("A broadcast raises the busiest minute and leaves the month's requests as they are")
    func broadcastKeepsTotalRaisesPeak() {
        let runs = 6
        let s = Self.broadcastScenario(keys: 400, users: [1_000], runs: runs)
        let result = Self.run(s, [Self.pushDesign(.perUser), Self.pushDesign(.broadcast)])
        let own = TestSupport.row(result, "push-perUser", users: 1_000)
        let shared = TestSupport.row(result, "push-broadcast", users: 1_000)
        // Standard errors of the two means: Poisson counts of changes, per user for one design
        // and per key (each key's count shared by its users) for the other.
        let total = own.totalRequestsPerMonth.mean
        let changes = s.api.dataChangesPerDay.central * Double(s.horizon.days)
        let perUserSE = total / (Double(1_000) * changes).squareRoot() / Double(runs).squareRoot()
        let perKeySE = total / (Double(s.content.keys) * changes).squareRoot() / Double(runs).squareRoot()
        let tolerance = 4 * (perUserSE * perUserSE + perKeySE * perKeySE).squareRoot()
        #expect(
            abs(shared.totalRequestsPerMonth.mean - total) < tolerance, "\(shared.totalRequestsPerMonth.mean) vs \(total) ± \(tolerance)")

        // One key: every device gets each push within the delivery window.
        let single = Self.broadcastScenario(keys: 1, users: [1_000], runs: 2)
        let stampede = Self.run(single, [Self.pushDesign(.perUser), Self.pushDesign(.broadcast)])
        let randomPeak = TestSupport.row(stampede, "push-perUser", users: 1_000).load.peakRequestsPerMinute.mean
        let broadcastPeak = TestSupport.row(stampede, "push-broadcast", users: 1_000).load.peakRequestsPerMinute.mean
        #expect(broadcastPeak > 20 * randomPeak, "broadcast \(broadcastPeak), random \(randomPeak)")
    }

    @Test("The projection of broadcasts agrees with simulating every user")
    func broadcastProjection() {
        var projected = Self.broadcastScenario(keys: 10, users: [4_000], runs: 3)
        projected.content.skew = 1
        projected.horizon.sampleUsers = 1_000
        var exact = projected
        exact.horizon.sampleUsers = 4_000
        let design = Self.pushDesign(.broadcast)
        let a = TestSupport.row(Self.run(projected, [design]), design.name, users: 4_000).load.peakRequestsPerMinute.mean
        let b = TestSupport.row(Self.run(exact, [design]), design.name, users: 4_000).load.peakRequestsPerMinute.mean
        // The busiest minute is the top key's push: its users in the sample are binomial, so
        // the projected count carries about √(4,000 × share) ÷ √(1,000 ÷ 4,000) of noise.
        let topShare = projected.content.shares[0]
        let noise = (Double(4_000) * topShare).squareRoot() * 2
        #expect(abs(a - b) < 4 * noise, "projected \(a), simulated \(b) ± \(4 * noise)")
    }

    @Test("An event day with every factor 1 changes nothing")
    func neutralEventChangesNothing() {
        let plain = TestSupport.smallScenario(users: [200, 20_000], runs: 2, days: 10, sample: 200)
        var marked = plain
        marked.calendar.dayKinds = [DayKind(name: "weekend", weekdays: [.saturday, .sunday], factors: DayFactors())]
        marked.calendar.events = [CalendarEvent(name: "final", day: 6, factors: DayFactors())]
        let designs = ["direct", "cache-bgtask", "prebuilt-timeline"].map { n in plain.availableDesigns.first { $0.name == n }! }
        let a = Self.run(plain, designs)
        let b = Self.run(marked, designs)
        for (x, y) in zip(a.results, b.results) {
            #expect(x.totalRequestsPerMonth == y.totalRequestsPerMonth, "\(x.design) at \(x.users)")
            #expect(x.load.peakRequestsPerMinute == y.load.peakRequestsPerMinute, "\(x.design) at \(x.users)")
            #expect(x.freshness.overTargetShare == y.freshness.overTargetShare)
            #expect(x.requiredTier == y.requiredTier)
            #expect(y.events.count == 1)
        }
    }

    @Test("An event that triples app opens raises that day's requests, not the others'")
    func eventDayRaisesItsDay() {
        let plain = TestSupport.smallScenario(users: [500], runs: 2, days: 10, sample: 500)
        var neutral = plain
        neutral.calendar.events = [CalendarEvent(name: "final", day: 6, factors: DayFactors())]
        var busy = plain
        busy.calendar.events = [CalendarEvent(name: "final", day: 6, factors: DayFactors(appOpens: 3))]
        let design = [plain.availableDesigns.first { $0.name == "cache-on-open" }!]
        let before = TestSupport.row(Self.run(neutral, design), "cache-on-open", users: 500)
        let after = TestSupport.row(Self.run(busy, design), "cache-on-open", users: 500)
        let day = before.events[0].requests.mean
        #expect(after.events[0].requests.mean > 1.5 * day, "\(day) → \(after.events[0].requests.mean)")
        // The rest of the month: the extra requests are about those of the day.
        let extra = after.totalRequestsPerMonth.mean - before.totalRequestsPerMonth.mean
        let dayExtra = after.events[0].requests.mean - day
        #expect(abs(extra - dayExtra) < 0.25 * dayExtra, "month +\(extra), day +\(dayExtra)")
    }

    @Test("Silent pushes: force-quit apps and Low Power Mode get none, and the hourly throttle and the daily budget cap the rest")
    func silentPushDelivery() {
        var s = TestSupport.smallScenario(users: [300], runs: 1, days: 7)
        s.platform.silentPushDeliveryShare = 1
        s.platform.silentPushesPerDay = 1_000  // the hourly throttle alone, until the last case
        s.population.forceQuitShare = 0
        s.population.lowPowerDayShare = 0
        s.api.dataChangesPerDay = 1
        let design = Self.pushDesign(.perUser)
        let all = TestSupport.row(Self.run(s, [design]), design.name, users: 300).pushes!
        #expect(all.deliveredShare == 1)
        var quitters = s
        quitters.population.forceQuitShare = 1
        #expect(TestSupport.row(Self.run(quitters, [design]), design.name, users: 300).pushes!.deliveredShare == 0)
        var lowPower = s
        lowPower.population.lowPowerDayShare = 1
        #expect(TestSupport.row(Self.run(lowPower, [design]), design.name, users: 300).pushes!.deliveredShare == 0)
        var flood = s
        flood.api.dataChangesPerDay = 240  // ten an hour against a throttle of three
        let flooded = TestSupport.row(Self.run(flood, [design]), design.name, users: 300).pushes!
        #expect(flooded.deliveredShare < 0.35 && flooded.deliveredShare > 0.25, "\(flooded.deliveredShare)")
        // The app's share of the device's daily budget: 6 of the day's 240 changes, whatever
        // the hourly throttle allows.
        var budgeted = flood
        budgeted.platform.silentPushesPerHour = 100
        budgeted.platform.silentPushesPerDay = 6
        let capped = TestSupport.row(Self.run(budgeted, [design]), design.name, users: 300).pushes!
        #expect(abs(capped.deliveredShare * capped.sentPerUserDay - 6) < 0.1, "\(capped.deliveredShare) of \(capped.sentPerUserDay)")
    }

    @Test("A WidgetKit push reloads the widget once per change, whatever becomes of silent pushes")
    func widgetPushReloads() {
        var s = TestSupport.smallScenario(users: [300], runs: 2, days: 7)
        s.api.dataChangesPerDay = 4
        // One instance, a budget of 40 or more, no Smart Stack: the budget never runs out.
        s.population.multiWidgetShare = 0
        s.population.rarelyViewedShare = 0
        s.population.smartStackShare = 0
        var quiet = DesignPresets.direct
        quiet.name = "never"
        quiet.reloadPolicy = .never
        quiet.reloadCalls = .never
        var pushed = quiet
        pushed.name = "never-widget-push"
        pushed.fetchTriggers = [.getTimeline, .widgetPush]
        let result = Self.run(s, [quiet, pushed])
        let before = TestSupport.row(result, "never", users: 300)
        let after = TestSupport.row(result, "never-widget-push", users: 300)
        let pushes = after.pushes!.widgetPushesPerUserDay
        // A Poisson count of 4 a day over 300 users and 7 days.
        let margin = StandardError.bound * StandardError.ofPoissonRate(4, units: 300 * 7)
        #expect(abs(pushes - 4) < margin, "\(pushes) a day, 4 ± \(margin)")
        // Each push reloads the one instance: getTimeline rises by the pushes.
        let extra = after.getTimelinePerUserDay - before.getTimelinePerUserDay
        #expect(abs(extra - pushes) < 1e-9, "+\(extra) getTimeline a day for \(pushes) pushes")
        // It does not launch the app: force-quit apps and Low Power Mode do not stop it.
        var quitters = s
        quitters.population.forceQuitShare = 1
        quitters.population.lowPowerDayShare = 1
        let unchanged = TestSupport.row(Self.run(quitters, [pushed]), "never-widget-push", users: 300)
        #expect(abs(unchanged.pushes!.widgetPushesPerUserDay - pushes) < 1e-9)
    }

    /// Records the UTC time of each request the app sends.
    struct AppRequests: SimulationObserver {
        var utc: [Double] = []
        mutating func record(_ event: SimulationEvent, local: Double, utc: Double) {
            if case .apiRequest(actor: .app, _, _, _) = event { self.utc.append(utc) }
        }
    }

    @Test("Per-user pushes fall in the day's window of changes, as a key's do, and at its rate")
    func perUserPushesInTheWindow() throws {
        var s = TestSupport.smallScenario(users: [300], runs: 1, days: 14)
        s.api.dataChangesPerDay = 6
        s.population.neverOpenShare = 0
        s.population.appOpensPerDay = 0
        let quiet: [Weekday] = [.monday, .tuesday, .thursday, .friday, .sunday]
        s.calendar.dayKinds = [
            DayKind(name: "match", weekdays: [.wednesday, .saturday], factors: DayFactors(dataChanges: 1, startHourUTC: 18, hours: 3)),
            DayKind(name: "quiet", weekdays: quiet, factors: DayFactors(dataChanges: 0)),
        ]
        let design = Self.pushDesign(.perUser)
        let model = SimulationModel(scenario: s, design: design, run: 0, parameters: .central(s))
        var times = [Double]()
        for user in 0..<40 {
            var sim = UserSimulator(model: model, user: user, observer: AppRequests())
            sim.run()
            times += sim.observer.utc
        }
        // Every request a push starts falls in 18:00–21:00 UTC (a minute's grace for the fetch).
        let outside = times.filter { t in
            let hour =
                (t.truncatingRemainder(dividingBy: .secondsPerDay) + .secondsPerDay).truncatingRemainder(dividingBy: .secondsPerDay)
                / .secondsPerHour
            return hour < 18 || hour > 21 + 1.0 / 60
        }
        #expect(!times.isEmpty && outside.isEmpty, "\(outside.count) of \(times.count) outside the window")
        // The engine's pushes: 6 a match day, on 2 days of 7.
        let result = Self.run(s, [design])
        let sent = try #require(TestSupport.row(result, design.name).pushes).sentPerUserDay
        let expected = 6.0 * 4 / 14
        #expect(abs(sent - expected) < StandardError.bound * StandardError.ofPoissonRate(expected, units: 300 * 14), "\(sent)")
    }
}
