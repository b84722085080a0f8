import Foundation
import WidgetQuotaGates
import WidgetQuotaModel
import WidgetQuotaReporting
import WidgetQuotaSimulation
import WidgetQuotaStudies

/// One small simulation shared by the report tests (computed once).
package enum ReportFixtures {
    package static let scenario: Scenario = {
        var s = TestSupport.smallScenario(users: [1, 100], runs: 3, days: 14, sample: 40)
        s.api.outages = [Outage(day: 5, startHourUTC: 15, durationHours: 3, errorRate: 0.95)]
        s.calibration = Calibration(fields: ["population.appOpensPerDay"], source: "12 devices, 80 device-days")
        return s
    }()

    package static let designs = ["direct", "cache-bgtask"]

    package static let result: SimulationResult = TestSupport.run(scenario, designs: designs)

    package static let sensitivity: SensitivityResult = {
        let design = scenario.availableDesigns.first { $0.name == "cache-bgtask" }!
        return SensitivityAnalysis(scenario: scenario, design: design, users: 100, sampleUsers: 40, threads: 2).run()
    }()

    package static let report: SimulationReport = {
        var r = SimulationReport(result, sensitivity: sensitivity)
        r.thresholds = try! ThresholdEvaluator.evaluate(
            [
                try! Threshold("requestsPerUserMonth.p95{design=direct} > 1", severity: .fail),
                try! Threshold("staleShare > 2", severity: .warn),
            ], on: r.metrics)
        return r
    }()

    /// A fixture file's text.
    package static func fixture(_ name: String) throws -> String {
        try Fixtures.text("reports/" + name)
    }
}
