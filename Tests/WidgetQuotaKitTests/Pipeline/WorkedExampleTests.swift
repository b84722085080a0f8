import Foundation
import Testing
import WidgetQuotaKit
import WidgetQuotaModel
import WidgetQuotaReporting
import WidgetQuotaSimulation
import WidgetQuotaStudies
import WidgetQuotaTestSupport

/// The worked example of a market-data widget (`docs/examples/tickerboard.json`) against the
/// arithmetic `docs/examples/tickerboard.md` does by hand.
@Suite("Worked example: Tickerboard")
struct WorkedExampleTests {
    /// The example's report; with `growth`, over its 12 months of 30% growth from 1,000 users
    /// (not 2,000), so that the widget's plan carries the first months.
    static func report(growth: Bool = false) throws -> SimulationReport {
        var s = try ScenarioLoader.load(path: Fixtures.packageURL("docs/examples/tickerboard.json").path)
        s.horizon.runs = 4
        s.horizon.growth = growth ? .curve(start: 1_000, end: Int((1_000 * pow(1.3, 11)).rounded()), months: 12, curve: .exponential) : nil
        var job = try SimulationJob(scenario: s, threads: 2)
        job.sensitivity = false
        return try job.run()
    }

    /// Followed symbols by hand: Σ over 3,000 symbols of 1 − (1 − share)^(5 N), shares ∝ 1 ÷ rank.
    static func followed(users: Int) -> Double {
        let harmonic = (1...3_000).reduce(0.0) { $0 + 1 / Double($1) }
        return (1...3_000).reduce(0.0) { sum, k in sum + 1 - pow(1 - 1 / Double(k) / harmonic, 5 * Double(users)) }
    }

    @Test("The backend polls each followed symbol 78 times a trading day, 21 trading days; its busiest minute is a fifth of them")
    func backendArithmetic() throws {
        let r = try Self.report().result
        for users in [2_000, 20_000] {
            let row = try #require(r.results.first { $0.design == "backend-poll-5" && $0.users == users })
            let f = Self.followed(users: users)
            // 9:30–16:00 is 390 minutes, every 5 minutes 78 polls; March 2027 to the 30th has 21
            // trading days (22 weekdays, Good Friday closed).
            #expect(abs(row.totalRequestsPerMonth.mean / (f * 78 * 21) - 1) < 0.001)
            #expect(abs(row.load.peakRequestsPerMinute.mean - (f / 5).rounded(.up)) <= 1)
            #expect(row.requiredTier == "pro-1597" && row.cost?.perMonth.mean == 229)
        }
    }

    @Test("With a tenth of the symbols crypto, the backend polls followed stocks 78 times a trading day and followed coins 288 times a day")
    func cryptoArithmetic() throws {
        var s = try ScenarioLoader.load(path: Fixtures.packageURL("docs/examples/tickerboard-crypto.json").path)
        s.horizon.runs = 2
        s.horizon.growth = nil
        var job = try SimulationJob(scenario: s, designs: s.designs.filter { $0.backend != nil }, threads: 2)
        job.sensitivity = false
        job.recommend = false
        let r = try job.run().result
        // The groups interleave through the ranks: the coins are every tenth symbol from rank 6.
        let harmonic = (1...3_000).reduce(0.0) { $0 + 1 / Double($1) }
        for users in [2_000, 20_000] {
            let row = try #require(r.results.first { $0.design == "backend-poll-5" && $0.users == users })
            var stocks = 0.0
            var coins = 0.0
            for k in 1...3_000 {
                let followed = 1 - pow(1 - 1 / Double(k) / harmonic, 5 * Double(users))
                if k % 10 == 6 { coins += followed } else { stocks += followed }
            }
            let expected = stocks * 78 * 21 + coins * 288 * 30
            #expect(abs(row.totalRequestsPerMonth.mean / expected - 1) < 0.001, "\(row.totalRequestsPerMonth.mean) against \(expected)")
            // Each group's keys spread over the 5 minutes: in the session a fifth of both.
            #expect(abs(row.load.peakRequestsPerMinute.mean - ((stocks + coins) / 5).rounded(.up)) <= 1)
        }
    }

