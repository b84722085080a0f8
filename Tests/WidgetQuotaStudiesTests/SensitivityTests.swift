import Foundation
import Testing
import WidgetQuotaModel
import WidgetQuotaSimulation
import WidgetQuotaSimulationTestSupport
import WidgetQuotaStudies
import WidgetQuotaTestSupport

@Suite("sensitivity") struct SensitivityTests {
    static func analysis(_ design: String, scenario: Scenario = ReportFixtures.scenario) -> SensitivityResult {
        let d = scenario.availableDesigns.first { $0.name == design }!
        return SensitivityAnalysis(scenario: scenario, design: d, users: 100, sampleUsers: 40, threads: 2).run()
    }

    @Test("drivers are sorted widest first and cover every uncertain assumption")
    func driversAreSortedWidestFirstAndCoverEveryUncertainAssumption() {
        let s = ReportFixtures.sensitivity
        #expect(zip(s.drivers, s.drivers.dropFirst()).allSatisfy { $0.swing >= $1.swing })
        let uncertain = RunParameters.assumptions(of: ReportFixtures.scenario).filter { $0.distribution.isUncertain }.map(\.path)
        // And the fixed inputs a cache design's widget depends on: the reload budget.
        #expect(Set(s.drivers.map(\.assumption)) == Set(uncertain + ["platform.reloadBudgetMin/Max"]))
        #expect(s.drivers.allSatisfy { $0.lowValue <= $0.highValue })
    }

    @Test("smart stack moves direct but not the cache design") func smartStackMovesDirectButNotTheCacheDesign() {
        // The Gemini widget report: Smart Stack rotation triggers getTimeline reloads; a cache design does not fetch on them.
        let direct = Self.analysis("direct").drivers.first { $0.assumption == "population.smartStackShare" }!
        let cache = ReportFixtures.sensitivity.drivers.first { $0.assumption == "population.smartStackShare" }!
        #expect(direct.requestsAtHigh > direct.requestsAtLow)
        #expect(cache.swing < direct.swing / 10)
    }

    @Test("Output tokens move a language model's cost, not its requests: they lead what moves the decision")
    func tokensMoveTheDecision() throws {
        let s = Self.analysis("direct")
        #expect(s.unit == "requests", "a language model is measured in requests")
        let tokens = try #require(s.drivers.first { $0.assumption == "api.outputTokensPerRequest" })
        #expect(tokens.swing == 0, "tokens do not change the requests")
        let costAtLow = try #require(tokens.costAtLow)
        let costAtHigh = try #require(tokens.costAtHigh)
        #expect(costAtHigh > costAtLow * 1.5)
        #expect(s.decisionDrivers.contains { $0.assumption == "api.outputTokensPerRequest" })
        // Every decision driver moves the tier or the cost by the decisive share.
        let central = try #require(s.centralCost)
        #expect(
            s.decisionDrivers.allSatisfy { $0.movesTier == true || ($0.costSwing ?? 0) >= SensitivityResult.decisiveCostShare * central })
    }

    @Test("An assumption whose p5 or p95 crosses a plan's limit moves the tier, and leads the decision drivers")
    func tierMoversLead() throws {
        // The worked example's widget at 1,500 users: Pro 1597's 1,597 credits a minute hold about
        // 1,775 users, so an assumption that adds several percent to the busiest minute crosses the limit.
        var scenario = try ScenarioLoader.load(path: Fixtures.packageURL("docs/examples/tickerboard.json").path)
        scenario.horizon.growth = nil
        let design = try #require(scenario.designs.first { $0.name == "widget-direct" })
        let s = SensitivityAnalysis(scenario: scenario, design: design, users: 1_500, sampleUsers: 300, threads: 2).run()
        #expect(s.centralTier == "pro-1597")
        let first = try #require(s.decisionDrivers.first)
        #expect(first.movesTier == true)
        #expect(first.tierAtLow == nil || first.tierAtHigh == nil, "one side needs more than any listed plan")
        // The same assumption, the widest request swing among those that move the tier.
        let movers = s.drivers.filter { $0.movesTier == true }
        #expect(movers.contains { $0.assumption == first.assumption })
        #expect(s.drivers.filter { $0.movesTier == false }.allSatisfy { $0.tierAtLow == "pro-1597" && $0.tierAtHigh == "pro-1597" })
    }

    @Test("Keys a user follows and the number of keys are moved too: they move a backend's requests and a per-key widget's plan")
    func fixedInputs() throws {
        var scenario = try ScenarioLoader.load(path: Fixtures.packageURL("docs/examples/tickerboard.json").path)
        scenario.horizon.growth = nil
        func run(_ name: String) throws -> SensitivityResult {
            let design = try #require(scenario.designs.first { $0.name == name })
            return SensitivityAnalysis(scenario: scenario, design: design, users: 2_000, sampleUsers: 300, threads: 2).run()
        }
        let backend = try run("backend-poll-5")
        for path in ["content.keysPerUser", "content.keys"] {
            let d = try #require(backend.drivers.first { $0.assumption == path })
            #expect(d.requestsAtHigh > d.requestsAtLow, "more followed keys, more polls: \(path)")
        }
        // The widget's requests do not depend on the symbols they ask for; its credits, which an
        // API billed per credit is measured in, do (one per symbol, the same users and streams:
        // exactly five times at ten symbols what two cost). Ten symbols a user need more than any
        // listed plan at 2,000 users.
        let widget = try run("widget-direct")
        #expect(widget.unit == "credits" && backend.unit == "credits")
        let keys = try #require(widget.drivers.first { $0.assumption == "content.keysPerUser" })
        #expect(keys.lowValue == 2 && keys.highValue == 10)
        #expect(abs(keys.requestsAtHigh / keys.requestsAtLow - 5) < 1e-9, "\(keys.requestsAtLow) → \(keys.requestsAtHigh)")
        #expect(keys.movesTier == true && keys.tierAtHigh == nil)
        #expect(widget.decisionDrivers.first?.movesTier == true)
    }
}
