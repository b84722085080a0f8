import Foundation
import Testing
import WidgetQuotaModel
import WidgetQuotaSimulation
import WidgetQuotaSimulationTestSupport
import WidgetQuotaSupport
import WidgetQuotaTestSupport

/// How the projection must respond when an assumption moves: the model's invariants.
@Suite("behaviour") struct BehaviourTests {
    @Test("totals grow linearly with users") func totalsGrowLinearlyWithUsers() {
        let s = TestSupport.smallScenario(users: [100, 400, 4_000], runs: 2, days: 10, sample: 400)
        let result = TestSupport.run(s, designs: ["direct", "cache-bgtask"])
        for design in ["direct", "cache-bgtask"] {
            let small = TestSupport.row(result, design, users: 100).totalRequestsPerMonth.mean
            let medium = TestSupport.row(result, design, users: 400).totalRequestsPerMonth.mean
            let large = TestSupport.row(result, design, users: 4_000).totalRequestsPerMonth.mean
            #expect(medium > small && large > medium)
            // Exact populations are nested samples: 4× the users, about 4× the requests.
            #expect(abs(medium / small - 4) < 0.6, "\(design): \(medium) / \(small)")
            // Projected populations scale the sample exactly.
            #expect(abs(large / medium - 10) < 1e-9, "\(design): \(large) / \(medium)")
        }
    }

    /// A rotation into view runs a due policy reload at once instead of its lateness later:
    /// a widget that fetches in getTimeline sends more requests; one that reads a cache, none more.
    @Test("smart stack raises direct requests only") func smartStackRaisesDirectRequestsOnly() {
        var few = TestSupport.smallScenario()
        few.population.smartStackShare = 0.0
        few.population.smartStackRotationsPerDay = 48
        few.platform.policyLatenessMinutes = 30
        var many = few
        many.population.smartStackShare = 0.9
        let designs = ["direct", "cache-on-open", "cache-bgtask"]
        let a = TestSupport.run(few, designs: designs)
        let b = TestSupport.run(many, designs: designs)
        let directFew = TestSupport.row(a, "direct").requestsPerUserMonth.mean
        let directMany = TestSupport.row(b, "direct").requestsPerUserMonth.mean
        #expect(directMany > directFew * 1.05, "direct: \(directFew) → \(directMany)")
        for design in ["cache-on-open", "cache-bgtask"] {
            // The same users open the app and run background tasks at the same moments.
            #expect(TestSupport.row(a, design).totalRequestsPerMonth == TestSupport.row(b, design).totalRequestsPerMonth)
        }
    }

