import Foundation
import Testing
import WidgetQuotaModel
import WidgetQuotaSimulation
import WidgetQuotaSimulationTestSupport
import WidgetQuotaSupport
import WidgetQuotaTestSupport

/// "Outdated": a glance at content that a newer value had replaced, measured from the changes as
/// drawn where the design follows them, and from their expected number where it does not.
@Suite("outdated content") struct OutdatedTests {
    static func run(_ s: Scenario, _ names: [String]) -> SimulationResult {
        TestSupport.run(s, designs: names)
    }

    @Test("The chance of at least one change is 1 − e^(−λ) to 1e-9, from no change to many")
    func chanceOfAny() {
        var lambdas = [0.0, 1e-9, 5e-5, 1e-4, 1.0000001e-4, 0.3466, 0.3467, 0.5, 1, 2.5, 10, 39.9, 40, 500]
        lambdas += (1...2_000).map { Double($0) / 100 }
        for lambda in lambdas {
            let exact = -Foundation.expm1(-lambda)
            #expect(abs(ChangeCurve.chanceOfAny(expected: lambda) - exact) < 1e-9, "λ = \(lambda)")
        }
    }

    @Test("Data that never changes is never outdated: only errors count")
    func unchangingData() {
        var s = TestSupport.smallScenario(users: [300])
        s.api.dataChangesPerDay = 0
        let result = Self.run(s, ["direct", "cache-bgtask"])
        for design in ["direct", "cache-bgtask"] {
            let f = TestSupport.row(result, design).freshness
            #expect(abs(f.outdatedShare - f.errorShare) < 1e-12, "\(design): \(f.outdatedShare) against \(f.errorShare)")
        }
    }

    @Test("More changes a day leave more glances outdated; content that is older is outdated more often")
    func moreChangesMoreOutdated() {
        let shares = [0.5, 2, 8].map { rate -> (direct: Double, cache: Double) in
            var s = TestSupport.smallScenario(users: [300])
            s.api.dataChangesPerDay = .fixed(rate)
            let result = Self.run(s, ["direct", "cache-bgtask"])
            return (
                TestSupport.row(result, "direct").freshness.outdatedShare, TestSupport.row(result, "cache-bgtask").freshness.outdatedShare
            )
        }
        #expect(shares[0].direct < shares[1].direct && shares[1].direct < shares[2].direct, "\(shares)")
        #expect(shares[0].cache < shares[1].cache && shares[1].cache < shares[2].cache, "\(shares)")
        // The cache's content is hours old, the direct widget's minutes.
        #expect(shares.allSatisfy { $0.cache > $0.direct }, "\(shares)")
    }

    @Test("The expected chance of a change agrees with the changes as drawn, seed by seed, within the standard error")
    func expectedMatchesDrawn() throws {
        // The same devices and fetches, measured against the expected changes (direct, which does
        // not follow them) and against the changes as drawn (the same widget fetching from a
        // backend that regenerates on each change, its answer never older than a second): the
        // two differ by noise only, on days with and without a window of changes.
        var differences = [Double]()
        for seed in UInt64(1)...8 {
            var s = TestSupport.smallScenario(users: [300], runs: 1, days: 14)
            s.horizon.seed = seed
            s.content.keys = 40
            s.api.dataChangesPerDay = 3
            s.api.failureProbability = 0
            s.calendar.dayKinds = [
                DayKind(name: "match", weekdays: [.saturday], factors: DayFactors(dataChanges: 10, startHourUTC: 15, hours: 4))
            ]
            var drawn = DesignPresets.direct
            drawn.name = "drawn"
            drawn.backend = BackendGeneration(regenerate: .onChange, cacheTTLMinutes: 1.0 / 60)
            s.designs = [drawn]
            let result = MonteCarloEngine(scenario: s, designs: [DesignPresets.direct, drawn], threads: 2).run()
            let rows = ["direct", "drawn"].map { TestSupport.row(result, $0).freshness }
            #expect(rows[0].errorShare == 0 && rows[1].errorShare == 0)
            differences.append(rows[1].outdatedShare - rows[0].outdatedShare)
        }
        let mean = Statistics.mean(differences)
        let se = StandardError.ofMean(differences)
        #expect(abs(mean) < StandardError.bound * se + 1e-3, "mean difference \(mean), standard error \(se): \(differences)")
    }

    @Test("A quote fetched after the close is current all night: outside trading hours almost no glance is outdated")
    func currentAfterTheClose() throws {
        var s = OpenHoursTests.tradingScenario(users: [200], days: 14)
        s.content.keysPerUser = 1
        s.api.dataChangesPerDay = 390  // about one a minute in the session
        let f = TestSupport.row(Self.run(s, ["direct"]), "direct").freshness
        let open = try #require(f.openHours)
        // Nearly every glance in the session sees a quote some change replaced.
        #expect(open.outdatedShare > 0.8, "\(open.outdatedShare)")
        // Closed glances are outdated only at an error or when the widget's content predates the
        // last close (in the hour after it, for an hourly widget).
        let closed = (f.outdatedShare - open.glanceShare * open.outdatedShare) / (1 - open.glanceShare)
        #expect(closed < open.outdatedShare / 10, "closed \(closed), open \(open.outdatedShare)")
    }
}
