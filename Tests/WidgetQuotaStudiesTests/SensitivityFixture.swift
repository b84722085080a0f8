import WidgetQuotaSimulationTestSupport
import WidgetQuotaStudies

extension ReportFixtures {
    /// The sensitivity analysis of cache-bgtask in the shared small scenario (computed once).
    static let sensitivity: SensitivityResult = {
        let design = scenario.availableDesigns.first { $0.name == "cache-bgtask" }!
        return SensitivityAnalysis(scenario: scenario, design: design, users: 100, sampleUsers: 40, threads: 2).run()
    }()
}
