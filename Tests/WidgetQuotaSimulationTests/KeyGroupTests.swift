import Foundation
import Testing
import WidgetQuotaModel
import WidgetQuotaSimulation
import WidgetQuotaSimulationTestSupport
import WidgetQuotaSupport
import WidgetQuotaTestSupport

/// Key groups with hours of their own: stocks that trade in New York's session beside crypto
/// that trades at every hour, in one watchlist.
@Suite("key groups") struct KeyGroupTests {
    /// The trading scenario of `OpenHoursTests` with `cryptoKeys` of its 3,000 symbols crypto.
    static func mixed(users: [Int], days: Int, cryptoKeys: Int = 300) -> Scenario {
        var s = OpenHoursTests.tradingScenario(users: users, days: days)
        let hours = s.calendar.hours
        s.calendar.hours = nil
        s.content.groups = [.init(name: "stocks", keys: 3_000 - cryptoKeys, hours: hours), .init(name: "crypto", keys: cryptoKeys)]
        return s
    }

    /// The expected followed keys of each group for `users` users.
    static func followed(_ s: Scenario, users: Int) -> [Double] {
        (0..<s.content.groupCount).map { s.content.followedKeys(users: users, group: $0) }
    }

    @Test(
        "A backend polling each key in its group's hours sends followed stocks × minutes open × trading days plus followed crypto × every minute"
    )
    func creditsFollowEachGroup() {
        let days = 14
        let s = Self.mixed(users: [2_000], days: days)
        let design = OpenHoursTests.poller(every: 1)
        let result = SharedContentTests.run(s, [design])
        let followed = Self.followed(s, users: 2_000)
        let expected =
            followed[0] * 390 * Double(OpenHoursTests.tradingDays(days)) + followed[1] * Double(TimeUnits.minutesPerDay * days)
        // The "month" is the horizon's days.
        let total = TestSupport.row(result, design.name).totalRequestsPerMonth.mean
        #expect(abs(total / expected - 1) < 0.01, "\(total) against \(expected)")
        let day = result.typicalDay.first { $0.design == design.name }!.requestsPerUserByMinute
        let busiest = day.indices.max { day[$0] < day[$1] }!
        #expect(busiest >= 13 * 60 + 30 && busiest < 21 * 60, "busiest minute \(busiest)")
        // At night only the crypto is polled: its followed keys a minute.
        let night = day[(2 * 60)..<(10 * 60)].reduce(0, +) / Double(8 * 60) * 2_000
        #expect(abs(night / followed[1] - 1) < 0.02, "\(night) a minute at night against \(followed[1]) crypto followed")
    }

    /// The trading scenario as written, and with its hours given to `groups` instead (each
    /// group holding `keys` of the 3,000), under a policy that follows the hours and a backend
    /// that polls in them: each design's rows in both.
    static func regrouped(_ keys: [Int]) -> [(DesignResult, DesignResult)] {
        let plain = OpenHoursTests.tradingScenario(users: [500], days: 7)
        var grouped = plain
        grouped.content.groups = keys.enumerated().map { .init(name: "g\($0.offset)", keys: $0.element, hours: plain.calendar.hours) }
        grouped.calendar.hours = nil
        let designs = [OpenHoursTests.alwaysAndFollowing().following, OpenHoursTests.poller(every: 5)]
        let a = SharedContentTests.run(plain, designs)
        let b = SharedContentTests.run(grouped, designs)
        return designs.map { (TestSupport.row(a, $0.name), TestSupport.row(b, $0.name)) }
    }

    @Test("One group holding every key in the calendar's hours is the calendar's hours: the same results to the request")
    func oneGroupIsTheCalendar() {
        for (x, y) in Self.regrouped([3_000]) {
            #expect(x.totalRequestsPerMonth.mean == y.totalRequestsPerMonth.mean)
            #expect(x.load.peakRequestsPerMinute.mean == y.load.peakRequestsPerMinute.mean)
            #expect(x.freshness.openHours?.glanceShare == y.freshness.openHours?.glanceShare)
            #expect(x.freshness.outdatedShare == y.freshness.outdatedShare)
        }
    }

    @Test("Splitting the stocks into two groups with the same hours changes no request, and the outdated share by rounding only")
    func splitGroupsAlike() {
        for (x, y) in Self.regrouped([1_500, 1_500]) {
            #expect(abs(x.totalRequestsPerMonth.mean / y.totalRequestsPerMonth.mean - 1) < 1e-6)
            #expect(x.freshness.openHours?.glanceShare == y.freshness.openHours?.glanceShare)
            #expect(abs(x.freshness.outdatedShare - y.freshness.outdatedShare) < 1e-4)
        }
    }