    @Test("low power mode suppresses background fetches") func lowPowerModeSuppressesBackgroundFetches() {
        var rare = TestSupport.smallScenario()
        rare.population.lowPowerDayShare = 0.0
        var often = rare
        often.population.lowPowerDayShare = 0.6
        let a = TestSupport.row(TestSupport.run(rare, designs: ["cache-bgtask"]), "cache-bgtask")
        let b = TestSupport.row(TestSupport.run(often, designs: ["cache-bgtask"]), "cache-bgtask")
        #expect(
            b.backgroundRunsPerUserDay < a.backgroundRunsPerUserDay * 0.7,
            "\(a.backgroundRunsPerUserDay) → \(b.backgroundRunsPerUserDay)")
        #expect(b.requestShares.background * b.requestsPerUserDay < a.requestShares.background * a.requestsPerUserDay)
    }

    @Test("longer TTL means fewer cache fetches", arguments: ["cache-on-open", "cache-bgtask"])
    func longerTTLMeansFewerCacheFetches(design: String) {
        func requests(ttl: Double) -> Double {
            var s = TestSupport.smallScenario()
            var d = DesignPresets.named(design)!
            d.cacheTTLMinutes = ttl
            s.designs = [d]
            return TestSupport.row(TestSupport.run(s, designs: [design]), design).requestsPerUserMonth.mean
        }
        let short = requests(ttl: 15)
        let medium = requests(ttl: 60)
        let long = requests(ttl: 480)
        #expect(short > medium && medium > long, "\(short) > \(medium) > \(long)")
    }

    @Test("reload budget caps get timeline") func reloadBudgetCapsGetTimeline() {
        var s = TestSupport.smallScenario(users: [100])
        s.platform.systemReloadsPerDay = 400
        s.platform.foregroundReloadsExempt = false
        s.population.multiWidgetShare = 0
        s.population.rarelyViewedShare = 0
        let r = TestSupport.row(TestSupport.run(s, designs: ["direct"]), "direct")
        #expect(r.getTimelinePerUserDay <= Double(s.platform.reloadBudgetMax))
        #expect(r.getTimelinePerUserDay >= Double(s.platform.reloadBudgetMin))
        #expect(r.budgetExhaustedDayShare > 0.9)
    }

    @Test("foreground reloads do not spend the budget") func foregroundReloadsDoNotSpendTheBudget() {
        var s = TestSupport.smallScenario(users: [100])
        s.platform.systemReloadsPerDay = 400
        s.population.appOpensPerDay = 20
        s.population.neverOpenShare = 0
        s.population.foregroundMinutes = 20
        var exempt = s
        exempt.platform.foregroundReloadsExempt = true
        s.platform.foregroundReloadsExempt = false
        let counted = TestSupport.row(TestSupport.run(s, designs: ["direct"]), "direct")
        let free = TestSupport.row(TestSupport.run(exempt, designs: ["direct"]), "direct")
        #expect(free.getTimelinePerUserDay > counted.getTimelinePerUserDay)
    }

    /// The app's reload after its own foreground fetch lands seconds after the open (the fetch's
    /// latency), still inside the session: WidgetKit does not charge it to the budget.
    @Test("the apps reload after its foreground fetch is exempt", arguments: [0.5, 1.5, 8.0])
    func theAppsReloadAfterItsForegroundFetchIsExempt(latencySeconds: Double) {
        var s = TestSupport.smallScenario(users: [30])
        s.api.latencySeconds = latencySeconds
        s.api.failureProbability = 0
        s.population.appOpensPerDay = 6
        s.population.neverOpenShare = 0
        let design = DesignPresets.cacheOnOpen
        var checked = 0
        for user in 0..<30 {
            let model = SimulationModel(scenario: s, design: design, run: 0, parameters: .central(s))
            var sim = UserSimulator(model: model, user: user, observer: EventLog())
            sim.run()
            var openedAt = -Double.infinity
            for (t, event) in sim.observer.events {
                if case .appForeground = event { openedAt = t }
                if case .getTimeline(_, .reloadCall, let exempt) = event, t - openedAt < 60 {
                    #expect(exempt, "user \(user): a reload \(t - openedAt) s after the app opened was charged")
                    checked += 1
                }
            }
        }
        #expect(checked > 50)
    }

    /// Every event with its local time.
    struct EventLog: SimulationObserver {
        var events: [(Double, SimulationEvent)] = []
        mutating func record(_ event: SimulationEvent, local: Double, utc: Double) { events.append((local, event)) }
    }

    /// A design's figures are its own: the same whether it is simulated alone, with others, or
    /// at another place in the list (random streams are keyed by user, never by design).
    @Test("a designs results do not depend on the other designs") func aDesignsResultsDoNotDependOnTheOtherDesigns() throws {
        var s = TestSupport.smallScenario(users: [40, 5_000], runs: 2, days: 7, sample: 40)
        s.api.outages = [Outage(day: 3, startHourUTC: 10, durationHours: 2, errorRate: 0.9)]
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        func result(_ designs: [String]) throws -> String {
            let r = TestSupport.run(s, designs: designs, threads: 1)
            let rows = r.results.filter { $0.design == "poll-30m-jittered" }
            return String(decoding: try encoder.encode(rows.map(\.requestsPerUserMonth)), as: UTF8.self)
                + String(decoding: try encoder.encode(rows.map(\.load)), as: UTF8.self)
                + String(decoding: try encoder.encode(rows.map(\.freshness)), as: UTF8.self)
        }
        let alone = try result(["poll-30m-jittered"])
        #expect(try result(["direct", "poll-30m-jittered"]) == alone)
        #expect(try result(["poll-30m-jittered", "cache-bgtask", "direct-poll-15m"]) == alone)
    }

    @Test("output does not depend on thread count") func outputDoesNotDependOnThreadCount() throws {
        var s = TestSupport.smallScenario(users: [1, 50, 500], runs: 3, days: 7, sample: 50)
        s.api.outages = [Outage(day: 3, startHourUTC: 10, durationHours: 2, errorRate: 0.9)]
        // 1 thread: every design of a run in one task; 2 and 4: designs split into 2 and 3 groups
        // that each draw the users' activity themselves.
        let designs = ["direct", "cache-bgtask", "poll-30m-aligned"]
        let one = try JSONOutput.encode(TestSupport.run(s, designs: designs, threads: 1))
        let two = try JSONOutput.encode(TestSupport.run(s, designs: designs, threads: 2))
        let four = try JSONOutput.encode(TestSupport.run(s, designs: designs, threads: 4))
        #expect(one == two && one == four)
    }

    @Test(
        "design groups deal every design once", arguments: [(7, 20, 2), (7, 2, 2), (7, 1, 2), (7, 1, 8), (3, 3, 4), (1, 1, 16), (12, 5, 3)])
    func designGroupsDealEveryDesignOnce(designs: Int, runs: Int, threads: Int) {
        let groups = MonteCarloEngine.designGroups(designs: designs, runs: runs, threads: threads)
        #expect(groups.flatMap { $0 }.sorted() == Array(0..<designs))
        #expect(groups.allSatisfy { !$0.isEmpty })
        // Enough tasks for two per thread when designs allow; one group when runs alone do.
        #expect(runs * groups.count >= min(2 * threads, runs * designs))
        if runs >= 2 * threads { #expect(groups.count == 1) }
        #expect(groups.map(\.count).max()! - groups.map(\.count).min()! <= 1)
        // A memory cap on designs per group splits further, never below one design a group.
        let capped = MonteCarloEngine.designGroups(designs: designs, runs: runs, threads: threads, maxPerGroup: 2)
        #expect(capped.allSatisfy { $0.count <= 2 } && capped.flatMap { $0 }.sorted() == Array(0..<designs))
    }

    /// The projection scales a small sample to a population ten times larger without inflating
    /// the busiest minute: noise in the sample's minutes (during an outage most of all, and from
    /// devices that repeat their minutes every day) must not be multiplied into a false peak.
    /// Six runs: for cache-bgtask the storm is the busiest of some 60 minutes holding about 16
    /// requests each, so one run's ratio, exact or projected, varies by ±0.15 on its own.
    /// An aligned poll's stampede during the outage must not be flattened either.
    @Test("projected peaks are not inflated by sample noise", arguments: ["cache-bgtask", "direct-poll-15m", "poll-30m-aligned"])
    func projectedPeaksAreNotInflatedBySampleNoise(design: String) throws {
        var s = TestSupport.smallScenario(users: [4_000], runs: 6, days: 14, sample: 4_000)
        s.api.outages = [Outage(day: 6, startHourUTC: 14, durationHours: 2, errorRate: 1)]
        let exact = TestSupport.row(TestSupport.run(s, designs: [design]), design)
        s.horizon.sampleUsers = 400
        let projected = TestSupport.row(TestSupport.run(s, designs: [design]), design)
        #expect(projected.method == "projected")
        let peak = projected.load.peakRequestsPerMinute.mean / exact.load.peakRequestsPerMinute.mean
        #expect(abs(peak - 1) < 0.15, "projected peak is \(peak)× the exact one")
        let storm = try #require(projected.outage?.stormRatio)
        let exactStorm = try #require(exact.outage?.stormRatio)
        #expect(abs(storm - exactStorm) < 0.25, "storm ratio \(storm) against \(exactStorm)")
    }

    /// With several outages, the storm is the hour after the earliest one, whatever order the
    /// scenario lists them in, and no outage's day serves as an ordinary day to compare it with.
    @Test("storm follows the earliest outage and skips every outage day") func stormFollowsTheEarliestOutageAndSkipsEveryOutageDay() throws
    {
        var s = TestSupport.smallScenario(users: [300], runs: 1, days: 14)
        let early = Outage(day: 4, startHourUTC: 6, durationHours: 2, errorRate: 1)
        let late = Outage(day: 10, startHourUTC: 15, durationHours: 3, errorRate: 1)
        s.api.outages = [late, early]
        let design = s.availableDesigns.first { $0.name == "direct" }!
        let model = SimulationModel(scenario: s, design: design, run: 0, parameters: RunParameters.central(s))
        let window = try #require(LoadSummary.stormWindow(model))
        #expect(window.start == 3 * 1_440 + 8 * 60, "the hour after day 4's outage, 08:00 UTC")
        #expect(window.days.contains(3) && window.days.contains(9), "days \(window.days)")

        let listed = TestSupport.row(TestSupport.run(s, designs: ["direct"]), "direct")
        s.api.outages = [early, late]
        let sorted = TestSupport.row(TestSupport.run(s, designs: ["direct"]), "direct")
        let a = try #require(listed.outage)
        let b = try #require(sorted.outage)
        #expect(a.stormRatio == b.stormRatio && a.usualPeakPerMinute == b.usualPeakPerMinute)
        #expect(a.peakAfterOutagePerMinute.mean == b.peakAfterOutagePerMinute.mean)
        #expect(a.extraRequestsPerMonth == b.extraRequestsPerMonth)
    }

    /// During an outage, an aligned poll's :00 and :30 minutes are projected from their own
    /// change (+15% here), not flattened to their quiet neighbours' excess; the quiet minutes
    /// keep theirs. (At 2,000 users projected to 20,000 the stampede came out 13% low.)
    @Test("a stampede during an outage keeps its own change") func aStampedeDuringAnOutageKeepsItsOwnChange() throws {
        var s = TestSupport.smallScenario(users: [1_000], runs: 1, days: 14)
        s.api.outages = [Outage(day: 6, startHourUTC: 14, durationHours: 2, errorRate: 1)]
        let design = s.availableDesigns.first { $0.name == "poll-30m-aligned" }!
        let model = SimulationModel(scenario: s, design: design, run: 0, parameters: RunParameters.central(s))
        let disturbed = LoadProjection.disturbedMinutes(model: model)
        let sample = (0..<model.countedMinutes).map { t -> Int32 in
            let boundary = t % 30 == 0
            if disturbed[t] { return boundary ? 630 : 25 }
            return boundary ? 550 : 15
        }
        let projection = LoadProjection(sample: sample, sampleUsers: 1_000, model: model)
        let boundary = try #require((0..<model.countedMinutes).first { disturbed[$0] && $0 % 30 == 0 })
        let quiet = boundary + 10
        #expect(abs(projection.perUserMean[boundary] / 0.63 - 1) < 0.03, "\(projection.perUserMean[boundary]) per user at a boundary")
        #expect(abs(projection.perUserMean[quiet] / 0.025 - 1) < 0.03, "\(projection.perUserMean[quiet]) per user between")
    }

    /// Outages can cut a stretch down to one :00 minute, with no quiet minute beside it.
    @Test("a stretch of stampede minutes only is projected") func aStretchOfStampedeMinutesOnlyIsProjected() {
        var s = TestSupport.smallScenario(users: [1_000], runs: 1, days: 14)
        s.api.outages = [
            Outage(day: 6, startHourUTC: 13.5, durationHours: 0.5, errorRate: 1),
            Outage(day: 6, startHourUTC: 14 + 1.0 / 60, durationHours: 1, errorRate: 1),
        ]
        let design = s.availableDesigns.first { $0.name == "poll-30m-aligned" }!
        let model = SimulationModel(scenario: s, design: design, run: 0, parameters: RunParameters.central(s))
        let sample = (0..<model.countedMinutes).map { t -> Int32 in t % 30 == 0 ? 550 : 15 }
        let projection = LoadProjection(sample: sample, sampleUsers: 1_000, model: model)
        #expect(projection.perUserMean.allSatisfy { $0.isFinite && $0 >= 0 })
    }

    @Test("projection agrees with full simulation") func projectionAgreesWithFullSimulation() {
        var s = TestSupport.smallScenario(users: [1_200], runs: 2, days: 7)
        s.horizon.sampleUsers = 1_200
        let full = TestSupport.row(TestSupport.run(s, designs: ["direct"]), "direct")
        s.horizon.sampleUsers = 300
        let projected = TestSupport.row(TestSupport.run(s, designs: ["direct"]), "direct")
        #expect(full.method == "exact" && projected.method == "projected")
        // Totals: within four standard errors of the difference of two means, 1,200 users × 2 runs
        // simulated against 300 × 2 (a bound that holds even if the two samples were independent).
        let perUser = [(full, 1_200 * 2), (projected, 300 * 2)].map { StandardError.ofMean($0.requestsPerUserMonth, count: $1) }
        let margin = StandardError.bound * (perUser[0] * perUser[0] + perUser[1] * perUser[1]).squareRoot() * 1_200
        let totalError = abs(projected.totalRequestsPerMonth.mean - full.totalRequestsPerMonth.mean)
        #expect(totalError < margin, "totals differ by \(totalError) (± \(margin))")
        let peakError = abs(projected.load.peakRequestsPerMinute.mean / full.load.peakRequestsPerMinute.mean - 1)
        #expect(peakError < 0.30, "peak requests per minute differ by \(peakError)")
        let dayError = abs(projected.load.peakRequestsPerQuotaDay.mean / full.load.peakRequestsPerQuotaDay.mean - 1)
        #expect(dayError < 0.10, "busiest quota day differs by \(dayError)")
    }
}

