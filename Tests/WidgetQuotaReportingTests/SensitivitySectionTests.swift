import Testing
import WidgetQuotaReporting
import WidgetQuotaSimulationTestSupport
import WidgetQuotaStudies

@Suite("sensitivity section") struct SensitivitySectionTests {
    @Test("a scenario without uncertainty moves only its fixed inputs; with no swing, the report says why")
    func aScenarioWithoutUncertaintyHasNoDriversAndTheReportSaysWhy() {
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
        s.population.smartStackRotationsPerDay = 7
        s.population.multiWidgetShare = 0.45
        s.population.backgroundRefreshOffShare = 0.15
        s.population.interactiveTapsPerDay = 1
        s.platform.policyLatenessMinutes = 7.5
        s.platform.silentPushesPerDay = 13
        let design = s.availableDesigns.first { $0.name == "cache-bgtask" }!
        let result = SensitivityAnalysis(scenario: s, design: design, users: 100, sampleUsers: 40, threads: 2).run()
        // Only the reload budget, a fixed input, is moved; a cache design's requests do not follow it.
        #expect(result.drivers.map(\.assumption) == ["platform.reloadBudgetMin/Max"])
        #expect(result.drivers.allSatisfy { $0.swing == 0 && $0.exceedsNoise != true })
        let md = SimulationReport(ReportFixtures.result, sensitivity: result).markdown()
        #expect(md.contains("nothing: no assumption of this scenario is uncertain"))
    }
}