    @Test("A user who follows a crypto key has data that can change at any hour: the glances in open hours grow by the share of such users")
    func cryptoFollowersAreAlwaysOpen() throws {
        let users = 1_000
        var stocksOnly = OpenHoursTests.tradingScenario(users: [users], days: 7)
        var mixed = Self.mixed(users: [users], days: 7)
        // A price a minute while its market trades.
        stocksOnly.api.dataChangesPerDay = 390
        mixed.api.dataChangesPerDay = 390
        let (always, following) = OpenHoursTests.alwaysAndFollowing()
        let a = SharedContentTests.run(stocksOnly, [always, following])
        let b = SharedContentTests.run(mixed, [always, following])
        // The crypto's share of the follows, and the chance that one of a user's five keys is crypto.
        let mass = mixed.content.groupFollowShares[1]
        let p = 1 - Foundation.pow(1 - mass, 5)
        let stockShare = try #require(TestSupport.row(a, following.name).freshness.openHours?.glanceShare)
        let mixedShare = try #require(TestSupport.row(b, following.name).freshness.openHours?.glanceShare)
        let expected = p + (1 - p) * stockShare
        // Which users follow crypto is the noise: a share's standard error over the runs' users,
        // half of them effective as their glances differ in number.
        let simulated = Double(min(mixed.horizon.sampleUsers, users)) * Double(mixed.horizon.runs)
        let standardError = (p * (1 - p) / (simulated / 2)).squareRoot() * (1 - stockShare)
        #expect(abs(mixedShare - expected) < 4 * standardError, "\(mixedShare) against \(expected) ± \(standardError)")
        // At night a following widget reloads for its crypto followers only.
        func night(_ r: SimulationResult, _ d: Design) -> Double {
            r.typicalDay.first { $0.design == d.name }!.requestsPerUserPerMinuteByHour[2..<10].reduce(0, +)
        }
        #expect(night(a, following) < night(b, following) && night(b, following) < night(b, always))
        // Coins change at night too: the coin followers' glances then see content a newer price
        // replaced, where stocks' see the close's, outdated about 3 times in 10. About a third of
        // the users, more than half their glances out of the session, some 0.7 more outdated:
        // about 0.15 of all glances (0.25 → 0.48 as simulated).
        let outdated = { (r: SimulationResult) in TestSupport.row(r, always.name).freshness.outdatedShare }
        #expect(outdated(b) > outdated(a) + 0.1, "\(outdated(b)) against \(outdated(a))")
    }

    @Test("A group whose data changes twice as often has its keys regenerated twice as often by a backend that follows the changes")
    func changeFactorsPerGroup() {
        var s = TestSupport.smallScenario(users: [2_000], runs: 2, days: 7, sample: 200)
        s.content.keys = 3_000
        s.content.keysPerUser = 5
        s.api.dataChangesPerDay = 24
        s.content.groups = [.init(name: "slow", keys: 1_500), .init(name: "fast", keys: 1_500, dataChanges: 2)]
        let design = SharedContentTests.backendDesign(.onChange)
        let row = TestSupport.row(SharedContentTests.run(s, [design]), design.name)
        let followed = Self.followed(s, users: 2_000)
        let expected = (followed[0] + 2 * followed[1]) * 24 * Double(s.horizon.days)
        // About 650,000 drawn changes: their Poisson noise is 0.1%.
        #expect(abs(row.totalRequestsPerMonth.mean / expected - 1) < 0.01, "\(row.totalRequestsPerMonth.mean) against \(expected)")
    }

    @Test("Groups whose sessions never overlap each spread over a staggered period: the busiest minute is the larger group's share of it")
    func staggerWithinGroups() {
        var s = OpenHoursTests.tradingScenario(users: [2_000], days: 7)
        s.calendar.hours = nil
        s.content.groups = [
            .init(name: "tokyo", keys: 1_500, hours: OpenHours(timeZone: "Asia/Tokyo", open: "09:00", close: "15:00")),
            .init(name: "new-york", keys: 1_500, hours: OpenHours()),
        ]
        let design = OpenHoursTests.poller(every: 2)
        let row = TestSupport.row(SharedContentTests.run(s, [design]), design.name)
        let followed = Self.followed(s, users: 2_000)
        // Half of each group's followed keys a minute; both groups' halves would double it.
        let expected = (followed.max()! / 2).rounded(.up)
        #expect(abs(row.load.peakRequestsPerMinute.mean - expected) <= 1, "\(row.load.peakRequestsPerMinute.mean) against \(expected)")
    }
}
