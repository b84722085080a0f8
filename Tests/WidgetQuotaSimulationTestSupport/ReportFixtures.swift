import Foundation
import WidgetQuotaModel
import WidgetQuotaSimulation
import WidgetQuotaTestSupport

/// One small simulation with an outage, shared by the tests of the layers that read results (computed once).
package enum ReportFixtures {
    package static let scenario: Scenario = {
        var s = TestSupport.smallScenario(users: [1, 100], runs: 3, days: 14, sample: 40)
        s.api.outages = [Outage(day: 5, startHourUTC: 15, durationHours: 3, errorRate: 0.95)]
        s.calibration = Calibration(fields: ["population.appOpensPerDay"], source: "12 devices, 80 device-days")
        return s
    }()

    package static let designs = ["direct", "cache-bgtask"]

    package static let result: SimulationResult = TestSupport.run(scenario, designs: designs)
}
