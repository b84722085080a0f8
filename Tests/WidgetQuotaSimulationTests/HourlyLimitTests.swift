import Foundation
import Testing
import WidgetQuotaModel
import WidgetQuotaSimulation
import WidgetQuotaSimulationTestSupport
import WidgetQuotaTestSupport

/// Hourly limits (a weather API's 5,000 calls an hour) counted on clock hours, in the loads, the
/// chance of breaking a tier and the search for the largest population a tier holds.
@Suite("Hourly limits")
struct HourlyLimitTests {
    @Test("The busiest clock hour counts each hour apart: a burst across the hour is split")
    func clockHours() {
        // 10 requests a minute from 00:30 to 01:30: 300 in each clock hour, though 600 in 60 minutes.
        var series = [Double](repeating: 0, count: 1_440)
        for m in 30..<90 { series[m] = 10 }
        series[1_439] = 7
        #expect(series.withUnsafeBufferPointer { LoadSummary.busiestClockHour($0, from: 0, to: $0.count) } == 300)
        #expect(series.withUnsafeBufferPointer { LoadSummary.busiestClockHour($0, from: 1_380, to: 1_440) } == 7)
    }

    @Test("The busiest hour lies between the busiest minute and sixty of them, and grows with the users")
    func busiestHourIsBounded() {
        let s = TestSupport.smallScenario(users: [100, 400], runs: 3, days: 7, sample: 400)
        let result = TestSupport.run(s, designs: ["direct", "cache-bgtask", "poll-30m-aligned"])
        for r in result.results {
            let hour = r.load.peakRequestsPerHour?.p50 ?? -1
            #expect(hour >= r.load.peakRequestsPerMinute.p50 && hour <= 60 * r.load.peakRequestsPerMinute.p50, "\(r.design) at \(r.users)")
        }
        for design in ["direct", "cache-bgtask"] {
            let small = TestSupport.row(result, design, users: 100).load.peakRequestsPerHour?.mean ?? 0
            let large = TestSupport.row(result, design, users: 400).load.peakRequestsPerHour?.mean ?? 0
            #expect(large > 2 * small, "\(design): \(small) → \(large)")
        }
    }

    /// Within the sample and beyond it, the largest population a tier holds agrees, population by
    /// population, with whether each population's busiest clock hour breaks the hourly limit.
    @Test("Headroom under an hourly limit agrees with the loads")
    func headroomAgreesWithLoads() throws {
        let users = Array(stride(from: 50, through: 600, by: 50)) + [2_000, 4_000]
        var s = TestSupport.smallScenario(users: users, runs: 1, days: 7, sample: 600)
        s.quotas.tiers = [QuotaTier(name: "probe", rpm: nil, tpm: nil, rph: 1e12, rpd: nil, readOn: "", note: "")]
        let first = TestSupport.run(s, designs: ["direct"])
        let at300 = try #require(TestSupport.row(first, "direct", users: 300).load.peakRequestsPerHour?.p50)
        s.quotas.tiers[0].rph = at300 - 0.5
        let result = TestSupport.run(s, designs: ["direct"])
        let headroom = try #require(result.headroom.first { $0.design == "direct" && $0.tier == "probe" })
        let maxUsers = try #require(headroom.maxUsers)
        #expect(maxUsers < 300, "300 users break the limit, so at most \(maxUsers) fit")
        for n in users {
            let row = TestSupport.row(result, "direct", users: n)
            let quota = try #require(row.quota.first)
            #expect(quota.rphExceedProbability == quota.exceedProbability)
            #expect((quota.exceedProbability == 1) == (n > maxUsers), "\(n) users, headroom \(maxUsers)")
            #expect(row.requiredTier == (n > maxUsers ? nil : "probe"))
        }
    }

    @Test("A tier without an hourly limit reports no hourly chance; the same limit in credits scales by the credits a request costs")
    func creditsAndAbsence() {
        var s = TestSupport.smallScenario(users: [200], runs: 2, days: 7)
        s.quotas.tiers = [
            QuotaTier(name: "hourly", rpm: nil, tpm: nil, rph: 100, rpd: nil, readOn: "", note: ""),
            QuotaTier(name: "none", rpm: nil, tpm: nil, rpd: nil, readOn: "", note: ""),
        ]
        s.api.pricing = APIPricing(per: .credit, creditsPerRequest: 4, pricePerUnit: 0.001)
        let design = s.availableDesigns.first { $0.name == "direct" }!
        #expect(s.limitsInRequests(for: design).quotas.tiers[0].rph == 25)
        let r = TestSupport.row(TestSupport.run(s, designs: ["direct"]), "direct")
        #expect(r.quota[0].rphExceedProbability != nil && r.quota[1].rphExceedProbability == nil)
        #expect(r.quota[1].rphUtilizationP95 == nil)
    }
}

extension HourlyLimitTests {
    /// A match day's hour, held against an hourly limit: a limit below that day's busiest hour in
    /// every run needs the next tier that day; one above it in every run does not.
    @Test("An event day's tier holds its busiest clock hour against the hourly limit")
    func eventDayHour() throws {
        var s = TestSupport.smallScenario(users: [400], runs: 3, days: 10, sample: 400)
        s.calendar.events = [CalendarEvent(name: "final", day: 6, factors: DayFactors(appOpens: 3))]
        s.quotas.tiers = [
            QuotaTier(name: "hourly", rpm: nil, tpm: nil, rph: 1e12, rpd: nil, readOn: "", note: ""),
            QuotaTier(name: "big", rpm: nil, tpm: nil, rpd: nil, readOn: "", note: ""),
        ]
        let first = try #require(TestSupport.row(TestSupport.run(s, designs: ["cache-on-open"]), "cache-on-open").events.first)
        let hour = try #require(first.peakRequestsPerHour)
        #expect(hour.p5 > 0 && hour.p95 <= first.requests.p95)
        s.quotas.tiers[0].rph = hour.p5 / 2
        let tight = try #require(TestSupport.row(TestSupport.run(s, designs: ["cache-on-open"]), "cache-on-open").events.first)
        #expect(tight.requiredTier == "big")
        s.quotas.tiers[0].rph = hour.p99 * 2
        let loose = try #require(TestSupport.row(TestSupport.run(s, designs: ["cache-on-open"]), "cache-on-open").events.first)
        #expect(loose.requiredTier == "hourly")
    }
}
