import Foundation
import Testing
import WidgetQuotaModel
import WidgetQuotaSimulation
import WidgetQuotaSimulationTestSupport
import WidgetQuotaSupport
import WidgetQuotaTestSupport

/// Trading hours: a backend that polls only while the market is open, data that changes only
/// then, and freshness measured over the glances that fall in them.
@Suite("open hours") struct OpenHoursTests {
    /// New York's regular session from Monday 1 March 2027, across the start of daylight saving
    /// time (14 March) and with one holiday.
    static func tradingScenario(users: [Int], days: Int) -> Scenario {
        var s = TestSupport.smallScenario(users: users, runs: 2, days: days, sample: 200)
        s.content.keys = 3_000
        s.content.keysPerUser = 5
        s.calendar.startDate = "2027-03-01"
        s.calendar.hours = OpenHours(holidays: ["2027-03-10"])
        s.calendar.firstWeekday = .monday
        return s
    }

    /// `s` billed as the bundled Twelve Data entry bills: a credit per symbol, flat plans.
    static func onTwelveData(_ s: Scenario) throws -> Scenario {
        var s = s
        let entry = try #require(APICatalogue.entry(named: "twelve-data"))
        s.api.catalogue = entry.name
        s.api.pricing = entry.pricing
        s.quotas.useCatalogue(entry)
        return s
    }

    /// The direct widget asking for a reload every 15 minutes, and the same following the hours.
    static func alwaysAndFollowing() -> (always: Design, following: Design) {
        var always = DesignPresets.direct
        always.name = "direct-always"
        always.reloadPolicy = .after(minutes: 15)
        var following = always
        following.name = "direct-following"
        following.policyFollowsHours = true
        return (always, following)
    }

    static func poller(every minutes: Double) -> Design {
        var d = SharedContentTests.backendDesign(.every(minutes: minutes))
        d.backend?.onlyWhenOpen = true
        return d
    }

    /// Trading days from 1 March 2027 over `days` days, counted here by hand: weekdays but 10 March.
    static func tradingDays(_ days: Int) -> Int {
        // 1 March 2027 is a Monday.
        (0..<days).filter { $0 % 7 < 5 && $0 != 9 }.count
    }

