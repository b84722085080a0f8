import Testing
import WidgetQuotaModel
import WidgetQuotaSimulation
import WidgetQuotaSimulationTestSupport
import WidgetQuotaSupport
import WidgetQuotaTestSupport

@Suite("reported percentiles") struct ReportedPercentileTests {
    /// The quantiles a report prints for an exact population are those of the users it simulated.
    @Test("reported percentiles are those of the simulated users") func reportedPercentilesAreThoseOfTheSimulatedUsers() {
        let s = TestSupport.smallScenario(users: [150, 400], runs: 2, days: 7, sample: 400)
        let result = TestSupport.run(s, designs: ["direct"])
        let parameters = (0..<2).map { RunParameters.draw(s, run: $0) }
        let index = s.availableDesigns.firstIndex { $0.name == "direct" }!
        for users in [150, 400] {
            var list = [Double]()
            for run in 0..<2 {
                let model = SimulationModel(
                    scenario: s, design: s.availableDesigns[index],
                    run: run, parameters: parameters[run])
                for user in 0..<users {
                    var sim = UserSimulator(model: model, user: user, observer: NoObserver())
                    sim.run()
                    list.append(Double(sim.monthRequests))
                }
            }
            let reported = TestSupport.row(result, "direct", users: users).requestsPerUserMonth
            let expected = Quantiles(list)
            #expect(reported.p5 == expected.p5 && reported.p50 == expected.p50, "\(users) users")
            #expect(reported.p95 == expected.p95 && reported.p99 == expected.p99, "\(users) users")
            #expect(abs(reported.mean - expected.mean) <= 1e-9 * expected.mean, "\(users) users")
        }
    }
}
