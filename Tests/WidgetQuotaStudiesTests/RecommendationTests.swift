import Foundation
import Testing
import WidgetQuotaModel
import WidgetQuotaSimulation
import WidgetQuotaSimulationTestSupport
import WidgetQuotaStudies
import WidgetQuotaSupport
import WidgetQuotaTestSupport

/// The recommendation: the cheapest design within both limits, the changes it simulates, and each
/// "wasteful or broken" flag on a case built to trigger it.
@Suite("Recommendation") struct RecommendationTests {
    static func spread(_ mean: Double) -> RunSpread { RunSpread(mean: mean, p5: mean, p50: mean, p95: mean, p99: mean) }

    /// A row of `design` at `users` with its tier, mean cost a month and over-target share set by hand.
    static func row(_ design: String, users: Int = 1_000, tier: String?, cost: Double, stale: Double) -> DesignResult {
        var r = ReportFixtures.result.results[0]
        r.design = design
        r.users = users
        r.requiredTier = tier
        r.exceedsEveryTier = tier == nil
        r.cost = .init(
            model: "m", inputCostPerToken: 0, outputCostPerToken: 0, perMonth: spread(cost), perUserMonth: cost / Double(users),
            priceSource: "test")
        r.totalRequestsPerMonth = spread(cost * 1_000)
        r.freshness.overTargetShare = stale
        return r
    }

    /// Four designs at 1,000 users on the Gemini tiers: a is cheap but stale, b and d are within
    /// tier2 and 25%, c is the cheapest and freshest but needs tier3; e needs more than every tier.
    static var result: SimulationResult {
        var r = ReportFixtures.result
        r.scenario.quotas.tiers = QuotaTier.gemini
        r.results = [
            row("a", tier: "tier1", cost: 10, stale: 0.5),
            row("b", tier: "tier2", cost: 20, stale: 0.1),
            row("c", tier: "tier3", cost: 5, stale: 0.05),
            row("d", tier: "tier1", cost: 30, stale: 0.2),
            row("e", tier: nil, cost: 1, stale: 0.01),
        ]
        r.method.designs = ["a", "b", "c", "d", "e"]
        return r
    }

