import WidgetQuotaModel
import WidgetQuotaSimulation
import WidgetQuotaTestSupport

/// Small, fast scenarios and the engine run on them, for the tests of the engine and every layer above it.
extension TestSupport {
    /// A scenario small enough for debug-build tests: few users, few runs, two weeks.
    package static func smallScenario(users: [Int] = [200], runs: Int = 2, days: Int = 14, sample: Int? = nil) -> Scenario {
        var s = Scenario()
        s.horizon.users = users
        s.horizon.runs = runs
        s.horizon.days = days
        s.horizon.sampleUsers = sample ?? (users.max() ?? 1)
        s.api.outages = []
        return s
    }

    /// Runs the engine for the named designs.
    package static func run(
        _ scenario: Scenario, designs names: [String], threads: Int = 2,
        central: Bool = false
    ) -> SimulationResult {
        let designs = names.map { name in scenario.availableDesigns.first { $0.name == name }! }
        var parameters: (@Sendable (Int) -> RunParameters)?
        if central {
            let fixed = RunParameters.central(scenario)
            parameters = { _ in fixed }
        }
        return MonteCarloEngine(scenario: scenario, designs: designs, threads: threads, parameters: parameters).run()
    }

    /// The result row for a design and population.
    package static func row(_ result: SimulationResult, _ design: String, users: Int? = nil) -> DesignResult {
        result.results.first { $0.design == design && (users == nil || $0.users == users) }!
    }
}
