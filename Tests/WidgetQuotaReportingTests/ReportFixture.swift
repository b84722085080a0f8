import WidgetQuotaGates
import WidgetQuotaReporting
import WidgetQuotaSimulationTestSupport
import WidgetQuotaStudies

extension ReportFixtures {
    /// The sensitivity analysis of cache-bgtask in the shared small scenario (computed once).
    static let sensitivity: SensitivityResult = {
        let design = scenario.availableDesigns.first { $0.name == "cache-bgtask" }!
        return SensitivityAnalysis(scenario: scenario, design: design, users: 100, sampleUsers: 40, threads: 2).run()
    }()

    /// The report of the shared small simulation, with two thresholds checked.
    static let report: SimulationReport = {
        var r = SimulationReport(result, sensitivity: sensitivity)
        r.thresholds = try! ThresholdEvaluator.evaluate(
            [
                try! Threshold("requestsPerUserMonth.p95{design=direct} > 1", severity: .fail),
                try! Threshold("staleShare > 2", severity: .warn),
            ], on: r.metrics)
        return r
    }()
}