    static func choice(maxTier: String?, maxStale: Double) throws -> Recommendation.Choice {
        try #require(
            RecommendationStudy.choices(
                result: result, designs: ["a", "b", "c", "d", "e"], targets: Targets(maxTier: maxTier, maxStaleShare: maxStale)
            ).first)
    }

    @Test("The cheapest design within both the tier and the staleness limit is named, the others within both after it")
    func cheapestWithinBoth() throws {
        let tier2 = try Self.choice(maxTier: "tier2", maxStale: 0.25)
        #expect(tier2.design == "b")
        #expect(tier2.meetingBoth == ["b", "d"])
        #expect(try Self.choice(maxTier: "tier3", maxStale: 0.25).design == "c")
        #expect(try Self.choice(maxTier: nil, maxStale: 0.25).design == "c")
        #expect(try Self.choice(maxTier: "tier1", maxStale: 0.25).design == "d")
        #expect(try Self.choice(maxTier: "tier3", maxStale: 0.6).design == "c")
        #expect(try Self.choice(maxTier: "tier1", maxStale: 0.6).design == "a")
    }

    @Test("When no design is within both, the freshest within the tier and the cheapest within the staleness limit are named")
    func noneWithinBoth() throws {
        let none = try Self.choice(maxTier: "tier2", maxStale: 0.06)
        #expect(none.design == nil && none.meetingBoth.isEmpty)
        #expect(none.freshestWithinTier == "b")
        // e is the cheapest and the freshest, but no published tier is enough for it.
        #expect(none.cheapestWithinStaleness == "e")
        let freeOnly = try Self.choice(maxTier: "free", maxStale: 0.005)
        #expect(freeOnly.freshestWithinTier == nil && freeOnly.cheapestWithinStaleness == nil)
    }

    /// A budget is a third limit: no design over it is proposed, and one within tier and
    /// staleness but over it is named as such; a budget every design meets changes nothing.
    @Test("A design over the budget is never the choice; the one it excludes is named; an ample budget changes nothing")
    func budget() throws {
        func choice(_ budget: Double?) throws -> Recommendation.Choice {
            try #require(
                RecommendationStudy.choices(
                    result: Self.result, designs: ["a", "b", "c", "d", "e"],
                    targets: Targets(maxTier: "tier2", maxStaleShare: 0.25, maxCostPerMonth: budget)
                ).first)
        }
        let none = try choice(nil)
        #expect(none.design == "b" && none.overBudget.isEmpty)
        #expect(try choice(1_000) == none, "a budget every design meets changes nothing")
        let tight = try choice(25)
        #expect(tight.design == "b" && tight.meetingBoth == ["b"] && tight.overBudget == ["d"])
        let below = try choice(15)
        #expect(below.design == nil && below.meetingBoth.isEmpty && below.overBudget == ["b", "d"])
        let figures = RecommendationStudy.figures(
            Self.result.results[1], targets: Targets(maxTier: "tier2", maxCostPerMonth: 15), tiers: QuotaTier.gemini)
        #expect(!figures.meetsTargets && !figures.withinBudget)
    }

    // MARK: Flags

    /// A design and a row that raise no flag: background every 8 h achieved twice a day, a policy
    /// as long as the TTL, one reload call per fetch, no retries.
    static var quiet: (design: Design, row: DesignResult, scenario: Scenario) {
        var d = Design(name: "quiet")
        d.fetchTriggers = [.appForeground, .backgroundTask]
        d.cacheTTLMinutes = 60
        d.reloadPolicy = .after(minutes: 60)
        d.backgroundIntervalHours = 8
        var r = row("quiet", tier: "tier1", cost: 1, stale: 0.1)
        r.budgetExhaustedDayShare = 0.1
        r.backgroundRunsPerUserDay = 2
        r.reloadCallsPerSuccessfulFetch = 1
        r.retriesPerUserDay = 0
        r.requestsPerUserDay = 4
        r.outage = .init(
            extraRequestsPerUserMonth: 30, extraRequestsPerMonth: 30_000, peakAfterOutagePerMinute: spread(50), usualPeakPerMinute: 10,
            stormRatio: 5)
        var s = Scenario()
        s.api.outages = [Outage(day: 5, startHourUTC: 15, durationHours: 3, errorRate: 0.95)]
        return (d, r, s)
    }

    static func kinds(_ c: (design: Design, row: DesignResult, scenario: Scenario)) -> [String] {
        RecommendationStudy.flags(design: c.design, row: c.row, scenario: c.scenario).map(\.kind)
    }

    @Test("Nothing is flagged on a design built to be sound")
    func quietCase() { #expect(Self.kinds(Self.quiet).isEmpty) }

    @Test("The reload budget spent on more than a fifth of instance-days is flagged")
    func budgetFlag() {
        var c = Self.quiet
        c.row.budgetExhaustedDayShare = 0.2
        #expect(Self.kinds(c).isEmpty)
        c.row.budgetExhaustedDayShare = 0.83
        #expect(Self.kinds(c) == ["reloadBudget"])
        #expect(RecommendationStudy.flags(design: c.design, row: c.row, scenario: c.scenario)[0].message.contains("83%"))
    }

    @Test("Background refresh achieved far below what the interval asks is flagged, and an interval iOS will not honour named")
    func backgroundFlag() throws {
        var c = Self.quiet
        c.row.backgroundRunsPerUserDay = 1.4
        #expect(Self.kinds(c) == ["backgroundShortfall"])
        #expect(!RecommendationStudy.flags(design: c.design, row: c.row, scenario: c.scenario)[0].message.contains("buys nothing"))
        c.design.backgroundIntervalHours = 2
        c.row.backgroundRunsPerUserDay = 1.7
        let flag = try #require(RecommendationStudy.flags(design: c.design, row: c.row, scenario: c.scenario).first)
        #expect(flag.kind == "backgroundShortfall" && flag.limit == 6)
        #expect(flag.message.contains("1.70 times a user-day against the 12.0 an interval of 2 h asks"))
        #expect(flag.message.contains("an interval under 4 h buys nothing"))
        c.design.fetchTriggers = [.appForeground]
        #expect(Self.kinds(c).isEmpty)
    }

    @Test("A reload policy much shorter than the TTL is flagged")
    func policyFlag() {
        var c = Self.quiet
        c.design.cacheTTLMinutes = 45
        c.design.reloadPolicy = .after(minutes: 40)
        #expect(Self.kinds(c).isEmpty)
        c.design.reloadPolicy = .after(minutes: 30)
        #expect(Self.kinds(c) == ["policyShorterThanTTL"])
        c.design.cacheTTLMinutes = nil
        #expect(Self.kinds(c).isEmpty)
    }

    @Test("Reload calls per successful fetch above one are flagged")
    func reloadCallsFlag() {
        var c = Self.quiet
        c.row.reloadCallsPerSuccessfulFetch = 1.02
        #expect(Self.kinds(c).isEmpty)
        c.row.reloadCallsPerSuccessfulFetch = 2.5
        #expect(Self.kinds(c) == ["reloadCallsPerFetch"])
    }

    @Test("Retries that multiply requests during an outage are flagged")
    func retryFlag() {
        var c = Self.quiet
        c.row.retriesPerUserDay = 0.3
        #expect(Self.kinds(c) == ["retryStorm"])
        c.row.outage?.extraRequestsPerUserMonth = 0.1
        #expect(Self.kinds(c).isEmpty)
        c.row.outage?.extraRequestsPerUserMonth = 30
        c.scenario.api.outages = []
        #expect(Self.kinds(c).isEmpty)
    }

    // MARK: Changes

    @Test("The weather widget's changes: a TTL up to the target, a policy no shorter than the TTL, an interval iOS honours, all together")
    func weatherChanges() throws {
        let weather = DesignFixtures.weather
        let changes = RecommendationStudy.changes(to: weather, scenario: Scenario())
        #expect(changes.map(\.kind) == ["ttl", "policy", "policyNever", "background", "all"])
        let all = try #require(changes.last?.design)
        #expect(all.cacheTTLMinutes == 120 && all.reloadPolicy == .never && all.backgroundIntervalHours == 4)
        #expect(changes[2].design.reloadPolicy == .never && changes[2].design.cacheTTLMinutes == 45)
        #expect(changes[1].design.reloadPolicy == .after(minutes: 45) && changes[1].design.cacheTTLMinutes == 45)
        let stale = RecommendationStudy.changes(to: weather, scenario: Scenario(), staleTooOften: true)
        #expect(stale.map(\.kind) == ["ttl", "policy", "policyNever", "background", "widgetFetches", "all"])
        #expect(stale.last?.design.fetchTriggers.contains(.getTimeline) == true)
        #expect(RecommendationStudy.changes(to: DesignPresets.direct, scenario: Scenario()).isEmpty)
        // A widget that fetches itself keeps its policy: without one it would fetch only when WidgetKit decides.
        var polling = weather
        polling.fetchTriggers = [.getTimeline]
        #expect(!RecommendationStudy.changes(to: polling, scenario: Scenario()).map(\.kind).contains("policyNever"))
    }

    @Test("With open hours, the advice combines parts: stagger the backend, run it in the hours, follow them in the policy")
    func openHoursChanges() throws {
        var s = Scenario()
        s.calendar.startDate = "2027-03-01"
        s.calendar.hours = OpenHours()
        var poller = DesignPresets.backendShared
        poller.backend = BackendGeneration(regenerate: .every(minutes: 5))
        poller.backend?.staggered = false
        poller.reloadPolicy = .after(minutes: 15)
        poller.jitterSeconds = 0
        let changes = RecommendationStudy.changes(to: poller, scenario: s)
        #expect(changes.map(\.kind) == ["stagger", "backendHours", "followHours", "all"])
        let all = try #require(changes.last?.design)
        #expect(all.backend?.staggered == true && all.backend?.onlyWhenOpen == true && all.policyFollowsHours)
        // The policy's jitter is the design's: it delays every reload, not only the opening's.
        #expect(changes[2].design.jitterSeconds == poller.jitterSeconds)
        // Without open hours, only the stagger is advice.
        #expect(RecommendationStudy.changes(to: poller, scenario: Scenario()).map(\.kind) == ["stagger"])
        // A design that already does all of it needs none of it.
        #expect(RecommendationStudy.changes(to: all, scenario: s).isEmpty)
    }

    @Test("Each change is simulated with the same users and seed: unchanged figures match the result, changed ones a direct run")
    func changesAreSimulated() throws {
        var s = TestSupport.smallScenario(users: [60], runs: 2, days: 5)
        s.designs = [DesignFixtures.weather]
        s.baseline = "weather"
        let designs = s.comparedDesigns()
        let result = MonteCarloEngine(scenario: s, designs: designs, threads: 2).run()
        let recommendation = RecommendationStudy(scenario: s, designs: designs).run(result: result, threads: 2)
        #expect(recommendation.ownDesign == "weather")
        let ttl = try #require(recommendation.changes.first { $0.kind == "ttl" })
        let effect = try #require(ttl.effects.first)
        let before = TestSupport.row(result, "weather")
        #expect(effect.before.requestsPerMonth == before.totalRequestsPerMonth.mean)
        var changed = DesignFixtures.weather
        changed.cacheTTLMinutes = 120
        changed.name = "weather+ttl"
        let direct = MonteCarloEngine(scenario: s, designs: [changed], threads: 1).run()
        #expect(effect.after.requestsPerMonth == TestSupport.row(direct, "weather+ttl").totalRequestsPerMonth.mean)
        #expect(effect.after.requestsPerMonth < effect.before.requestsPerMonth)
    }
}

