import Foundation
import WidgetQuotaModel
import WidgetQuotaSimulation

/// The designs a report's studies simulate (the TTL sweep's values, the recommendation's changes),
/// simulated together: each distinct design once, in one Monte-Carlo batch with the projection's
/// populations, runs, seed and sample, so every user's activity is drawn once for all of them.
/// A design the projection has already simulated, or that another study asks for under another
/// name (the recommendation's TTL at the freshness target is one of the sweep's values), is not
/// simulated again: its figures would be the same.
package struct StudyBatch: Sendable {
    /// Every population's row of each distinct design, by the name it was simulated under.
    private let rows: [String: [DesignResult]]
    /// The distinct designs, each with the name its rows are under.
    private let simulated: [Design]

    /// - Parameters:
    ///   - scenario: the projection's scenario.
    ///   - designs: the designs the studies need, in any order, repeats allowed.
    ///   - known: designs already simulated with `scenario` and their result (the projection);
    ///     used only when it has the batch's runs, seed and sample.
    ///   - threads: worker threads (nil: all cores); the result does not depend on it.
    package init(
        scenario: Scenario, designs: [Design], known: (designs: [Design], result: SimulationResult)? = nil,
        threads: Int? = nil, prices: PriceTable = .bundled
    ) {
        var distinct = [Design]()
        for d in designs where !distinct.contains(where: { Self.simulateAlike($0, d) }) { distinct.append(d) }
        var rows = [String: [DesignResult]]()
        var reused = [Design]()
        if let known {
            let method = known.result.method
            let h = scenario.horizon
            if method.runs == h.runs && method.seed == h.seed && method.sampleUsers == MonteCarloEngine.sampleSize(scenario) {
                for d in distinct {
                    guard let k = known.designs.first(where: { Self.simulateAlike($0, d) }) else { continue }
                    let found = known.result.results.filter { $0.design == k.name }
                    guard !found.isEmpty else { continue }
                    rows[d.name] = found
                    reused.append(d)
                }
            }
        }
        let toSimulate = distinct.filter { d in !reused.contains { $0.name == d.name } }
        if !toSimulate.isEmpty {
            var s = scenario
            s.designs = toSimulate
            s.baseline = toSimulate[0].name
            // What an outage adds is not part of a study's figures: no counterfactual to simulate.
            let result = MonteCarloEngine(
                scenario: s, designs: toSimulate, threads: threads, prices: prices, measuresOutageExtra: false
            ).run()
            for d in toSimulate { rows[d.name] = result.results.filter { $0.design == d.name } }
        }
        self.rows = rows
        simulated = distinct
    }

    /// `design`'s row at `users`, named as `design` (nil: not in the batch, or no such population).
    package func row(_ design: Design, users: Int) -> DesignResult? {
        rows(design).first { $0.users == users }
    }

    /// `design`'s rows at every population, named as `design` (empty: not in the batch).
    package func rows(_ design: Design) -> [DesignResult] {
        guard let twin = simulated.first(where: { Self.simulateAlike($0, design) }), let found = rows[twin.name] else { return [] }
        return found.map { row in
            var r = row
            r.design = design.name
            return r
        }
    }

    /// Whether two designs simulate the same way: they differ at most in their name and texts
    /// (the simulation reads neither, and no random stream is keyed by design).
    static func simulateAlike(_ a: Design, _ b: Design) -> Bool {
        var x = a
        var y = b
        x.name = ""
        x.summary = ""
        x.source = ""
        y.name = ""
        y.summary = ""
        y.source = ""
        return x == y
    }
}
