import Foundation
import WidgetQuotaGates
import WidgetQuotaSimulation

/// Facts derived from a result that several sections need: the focus population, the tier each
/// row needs, and figures that newer engines add (cost, headroom, outage) read by metric path.
package struct ReportFacts: Sendable {
    let result: SimulationResult
    let metrics: MetricTable

    package init(_ result: SimulationResult) {
        self.result = result
        self.metrics = (try? MetricTable(result)) ?? MetricTable(records: [])
    }

    /// The population the summary speaks of: 1,000 users when simulated, else the largest.
    package var focusUsers: Int { result.focusUsers }

    /// User counts in ascending order.
    var userCounts: [Int] { Array(Set(result.results.map(\.users))).sorted() }

    package var designs: [String] { result.method.designs }

    package func row(_ design: String, users: Int) -> DesignResult? {
        result.results.first { $0.design == design && $0.users == users }
    }

    package func rows(_ design: String) -> [DesignResult] { result.results.filter { $0.design == design } }

    /// The cheapest tier with enough headroom for this population; nil when no listed tier is enough.
    func tierNeeded(_ r: DesignResult) -> String? { r.requiredTier }

    /// `tier1`, or `above tier3` when no tier is enough.
    func tierText(_ r: DesignResult) -> String {
        tierNeeded(r) ?? "above " + (result.scenario.quotas.tiers.last?.name ?? "every tier")
    }

    var hasCost: Bool { result.results.contains { $0.cost != nil } }
}

extension SimulationResult {
    /// The population a report speaks of in its summary, charts and sensitivity analysis:
    /// 1,000 users when simulated, else the largest population.
    public var focusUsers: Int {
        let users = Set(results.map(\.users))
        return users.contains(1_000) ? 1_000 : (users.max() ?? 1)
    }
}