/// The recommendation never decides on an equal or unknown cost without saying so, and then
/// names the design with fewer requests.
@Suite("Recommendation ties")
struct RecommendationTieTests {
    @Test("Two designs on the same flat plan cost the same: the one with fewer requests is named, and why", arguments: [false, true])
    func equalCost(reversed: Bool) throws {
        var s = TestSupport.smallScenario(users: [500], runs: 2, days: 7, sample: 500)
        s.api.pricing = APIPricing(per: .request)
        s.quotas.tiers = [QuotaTier(name: "Flat", rpm: nil, tpm: nil, rpd: nil, readOn: "2026-12-04", note: "", monthlyFee: 100)]
        s.targets.maxStaleShare = 1
        let designs = reversed ? ["cache-bgtask", "direct"] : ["direct", "cache-bgtask"]
        let result = TestSupport.run(s, designs: designs)
        #expect(TestSupport.row(result, "direct").cost?.perMonth.mean == 100)
        #expect(TestSupport.row(result, "cache-bgtask").cost?.perMonth.mean == 100)
        let choice = try #require(RecommendationStudy.choices(result: result, designs: designs, targets: s.targets).first)
        #expect(choice.design == "cache-bgtask", "fewer requests, whatever the order given")
        #expect(choice.decidedBy == "equalCost")
    }

    @Test("With no price, fewer requests decide, and the choice says so")
    func noPrice() throws {
        var s = TestSupport.smallScenario(users: [500], runs: 2, days: 7, sample: 500)
        s.api.pricing = APIPricing(per: .request)
        s.quotas.tiers = [QuotaTier(name: "Any", rpm: nil, tpm: nil, rpd: nil, readOn: "2026-12-04", note: "")]
        s.targets.maxStaleShare = 1
        let result = TestSupport.run(s, designs: ["direct", "cache-bgtask"])
        #expect(TestSupport.row(result, "direct").cost == nil)
        let choice = try #require(
            RecommendationStudy.choices(result: result, designs: ["direct", "cache-bgtask"], targets: s.targets).first)
        #expect(choice.design == "cache-bgtask" && choice.decidedBy == "noPrice")
    }
}
