import Testing
import WidgetQuotaModel
import WidgetQuotaSimulation
import WidgetQuotaSupport

@Suite("Run aggregates")
struct RunAggregatesTests {
    static let tier = QuotaTier(name: "t", rpm: 100, tpm: 10_000, rpd: nil, readOn: "", note: "")

    @Test("a run's tier outcome names each exceeded limit and its use; an unpublished limit is never exceeded")
    func tierRunOutcome() {
        let o = TierRunOutcome(tier: Self.tier, peaks: .init(perMinute: 120, perHour: 1e8, quotaDay: 1e9), tokensPerRequest: 50)
        #expect(o.exceedsRequestsPerMinute && !o.exceedsTokensPerMinute && !o.exceedsRequestsPerDay && o.exceedsAnyLimit)
        #expect(!o.exceedsRequestsPerHour && o.requestsPerHourUtilization == nil)
        #expect(o.requestsPerMinuteUtilization == 1.2 && o.tokensPerMinuteUtilization == 0.6 && o.requestsPerDayUtilization == nil)
        var hourly = Self.tier
        hourly.rph = 4_000
        let h = TierRunOutcome(tier: hourly, peaks: .init(perMinute: 10, perHour: 5_000, quotaDay: 0), tokensPerRequest: 50)
        #expect(h.exceedsRequestsPerHour && h.exceedsAnyLimit && !h.exceedsRequestsPerMinute && h.requestsPerHourUtilization == 1.25)
    }

    @Test("over the runs: the share exceeding each limit, and no p95 for a limit the tier does not publish")
    func tierOutcomesAcrossRuns() {
        var runs = TierOutcomesAcrossRuns()
        for peak in [50.0, 150, 90, 300] {
            runs.add(TierRunOutcome(tier: Self.tier, peaks: .init(perMinute: peak, perHour: 0, quotaDay: 0), tokensPerRequest: 50))
        }
        let outcome = runs.outcome(tier: Self.tier)
        #expect(outcome.exceedProbability == 0.5 && outcome.rpmExceedProbability == 0.5)
        #expect(outcome.tpmExceedProbability == 0.25 && outcome.rpdExceedProbability == 0)
        #expect(outcome.rpdUtilizationP95 == nil && outcome.rpmUtilizationP95 != nil)
        #expect(outcome.rphExceedProbability == nil && outcome.rphUtilizationP95 == nil)
        let none = QuotaTier(name: "none", rpm: nil, tpm: nil, rpd: nil, readOn: "", note: "")
        #expect(TierOutcomesAcrossRuns().outcome(tier: none).exceedProbability == 0)
    }

    @Test("requests: exact totals are the sample's sum, projected ones scale its mean")
    func requestsAcrossRuns() {
        let counts = CountHistogram([2, 4, 6])
        var exact = RequestsAcrossRuns(users: 3, exact: true)
        var projected = RequestsAcrossRuns(users: 300, exact: false)
        #expect(exact.add(counts) == 12)
        #expect(projected.add(counts) == 1_200)
        #expect(exact.perUser.count == 3 && projected.totalPerRun == [1_200])
    }

    @Test("tally ratios are 0 over nothing")
    func ratios() {
        var tally = UserTally()
        #expect(tally.perUserDay(\.fetches) == 0)
        tally.userDays = 4
        tally.fetches = 10
        tally.failedFetches = 3
        #expect(tally.perUserDay(\.fetches) == 2.5 && tally.successfulFetches == 7)
        #expect(UserTally.ratio(1, 0) == 0)
    }
}
