import Foundation
import Testing
import WidgetQuotaModel
import WidgetQuotaSimulation
import WidgetQuotaSimulationTestSupport
import WidgetQuotaStudies
import WidgetQuotaTestSupport

/// The fewest fetches the freshness target needs: exact on a flat day, and never beaten by a
/// simulated design.
@Suite("Freshness bound")
struct FreshnessBoundTests {
    @Test(
        "On a flat day, covering a share of glances takes that share of the day's windows",
        arguments: [(60.0, 0.5, 12), (60.0, 0.0, 24), (30.0, 0.5, 24), (120.0, 0.25, 9), (1_440.0, 0.0, 1)])
    func flatDay(target: Double, stale: Double, fetches: Int) {
        let flat = [Double](repeating: 1, count: 24)
        #expect(FreshnessBound.fewestFetchesPerDay(widgetHours: flat, targetMinutes: target, maxStaleShare: stale) == fetches)
    }

    @Test("A busier hour is covered first, so the scenario's waking-hour pattern needs fewer than a flat day")
    func patternNeedsFewer() {
        let s = Scenario()
        let pattern = FreshnessBound.fewestFetchesPerDay(widgetHours: s.population.activity.widget, targetMinutes: 60, maxStaleShare: 0.5)
        #expect(pattern < 12 && pattern >= 9, "\(pattern)")
    }

    @Test("No simulated design keeps content fresh at a share of glances with fewer fetches than the bound")
    func simulationRespectsTheBound() {
        var s = TestSupport.smallScenario(users: [300], runs: 2, days: 10)
        s.population.rarelyViewedShare = 0
        let result = TestSupport.run(s, designs: DesignPresets.all.map(\.name))
        for r in result.results {
            let fresh = 1 - r.freshness.overTargetShare
            let bound = FreshnessBound.fewestFetchesPerDay(
                widgetHours: s.population.activity.widget, targetMinutes: s.population.freshnessTargetMinutes,
                maxStaleShare: 1 - fresh)
            // A whole fetch of slack: the bound is for one day, the simulation averages many.
            #expect(
                r.fetchesPerUserDay + 1 >= Double(bound),
                "\(r.design): \(r.fetchesPerUserDay) fetches a day, fresh at \(fresh), bound \(bound)")
        }
    }
}
