import Foundation
import Testing
import WidgetQuotaModel
import WidgetQuotaSimulation
import WidgetQuotaSimulationTestSupport
import WidgetQuotaTestSupport

/// An API billed per request or credit: each population pays for the plan with the lowest bill
/// among those whose limits hold, from the volumes the engine simulated.
@Suite("Plan billing")
struct PlanBillingTests {
    static func plan(_ name: String, fee: Double? = nil, included: Double? = nil, overage: Double? = nil) -> QuotaTier {
        QuotaTier(
            name: name, rpm: nil, tpm: nil, rpd: nil, readOn: "2026-12-04", note: "", monthlyFee: fee, includedPerMonth: included,
            overagePerUnit: overage)
    }

    static func scenario(_ pricing: APIPricing, tiers: [QuotaTier]) -> Scenario {
        var s = TestSupport.smallScenario(users: [200], runs: 2, days: 7)
        s.api.pricing = pricing
        s.quotas.tiers = tiers
        return s
    }

    @Test("The cheapest bill among the plans that can carry the month, fee plus overage on the units billed")
    func cheapestPlan() throws {
        let tiers = [
            Self.plan("Capped", fee: 5, included: 100), Self.plan("Metered", fee: 20, included: 1_000, overage: 0.01),
            Self.plan("Flat", fee: 500),
        ]
        let result = TestSupport.run(Self.scenario(APIPricing(per: .request), tiers: tiers), designs: ["direct"])
        let row = TestSupport.row(result, "direct")
        let cost = try #require(row.cost)
        let units = try #require(cost.unitsPerMonth).mean
        // Every run is far beyond 1,000 requests: each run's Metered bill is linear in its units.
        #expect(units > 5_000)
        let metered = 20 + (units - 1_000) * 0.01
        let expected = min(metered, 500)
        #expect(cost.plan == (metered < 500 ? "Metered" : "Flat"))
        #expect(row.requiredTier == cost.plan)
        #expect(abs(cost.perMonth.mean - expected) <= 1e-9 * expected)
        #expect(cost.planFeePerMonth == (metered < 500 ? 20 : 500))
        #expect(cost.per == "request")
    }

    /// The daily volumes in the output are the ones billed: paying as you go with a free daily
    /// allowance, the month's bill is the sum over the days of the units above the allowance,
    /// times the price; and the days add up to the month.
    /// A plan that includes a volume and bills no overage caps the month as a limit does: the
    /// largest population it holds is the last whose billed month fits, and the tier chance,
    /// the plan chosen and the headroom agree population by population, in the sample and beyond.
    @Test(
        "An included volume without overage caps the month: headroom, tier chance and plan agree", arguments: ["direct", "backend-shared"])
    func includedVolumeCapsTheMonth(design: String) throws {
        let users = Array(stride(from: 50, through: 400, by: 50)) + [1_000, 5_000]
        var s = TestSupport.smallScenario(users: users, runs: 1, days: 7, sample: 400)
        s.api.pricing = APIPricing(per: .request)
        s.content.keys = 400
        s.quotas.tiers = [Self.plan("capped", fee: 0, included: 1e15), Self.plan("big", fee: 10, included: 1e15)]
        let first = TestSupport.run(s, designs: [design])
        let at = TestSupport.row(first, design, users: design == "direct" ? 200 : 1_000)
        let units = try #require(at.cost?.unitsPerMonth?.mean)
        s.quotas.tiers[0].includedPerMonth = units - 0.5
        let result = TestSupport.run(s, designs: [design])
        let headroom = try #require(result.headroom.first { $0.design == design && $0.tier == "capped" })
        let maxUsers = try #require(headroom.maxUsers)
        for n in users {
            let row = TestSupport.row(result, design, users: n)
            let capped = try #require(row.quota.first)
            let breaks = n > maxUsers
            #expect(capped.monthlyVolumeExceedProbability == (breaks ? 1 : 0), "\(design), \(n) users, headroom \(maxUsers)")
            #expect(capped.exceedProbability == capped.monthlyVolumeExceedProbability)
            #expect(row.requiredTier == (breaks ? "big" : "capped"), "\(design), \(n) users, headroom \(maxUsers)")
            #expect(row.quota[1].monthlyVolumeExceedProbability == 0)
        }
        #expect(maxUsers < (design == "direct" ? 200 : 1_000))
    }

    @Test("Only a plan that bills no overage caps the month, and never on a price per token")
    func monthlyCap() {
        let capped = Self.plan("capped", fee: 10, included: 1_000)
        #expect(APIPricing(per: .request).monthlyCap(of: capped) == 1_000)
        #expect(APIPricing(per: .request, pricePerUnit: 0.01).monthlyCap(of: capped) == nil)
        #expect(APIPricing(per: .request).monthlyCap(of: Self.plan("metered", fee: 10, included: 1_000, overage: 0.01)) == nil)
        #expect(APIPricing(per: .request).monthlyCap(of: Self.plan("flat", fee: 10)) == nil)
        #expect(APIPricing().monthlyCap(of: capped) == nil)
    }