/// BGAppRefreshTask runs as often as the scenario says, whatever the day's shape.
@Suite("background runs") struct BackgroundRunsTests {
    /// A flat day needs no correction: the mean cycle is the interval plus 24 h ÷ rate.
    @Test("a flat day gives the textbook cycle", arguments: [0.5, 2.0, 6.0])
    func aFlatDayGivesTheTextbookCycle(rate: Double) {
        let flat = DayShape(weights: Array(repeating: 1, count: 24))
        let cycle = BackgroundCalibration.meanCycleHours(rate: rate, shape: flat, intervalHours: 4)
        #expect(abs(cycle - (4 + 24 / rate)) < 1e-9 * cycle)
    }

    /// Devices get `platform.backgroundRunsPerDay` launches a day on average (without Low Power
    /// Mode, among users iOS launches the app for), although the launch process follows the
    /// hours of app use: its rate is calibrated so that the shape moves when launches happen,
    /// not how many.
    @Test("launches per day match the knob", arguments: [(1.0, 4.0), (2.0, 4.0), (3.0, 4.0), (20.0, 0.0), (6.0, 1.2)])
    func launchesPerDayMatchTheKnob(runsPerDay: Double, intervalHours: Double) {
        var s = TestSupport.smallScenario(users: [500], runs: 1, days: 20)
        s.platform.backgroundRunsPerDay = .fixed(runsPerDay)
        s.platform.backgroundEarliestBeginHours = intervalHours
        s.population.lowPowerDayShare = .fixed(0)
        s.population.neverOpenShare = .fixed(0)
        s.population.forceQuitShare = 0
        s.population.backgroundRefreshOffShare = .fixed(0)
        let r = TestSupport.row(TestSupport.run(s, designs: ["cache-bgtask"], central: true), "cache-bgtask")
        // Launches are close to a Poisson count over 500 users × 20 days.
        let margin = StandardError.bound * StandardError.ofPoissonRate(runsPerDay, units: 500 * 20)
        #expect(
            abs(r.backgroundRunsPerUserDay - runsPerDay) < margin, "\(r.backgroundRunsPerUserDay) runs a day for \(runsPerDay) ± \(margin)")
    }
}
