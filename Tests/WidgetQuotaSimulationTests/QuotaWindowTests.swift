import Foundation
import Testing
import WidgetQuotaModel
import WidgetQuotaSimulation
import WidgetQuotaSimulationTestSupport
import WidgetQuotaTestSupport

/// Daily limits counted as the provider counts them: calendar days, or any 24 hours.
@Suite("Quota day windows")
struct QuotaWindowTests {
    @Test("The busiest 24 hours hold a burst that a calendar boundary splits")
    func rollingWindowFindsTheBurst() {
        // Two days of minutes: 600 requests in the hour before midnight, 600 in the hour after.
        var series = [Double](repeating: 0, count: 2 * 1_440)
        for m in 1_380..<1_500 { series[m] = 10 }
        let busiest = series.withUnsafeBufferPointer { LoadSummary.busiest24Hours($0) }
        #expect(busiest?.sum == 1_200)
        #expect(busiest.map { $0.start <= 1_380 && $0.start + 1_440 >= 1_500 } == true)
    }

    @Test("OpenAI's tiers count any 24 hours, and the busiest 24 hours are never quieter than the busiest calendar day")
    func rollingNeverBelowCalendar() {
        var rolling = TestSupport.smallScenario(users: [300, 50_000], runs: 2, days: 7, sample: 300)
        rolling.api.model = "gpt-4o-mini"
        rolling = rolling.choosingTiers(prices: .bundled)
        #expect(rolling.quotas.dayWindow == .rolling24h)
        var calendar = rolling
        calendar.quotas.dayWindow = .calendar
        let designs = ["direct", "cache-bgtask"]
        let a = TestSupport.run(rolling, designs: designs)
        let b = TestSupport.run(calendar, designs: designs)
        for (r, c) in zip(a.results, b.results) {
            #expect(r.load.peakRequestsPerQuotaDay.p50 >= c.load.peakRequestsPerQuotaDay.p50, "\(r.design) at \(r.users)")
            // The same simulation: only the daily count differs.
            #expect(r.totalRequestsPerMonth == c.totalRequestsPerMonth)
        }
    }

    /// Within the sample the search for the first breaking population counts any 24 hours too:
    /// its headroom agrees, population by population, with whether each simulated population's
    /// busiest 24 hours break the limit, also where no calendar day does.
    @Test("in the sample, headroom counts any 24 hours as the loads do")
    func headroomInTheSampleCountsAny24Hours() throws {
        let users = Array(stride(from: 50, through: 600, by: 50))
        var s = TestSupport.smallScenario(users: users, runs: 1, days: 7, sample: 600)
        s.quotas.dayWindow = .rolling24h
        s.quotas.tiers = [QuotaTier(name: "probe", rpm: nil, tpm: nil, rpd: 1e12, readOn: "", note: "")]
        let first = TestSupport.run(s, designs: ["direct"])
        // A daily limit that the busiest 24 hours of 300 users break, just.
        let at300 = TestSupport.row(first, "direct", users: 300).load.peakRequestsPerQuotaDay.p50
        s.quotas.tiers[0].rpd = at300 - 0.5
        let result = TestSupport.run(s, designs: ["direct"])
        let headroom = try #require(result.headroom.first { $0.design == "direct" && $0.tier == "probe" })
        let maxUsers = try #require(headroom.maxUsers)
        #expect(maxUsers < 300, "300 users break the limit, so at most \(maxUsers) fit")
        for n in users {
            let breaks = TestSupport.row(result, "direct", users: n).quota[0].exceedProbability == 1
            #expect(breaks == (n > maxUsers), "\(n) users: breaks \(breaks), headroom \(maxUsers)")
        }
    }
}