    @Test("A per-call API with a free daily allowance bills the sum of each day's calls above it")
    func dailyAllowanceFromDailyVolumes() throws {
        let price = 0.0015
        for allowance in [0.0, 500, 1_000, 5_000] {
            let s = Self.scenario(APIPricing(per: .request, pricePerUnit: price, freePerDay: allowance), tiers: [Self.plan("by-call")])
            let cost = try #require(TestSupport.row(TestSupport.run(s, designs: ["direct"]), "direct").cost)
            let days = try #require(cost.unitsPerDay)
            let above = try #require(cost.unitsAboveFreePerDay)
            #expect(days.count == above.count && days.count >= 7)
            #expect(abs(days.reduce(0, +) - (try #require(cost.unitsPerMonth)).mean) <= 1e-6 * days.reduce(0, +))
            let fromDays = above.reduce(0, +) * price
            #expect(abs(cost.perMonth.mean - fromDays) <= 1e-9 * max(1, fromDays), "allowance \(allowance)")
            // Each day's units above the allowance are at most its units, and none when all are free.
            #expect(zip(days, above).allSatisfy { $1 <= $0 + 1e-9 && $1 >= max(0, $0 - allowance) - 1e-9 })
            if allowance >= (days.max() ?? 0) { #expect(cost.perMonth.mean == 0) }
        }
    }

    @Test("Credits are billed at their number per request, failed requests unbilled")
    func credits() throws {
        let tiers = [Self.plan("Free")]
        let perRequest = TestSupport.row(
            TestSupport.run(Self.scenario(APIPricing(per: .request, pricePerUnit: 0.001), tiers: tiers), designs: ["direct"]), "direct")
        let perCredit = TestSupport.row(
            TestSupport.run(
                Self.scenario(APIPricing(per: .credit, creditsPerRequest: 5, pricePerUnit: 0.001), tiers: tiers), designs: ["direct"]),
            "direct")
        let requests = try #require(perRequest.cost?.unitsPerMonth).mean
        let credits = try #require(perCredit.cost?.unitsPerMonth).mean
        #expect(abs(credits - 5 * requests) <= 1e-9 * credits)
        #expect(requests <= perRequest.totalRequestsPerMonth.mean && requests >= 0.9 * perRequest.totalRequestsPerMonth.mean)
        #expect(abs(try #require(perCredit.cost).perMonth.mean - credits * 0.001) <= 1e-9 * credits)
        #expect(perCredit.cost?.plan == nil, "a tier with no price of its own is paid as you go")
    }

    @Test("A daily allowance as large as any day leaves nothing to pay; none bills every unit")
    func dailyAllowance() throws {
        let tiers = [Self.plan("Free")]
        let generous = TestSupport.row(
            TestSupport.run(
                Self.scenario(APIPricing(per: .request, pricePerUnit: 0.001, freePerDay: 1e9), tiers: tiers), designs: ["direct"]), "direct"
        )
        #expect(generous.cost?.perMonth.mean == 0)
        let none = TestSupport.row(
            TestSupport.run(Self.scenario(APIPricing(per: .request, pricePerUnit: 0.001), tiers: tiers), designs: ["direct"]), "direct")
        let units = try #require(none.cost?.unitsPerMonth).mean
        #expect(abs(try #require(none.cost).perMonth.mean - units * 0.001) <= 1e-9 * units)
    }

    @Test("No plan can carry the month and nothing prices the excess: no tier, and no cost rather than $0")
    func unpriced() {
        let row = TestSupport.row(
            TestSupport.run(
                Self.scenario(APIPricing(per: .request), tiers: [Self.plan("Capped", fee: 5, included: 100)]), designs: ["direct"]),
            "direct")
        #expect(row.requiredTier == nil && row.exceedsEveryTier)
        #expect(row.cost == nil)
    }
}

/// Limits written in credits: a tier of L credits a minute holds exactly when one of L ÷ c
/// requests would, c credits a request.
@Suite("Credit limits")
struct CreditLimitTests {
    static func tiers(_ scale: Double) -> [QuotaTier] {
        [("Small", 2.0), ("Medium", 6.0), ("Large", 40.0)].map { name, rpm in
            QuotaTier(name: name, rpm: rpm * scale, tpm: nil, rpd: nil, readOn: "2026-12-04", note: "", monthlyFee: rpm)
        }
    }

    @Test("Credit limits ÷ credits per request decide as request limits do")
    func creditLimitsAreRequestLimits() {
        var perRequest = TestSupport.smallScenario(users: [200, 2_000], runs: 4, days: 7, sample: 200)
        perRequest.api.pricing = APIPricing(per: .request)
        perRequest.quotas.tiers = CreditLimitTests.tiers(1)
        var perCredit = perRequest
        perCredit.api.pricing = APIPricing(per: .credit, creditsPerRequest: 5)
        perCredit.quotas.tiers = CreditLimitTests.tiers(5)
        let a = TestSupport.run(perRequest, designs: ["direct", "cache-bgtask"])
        let b = TestSupport.run(perCredit, designs: ["direct", "cache-bgtask"])
        for (x, y) in zip(a.results, b.results) {
            #expect(x.requiredTier == y.requiredTier, "\(x.design) at \(x.users)")
            #expect(x.quota.map(\.exceedProbability) == y.quota.map(\.exceedProbability))
            #expect(x.cost?.plan == y.cost?.plan)
        }
        #expect(a.results.map(\.requiredTier) != [String?](repeating: "Small", count: a.results.count), "the tiers must discriminate")
        // The echo keeps the limits as written.
        #expect(b.scenario.quotas.tiers.map(\.rpm) == CreditLimitTests.tiers(5).map(\.rpm))
    }
}
