import Foundation
import Testing
import WidgetQuotaModel
import WidgetQuotaReporting
import WidgetQuotaSimulation
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
        #expect(Set(s.drivers.map(\.assumption)) == Set(uncertain))
        #expect(s.drivers.allSatisfy { $0.lowValue <= $0.highValue })
    }

    @Test("smart stack moves direct but not the cache design") func smartStackMovesDirectButNotTheCacheDesign() {
        // The Gemini widget report: Smart Stack rotation triggers getTimeline reloads; a cache design does not fetch on them.
        let direct = Self.analysis("direct").drivers.first { $0.assumption == "population.smartStackShare" }!
        let cache = ReportFixtures.sensitivity.drivers.first { $0.assumption == "population.smartStackShare" }!
        #expect(direct.requestsAtHigh > direct.requestsAtLow)
        #expect(cache.swing < direct.swing / 10)
    }

    @Test("a scenario without uncertainty has no drivers") func aScenarioWithoutUncertaintyHasNoDrivers() {
        var s = ReportFixtures.scenario
        s.population.smartStackShare = 0.3
        s.population.lowPowerDayShare = 0.1
        s.population.appOpensPerDay = 2
        s.population.neverOpenShare = 0.15
        s.platform.systemReloadsPerDay = 8
        s.population.smartStackReloadsPerDay = 30
        s.platform.backgroundRunsPerDay = 2
        s.api.failureProbability = 0.01
        s.api.outputTokensPerRequest = 40
        s.platform.silentPushDeliveryShare = 0.8
        let result = Self.analysis("cache-bgtask", scenario: s)
        #expect(result.drivers.isEmpty)
        let md = SimulationReport(ReportFixtures.result, sensitivity: result).markdown()
        #expect(md.contains("nothing: no assumption of this scenario is uncertain"))
    }
}
