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
}