    @Test("The widget's five-symbol fetch costs five credits; its placements fetching at the opening outgrow Pro at 2,000 users")
    func directArithmetic() throws {
        let report = try Self.report()
        let r = report.result
        let direct = try #require(r.results.first { $0.design == "widget-direct" && $0.users == 2_000 })
        // Five credits a request, failed requests unbilled (in the growth plan's first month,
        // 1,000 users, which Pro carries).
        let month = try #require(try Self.report(growth: true).growth.first { $0.design == "widget-direct" }?.months.first)
        let ratio = try #require(month.credits) / month.requests
        #expect(ratio > 5 * 0.97 && ratio <= 5, "\(ratio)")
        // Each user's placements (1.45 on average) fetch five credits each within the session's
        // first 10 minutes: 2,000 × 1.45 × 5 ÷ 10 = 1,450 credits a minute before any other reload
        // when WidgetKit runs them on time; its lateness (a mean of 0 to 15 minutes, drawn per
        // run) spreads them. In the runs where it is short, the busiest minute passes Pro's 1,597.
        let peak = direct.load.peakRequestsPerMinute
        #expect(peak.p95 * 5 > 1_597 && peak.p5 * 5 < 1_597, "\(peak) requests a minute")
        #expect(direct.exceedsEveryTier)
        let choice = try #require(report.recommendation?.choices.first { $0.users == 2_000 })
        #expect(choice.design == "backend-poll-5", "\(choice)")
        let atScale = try #require(r.results.first { $0.design == "widget-direct" && $0.users == 20_000 })
        #expect(atScale.exceedsEveryTier)
    }

    @Test("The growth plan bills the months a plan carries and does not call the rest within the budget")
    func growthStopsAtThePlan() throws {
        let report = try Self.report(growth: true)
        let plan = try #require(report.growth.first { $0.design == "widget-direct" })
        // The first month beyond the users pro-1597 holds (from the headroom table) has no plan.
        let holds = try #require(report.result.headroom.first { $0.design == "widget-direct" && $0.tier == "pro-1597" }?.maxUsers)
        let first = try #require(plan.months.first { $0.users > holds }?.month)
        #expect(first > 1)
        #expect(plan.unpricedFromMonth == first, "\(plan.months.map(\.cost))")
        #expect(plan.months.prefix(first - 1).allSatisfy { $0.cost == 229 })
        #expect(plan.months.dropFirst(first - 1).allSatisfy { $0.cost == nil })
        #expect(plan.overBudgetInMonth == nil)
        let backend = try #require(report.growth.first { $0.design == "backend-poll-5" })
        #expect(backend.unpricedFromMonth == nil && backend.months.allSatisfy { $0.cost == 229 })
    }

    @Test("Over the growth plan the backend is chosen: it stays on its $229 plan every month, the widget outgrows it")
    func growthChoice() throws {
        let report = try Self.report(growth: true)
        let choice = try #require(report.recommendation?.overGrowth)
        #expect(choice.months == 12)
        #expect(choice.design == "backend-poll-5" && choice.lastsThePlan)
        let backend = try #require(choice.designs.first { $0.design == "backend-poll-5" })
        #expect(backend.cumulativeCost == 229 * 12 && backend.outgrowsTierInMonth == nil && backend.overBudgetInMonth == nil)
        let direct = try #require(choice.designs.first { $0.design == "widget-direct" })
        let plan = try #require(report.growth.first { $0.design == "widget-direct" })
        #expect(direct.outgrowsTierInMonth == plan.unpricedFromMonth)
        #expect(direct.lastMonthWithin == (plan.unpricedFromMonth ?? 13) - 1)
        #expect(direct.cumulativeCost == 229 * Double(direct.lastMonthWithin))
    }

    @Test("The infeasibility bound states credits beside requests for an API billed per credit")
    func boundInCredits() throws {
        var s = try ScenarioLoader.load(path: Fixtures.packageURL("docs/examples/tickerboard.json").path)
        s.horizon.runs = 2
        s.horizon.growth = nil
        s.targets.maxStaleShare = 0.01
        var job = try SimulationJob(scenario: s, threads: 2)
        job.sensitivity = false
        let report = try job.run()
        let why = try #require(report.recommendation?.choices.first?.infeasibility)
        // Five credits for each request a device's fetch sends; only plans bill, so no cost.
        #expect(why.creditsPerMonthAtBound == why.requestsPerMonthAtBound * 5)
        #expect(why.costPerMonthAtBound == nil)
    }
}
