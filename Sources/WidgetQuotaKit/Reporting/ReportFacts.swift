import Foundation

/// Facts derived from a result that several sections need: the focus population, the tier each
/// row needs, and figures that newer engines add (cost, headroom, outage) read by metric path.
struct ReportFacts: Sendable {
    let result: SimulationResult
    let metrics: MetricTable

    init(_ result: SimulationResult) {
        self.result = result
        self.metrics = (try? MetricTable(result)) ?? MetricTable(records: [])
    }

    /// The population the summary speaks of: 1,000 users when simulated, else the largest.
    var focusUsers: Int { result.focusUsers }

    /// User counts in ascending order.
    var userCounts: [Int] { Array(Set(result.results.map(\.users))).sorted() }

    var designs: [String] { result.method.designs }

    func row(_ design: String, users: Int) -> DesignResult? {
        result.results.first { $0.design == design && $0.users == users }
    }

    func rows(_ design: String) -> [DesignResult] { result.results.filter { $0.design == design } }

    /// The cheapest tier whose chance of hitting any limit in the month is within the scenario's
    /// acceptable risk; nil when even the largest tier is not enough.
    func tierNeeded(_ r: DesignResult) -> String? {
        let risk = result.scenario.quotas.acceptableRisk
        for tier in result.scenario.quotas.tiers {
            if let outcome = r.quota.first(where: { $0.tier == tier.name }), outcome.exceedProbability <= risk { return tier.name }
        }
        return nil
    }

    /// `tier1`, or `above tier3` when no tier is enough.
    func tierText(_ r: DesignResult) -> String {
        tierNeeded(r) ?? "above " + (result.scenario.quotas.tiers.last?.name ?? "every tier")
    }

    /// A figure of one row by metric path, if the report has it (e.g. `cost.perMonth.mean`).
    func value(_ metric: String, design: String, users: Int? = nil, tier: String? = nil) -> Double? {
        var selector = [(key: "design", value: design)]
        if let users { selector.append((key: "users", value: String(users))) }
        if let tier { selector.append((key: "tier", value: tier)) }
        return metrics.records(metric: metric, matching: selector).first?.value
    }

    /// Metric paths under `prefix.` present in the report, sorted (`outage.extraRequests`, …).
    func metricNames(under prefix: String) -> [String] {
        metrics.metricNames.filter { $0.hasPrefix(prefix + ".") }
    }

    var hasCost: Bool { !metricNames(under: "cost").isEmpty }
}

extension SimulationResult {
    /// The population a report speaks of in its summary, charts and sensitivity analysis:
    /// 1,000 users when simulated, else the largest population.
    public var focusUsers: Int {
        let users = Set(results.map(\.users))
        return users.contains(1_000) ? 1_000 : (users.max() ?? 1)
    }
}
