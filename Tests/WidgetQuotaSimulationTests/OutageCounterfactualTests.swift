import Foundation
import Testing
import WidgetQuotaModel
import WidgetQuotaSimulation
import WidgetQuotaSimulationTestSupport
import WidgetQuotaTestSupport

/// What an outage adds is measured by running each of the first users without the outage as
/// well, from a copy of the run taken just before the outage could matter: the run itself must
/// be what it is without the copy, and the copy's month what a run without the outage from the
/// start gives, request for request.
@Suite("outage counterfactual") struct OutageCounterfactualTests {
    static let outages: [String: [Outage]] = [
        "one outage": [Outage(day: 3, startHourUTC: 15, durationHours: 3, errorRate: 0.95)],
        "two outages": [
            Outage(day: 2, startHourUTC: 8, durationHours: 2, errorRate: 1),
            Outage(day: 4, startHourUTC: 20, durationHours: 6, errorRate: 0.5),
        ],
        // Before the first local midnight for users east of UTC: the copy is taken at once.
        "at the start": [Outage(day: 0, startHourUTC: 0, durationHours: 4, errorRate: 0.9)],
    ]

    /// Runs the first users of `design` both ways and checks the copy against a run without the
    /// outage from the start; returns how many users' months the outage changed.
    static func check(_ design: String, _ s: Scenario) -> Int {
        let m = SimulatorInternalsTests.model(design, scenario: s)
        let calmModel = m.withoutOutages()
        let workspace = SimulationWorkspace(model: m)
        let calmWorkspace = SimulationWorkspace(model: m)
        let plainWorkspace = SimulationWorkspace(model: m)
        let referenceWorkspace = SimulationWorkspace(model: calmModel)
        var changed = 0
        for user in 0..<30 {
            var both = UserSimulator(model: m, user: user, observer: NoObserver(), workspace: workspace)
            let calm = both.runWithCalmCounterpart(calmWorkspace: calmWorkspace)
            var plain = UserSimulator(model: m, user: user, observer: NoObserver(), workspace: plainWorkspace)
            plain.run()
            var reference = UserSimulator(model: calmModel, user: user, observer: NoObserver(), workspace: referenceWorkspace)
            reference.run()
            #expect(both.tally == plain.tally, "\(design), user \(user)")
            #expect(both.monthRequests == plain.monthRequests, "\(design), user \(user)")
            #expect(calm == reference.monthRequests, "\(design), user \(user)")
            if calm != plain.monthRequests { changed += 1 }
        }
        return changed
    }

    static func scenario(_ outage: String) -> Scenario {
        var s = TestSupport.smallScenario(users: [30], runs: 1, days: 6)
        s.api.outages = outages[outage]!
        return s
    }

    @Test(
        "the calm copy is a run without the outage, and the run is unchanged",
        arguments: DesignPresets.all.map(\.name), outages.keys.sorted())
    func calmCopyIsARunWithoutTheOutage(design: String, outage: String) {
        _ = Self.check(design, Self.scenario(outage))
    }

    /// The check above is not vacuous: for a design that retries at once, an outage within the
    /// counted month (after the warm-up day) changes users' months, and the copy still gives
    /// each one's month without it.
    @Test("an outage that changes the month is measured", arguments: ["one outage", "two outages"])
    func anOutageThatChangesTheMonthIsMeasured(outage: String) {
        var s = Self.scenario(outage)
        var retrying = DesignPresets.all.first { $0.name == "cache-on-open" }!
        retrying.name = "cache-on-open-retrying"
        retrying.retry = .backoff(maxRetries: 3, baseSeconds: 2, jitter: true)
        s.designs = [retrying]
        #expect(Self.check(retrying.name, s) > 0)
    }
}