    @Test("A backend polling in trading hours sends followed keys × minutes open × trading days, its busiest minute inside the session")
    func creditsFollowTheSession() {
        let s = Self.tradingScenario(users: [2_000], days: 21)
        let design = Self.poller(every: 1)
        let result = SharedContentTests.run(s, [design])
        let row = TestSupport.row(result, design.name)
        let followed = s.content.followedKeys(users: 2_000)
        let expected = followed * 390 * Double(Self.tradingDays(21))
        // Whole requests minute by minute: within a request a minute of the expected count.
        let month = row.totalRequestsPerMonth.mean * Double(s.horizon.days) / 30
        #expect(
            abs(row.totalRequestsPerMonth.mean / expected - 1) < 0.01 || abs(month / expected - 1) < 0.01,
            "\(row.totalRequestsPerMonth.mean) against \(expected)")
        // The busiest minute of a typical day lies in 13:30–21:00 UTC (the session in EDT and EST).
        let day = result.typicalDay.first { $0.design == design.name }!.requestsPerUserByMinute
        let busiest = day.indices.max { day[$0] < day[$1] }!
        #expect(busiest >= 13 * 60 + 30 && busiest < 21 * 60, "busiest minute \(busiest)")
        // Nothing before 13:30 or from 21:00 UTC.
        #expect(day[0..<(13 * 60 + 30)].allSatisfy { $0 == 0 } && day[(21 * 60)...].allSatisfy { $0 == 0 })
    }

    @Test("A schedule every 2 minutes in trading hours sends half the credits of every minute, and peaks at about half")
    func slowerScheduleHalves() {
        let s = Self.tradingScenario(users: [2_000], days: 7)
        let one = Self.poller(every: 1)
        let two = Self.poller(every: 2)
        let result = SharedContentTests.run(s, [one, two])
        let total = { (d: Design) in TestSupport.row(result, d.name).totalRequestsPerMonth.mean }
        let peak = { (d: Design) in TestSupport.row(result, d.name).load.peakRequestsPerMinute.mean }
        #expect(abs(total(two) / total(one) - 0.5) < 0.01)
        #expect(abs(peak(two) / peak(one) - 0.5) < 0.02)
    }

    @Test("Freshness in open hours counts the glances that fall in them; without open hours there is none")
    func freshnessInOpenHours() throws {
        let s = Self.tradingScenario(users: [1_000], days: 7)
        let design = Self.poller(every: 5)
        let open = TestSupport.row(SharedContentTests.run(s, [design]), design.name).freshness
        let share = try #require(open.openHours).glanceShare
        // 6.5 of 24 hours on 5 of 7 days is 19% of the week's time; glances follow waking hours, so more.
        #expect(share > 0.12 && share < 0.5, "\(share)")
        #expect(open.targetShare == open.openHours?.overTargetShare)
        #expect(open.openHours?.medianAgeMinutes != nil && open.openHours?.p95AgeMinutes != nil)
        var plain = s
        plain.calendar.hours = nil
        var anyTime = design
        anyTime.backend?.onlyWhenOpen = false
        let f = TestSupport.row(SharedContentTests.run(plain, [anyTime]), anyTime.name).freshness
        #expect(f.openHours == nil)
        #expect(f.targetShare == f.overTargetShare)
    }

    @Test("A policy that follows the hours spends no reload while the market is closed")
    func policyFollowsHours() throws {
        let s = Self.tradingScenario(users: [1_000], days: 14)
        let (always, following) = Self.alwaysAndFollowing()
        let result = SharedContentTests.run(s, [always, following])
        let perDay = { (d: Design) in TestSupport.row(result, d.name).requestsPerUserDay }
        // Policy reloads come in 6.5 hours of 10 weekdays out of 14 days; other reloads remain.
        #expect(perDay(following) < 0.7 * perDay(always), "\(perDay(following)) against \(perDay(always))")
        let day = { (d: Design) in result.typicalDay.first { $0.design == d.name }!.requestsPerUserPerMinuteByHour }
        // 02:00–10:00 UTC (night in New York): far fewer requests when the policy follows the hours.
        let night = { (d: Design) in day(d)[2..<10].reduce(0, +) }
        #expect(night(following) < 0.5 * night(always), "\(night(following)) against \(night(always))")
        // Its glances at night see the last session's content, hours old; those in the session,
        // content a reload or two old: the session's median age is well under the whole day's.
        let freshness = TestSupport.row(result, following.name).freshness
        let session = try #require(freshness.openHours?.medianAgeMinutes)
        let allDay = try #require(freshness.medianAgeMinutes)
        #expect(session * 2 < allDay, "\(session) against \(allDay)")
    }

    @Test("Credits per key: a device's fetch costs a credit per followed key, a backend's generation one")
    func creditsPerKey() throws {
        let s = try Self.onTwelveData(Self.tradingScenario(users: [1_000], days: 7))
        let direct = DesignPresets.direct
        let backend = Self.poller(every: 5)
        func units(_ keysPerUser: Int) -> (direct: Double, backend: Double, directRequests: Double) {
            var t = s
            t.content.keysPerUser = keysPerUser
            let result = SharedContentTests.run(t, [direct, backend])
            let d = TestSupport.row(result, direct.name)
            let b = TestSupport.row(result, backend.name)
            return (d.cost!.unitsPerMonth!.mean, b.cost!.unitsPerMonth!.mean / b.totalRequestsPerMonth.mean, d.totalRequestsPerMonth.mean)
        }
        let one = units(1)
        let five = units(5)
        #expect(five.directRequests == one.directRequests, "the devices' requests do not depend on the keys they ask for")
        #expect(abs(five.direct / one.direct - 5) < 1e-9, "\(five.direct) against \(one.direct)")
        // A backend's request is one credit (failed requests are not billed).
        #expect(five.backend > 0.95 && five.backend <= 1)
    }

    @Test(
        "A population projected from the sample keeps the trading days' peak: closed days and the other side of daylight saving are pooled apart"
    )
    func projectionPoolsDaysAlike() {
        var s = Self.tradingScenario(users: [1_000, 4_000], days: 30)
        s.horizon.sampleUsers = 1_000
        var design = DesignPresets.direct
        design.reloadPolicy = .after(minutes: 15)
        design.policyFollowsHours = true
        design.jitterSeconds = 600
        let result = SharedContentTests.run(s, [design])
        let peak = { (n: Int) in TestSupport.row(result, design.name, users: n).load.peakRequestsPerMinute.mean }
        // Four times the users, about four times the busiest minute (either way by the noise the
        // sample's own busiest minute holds and the projection adds). Pooled with closed days, it
        // was 2.5 times.
        #expect(peak(4_000) / peak(1_000) > 3.4 && peak(4_000) / peak(1_000) < 4.3, "\(peak(4_000)) against \(peak(1_000))")
    }

    @Test("A fetch that sends a request per key sends keys-per-user times the requests, and about the same credits")
    func requestPerKey() throws {
        let s = try Self.onTwelveData(Self.tradingScenario(users: [1_000], days: 7))
        let batched = DesignPresets.direct
        var perKey = batched
        perKey.name = "direct-per-key"
        perKey.requestPerKey = true
        let result = SharedContentTests.run(s, [batched, perKey])
        let a = TestSupport.row(result, batched.name)
        let b = TestSupport.row(result, perKey.name)
        #expect(
            abs(b.totalRequestsPerMonth.mean / a.totalRequestsPerMonth.mean - 5) < 0.05 * 5,
            "\(b.totalRequestsPerMonth.mean) against \(a.totalRequestsPerMonth.mean)")
        let (ua, ub) = (try #require(a.cost?.unitsPerMonth?.mean), try #require(b.cost?.unitsPerMonth?.mean))
        // Five symbols in one request or in five: five credits a fetch either way (failures aside).
        #expect(abs(ub / ua - 1) < 0.03, "\(ub) against \(ua)")
    }
}
