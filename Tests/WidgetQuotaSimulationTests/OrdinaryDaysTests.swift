import Foundation
import Testing
import WidgetQuotaModel
import WidgetQuotaSimulation
import WidgetQuotaSimulationTestSupport
import WidgetQuotaTestSupport

/// The loads "without the outage" are measured on the simulated runs, with the outage's minutes
/// and its recovery at the other days' mean; they must agree with simulating the same scenario
/// again without its outage.
@Suite("ordinary days") struct OrdinaryDaysTests {
    static let designs = ["prebuilt-timeline", "direct", "poll-30m-jittered", "cache-bgtask"]

    static func scenario() -> Scenario {
        var s = TestSupport.smallScenario(users: [300, 200_000], runs: 6, days: 30, sample: 300)
        s.api.outages = [Outage(day: 12, startHourUTC: 15, durationHours: 3, errorRate: 0.95)]
        // Every push wakes the app, so that prebuilt-timeline's pushes all fetch and its storm
        // after the outage stands out (what these tests take away).
        s.platform.silentPushDeliveryShare = 1
        s.platform.silentPushesInLowPower = true
        s.population.forceQuitShare = 0
        return s
    }

    static func engine(_ s: Scenario) -> MonteCarloEngine {
        MonteCarloEngine(scenario: s, designs: designs.map { n in s.availableDesigns.first { $0.name == n }! }, threads: 2)
    }

    /// The runs with the outage, their ordinary days, and the scenario simulated again without it
    /// (computed once for every test).
    static let runs: (stormy: SimulationResult, ordinary: SimulationResult?, resimulated: SimulationResult) = {
        let (stormy, ordinary) = engine(scenario()).runWithOrdinaryDays()
        var calm = scenario()
        calm.api.outages = []
        return (stormy, ordinary, engine(calm).run())
    }()

    @Test(
        "Peaks on ordinary days agree with a re-simulation without the outage",
        arguments: designs)
    func agreesWithResimulation(design: String) throws {
        let (stormy, ordinary, resimulated) = Self.runs
        let measured = try #require(ordinary)
        for users in [300, 200_000] {
            let m = TestSupport.row(measured, design, users: users).load
            let r = TestSupport.row(resimulated, design, users: users).load
            // The busiest minute of a small sample is a few requests: a wider tolerance there.
            let tolerance = users == 300 ? 0.25 : 0.08
            for (name, a, b) in [
                ("median", m.peakRequestsPerMinute.p50, r.peakRequestsPerMinute.p50),
                ("p95", m.peakRequestsPerMinute.p95, r.peakRequestsPerMinute.p95),
            ] {
                #expect(abs(a / b - 1) < tolerance, "\(design) at \(users): busiest minute \(name) \(a) vs \(b)")
            }
            let day = m.peakRequestsPerQuotaDay.p95 / r.peakRequestsPerQuotaDay.p95
            #expect(abs(day - 1) < 0.05, "\(design) at \(users): busiest quota day ×\(day)")
            #expect(TestSupport.row(measured, design, users: users).outage == nil)
        }
        // Same runs: the requests are those simulated with the outage.
        let s = TestSupport.row(stormy, design, users: 300)
        #expect(TestSupport.row(measured, design, users: 300).totalRequestsPerMonth.mean == s.totalRequestsPerMonth.mean)
    }

    @Test("An outage's retry storm is gone from the ordinary days' busiest minute")
    func stormIsRemoved() throws {
        let (stormy, ordinary, _) = Self.runs
        let with = TestSupport.row(stormy, "prebuilt-timeline", users: 200_000).load.peakRequestsPerMinute.p95
        let without = try #require(ordinary.map { TestSupport.row($0, "prebuilt-timeline", users: 200_000) }).load.peakRequestsPerMinute.p95
        #expect(without < 0.6 * with, "with \(with), without \(without)")
    }

    @Test("A scenario without outages has no ordinary-days result")
    func noOutageNoComparison() {
        var s = Self.scenario()
        s.api.outages = []
        s.horizon.runs = 2
        #expect(Self.engine(s).runWithOrdinaryDays().withoutOutages == nil)
    }
}
