import Foundation
import WidgetQuotaModel
import WidgetQuotaSimulation
import WidgetQuotaSupport

/// One design's launch month by month: each month's requests, cost and tier, the cumulative
/// cost, and the month in which each tier runs out. Part of the report's JSON (`growth[]`).
public struct GrowthPlan: Codable, Sendable, Equatable {
    /// The design planned.
    public var design: String
    /// Each month of the launch, from month 1.
    public var months: [Month]
    /// Per tier, cheapest first: the first month in which it is no longer enough.
    public var tiers: [TierRunsOut]
    /// The budget (`targets.maxCostPerMonth`; nil: none).
    public var maxCostPerMonth: Double?
    /// The first month whose mean cost is over the budget (nil: within it through the plan, or no
    /// budget, or no price).
    public var overBudgetInMonth: Int?
    /// The first month with no cost because no listed plan or tier carries it, after months that
    /// had one (nil: every month priced, or none): the budget cannot be judged from then on.
    public var unpricedFromMonth: Int?

    /// One month of the launch.
    public struct Month: Codable, Sendable, Equatable {
        /// 1-based.
        public var month: Int
        /// The month's users.
        public var users: Int
        /// `exact` or `projected`: a listed population's own figures (its `method`), or the
        /// sample's mean per user scaled to the month's users (`projected`).
        public var method: String
        /// All users' requests in the month, mean over runs.
        public var requests: Double
        /// For an API billed per credit: the credits billed in the month (failed requests are
        /// not billed); nil otherwise.
        public var credits: Double?
        /// USD for the month, mean over runs (nil when the model has no price).
        public var cost: Double?
        /// USD from month 1 to this one.
        public var cumulativeCost: Double?
        /// The cheapest tier with enough headroom for the month's users (nil: none is).
        public var tier: String?
        /// True when the scenario lists tiers and none is enough.
        public var exceedsEveryTier: Bool
    }

    /// When one tier stops being enough.
    public struct TierRunsOut: Codable, Sendable, Equatable {
        /// The tier's name.
        public var tier: String
        /// The most users the tier serves with at most the acceptable risk (nil: more than the
        /// largest population searched).
        public var maxUsers: Int?
        /// The first month whose users exceed `maxUsers` (nil: the tier holds every month).
        public var runsOutInMonth: Int?
    }
}

/// Plans `horizon.growth` from a simulation result, without simulating again: requests and
/// cost scale the simulated sample's mean per user (or take a listed population's own figures
/// when a month has exactly its users), and the tier comes from the headroom search, which reads
/// any population from the same runs (the tier per population is read the same way).
package struct GrowthPlanner {
    let result: SimulationResult

    package init(result: SimulationResult) {
        self.result = result
    }

    /// Users in each month, or nil when the scenario has no growth.
    package var users: [Int]? { result.scenario.horizon.growth?.users }

    /// One plan per design, in the result's design order (empty without growth).
    package func plans() -> [GrowthPlan] {
        guard let users else { return [] }
        return result.method.designs.map { plan(design: $0, users: users) }
    }

    /// Whether the month with `users` users is within `tier` for `design` (headroom, as the tier per population is read).
    package func fits(design: String, tier: String, users: Int) -> Bool {
        guard let h = result.headroom.first(where: { $0.design == design && $0.tier == tier }) else { return false }
        return h.maxUsers.map { users <= $0 } ?? true
    }

    func plan(design: String, users months: [Int]) -> GrowthPlan {
        let rows = result.results.filter { $0.design == design }
        let tiers = result.scenario.quotas.tiers
        // The whole sample's mean per user: the largest listed population is projected from it,
        // or (when no listed population exceeds the sample) simulated as the whole sample.
        let reference = rows.max { $0.users < $1.users }
        let perUser = reference.map { $0.totalRequestsPerMonth.mean / Double($0.users) } ?? 0
        let costPerUser = reference.flatMap { r in r.cost.map { $0.perMonth.mean / Double(r.users) } }
        var cumulative: Double? = costPerUser == nil ? nil : 0
        var plan = GrowthPlan(design: design, months: [], tiers: [])
        // A backend design's paid requests follow the content keys its users follow, not the users.
        let content = result.scenario.content
        let scale: (Int) -> Double =
            reference?.backend == nil
            ? { Double($0) }
            : { n in
                let followed = reference.map { content.followedKeys(users: $0.users) } ?? 1
                return followed > 0 ? content.followedKeys(users: n) / followed * Double(reference?.users ?? 1) : 0
            }
        // Billed per request or credit: units billed per request simulated (credits, failures unbilled).
        let pricing = result.scenario.api.pricing.flatMap { $0.per == .token ? nil : $0 }
        // From the largest population that has a bill (one beyond every plan has none), else
        // the pricing's own units per request.
        let billedRow = rows.filter { $0.cost?.unitsPerMonth != nil }.max { $0.users < $1.users }
        let unitsPerRequest =
            billedRow.flatMap { r in
                r.cost?.unitsPerMonth.map { $0.mean / max(r.totalRequestsPerMonth.mean, .leastNormalMagnitude) }
            }
            ?? result.scenario.availableDesigns.first { $0.name == design }.map { result.scenario.unitsPerRequest(of: $0) }
            ?? pricing.map { $0.unitsPerRequest(keys: reference?.backend == nil ? content.meanKeysPerUser : 1) }
        for (i, n) in months.enumerated() {
            let listed = rows.first { $0.users == n }
            let requests = listed?.totalRequestsPerMonth.mean ?? perUser * scale(n)
            var cost = listed.map { $0.cost?.perMonth.mean } ?? costPerUser.map { $0 * scale(n) }
            var tier = tiers.first { fits(design: design, tier: $0.name, users: n) }?.name
            if let pricing, let unitsPerRequest {
                if let listed {
                    tier = listed.requiredTier
                } else {
                    // A projected month: the plan with the lowest bill among those that fit, its
                    // volume spread evenly over the days.
                    let units = requests * unitsPerRequest
                    let days = result.scenario.horizon.days
                    let daily = [Double](repeating: units / Double(days), count: days)
                    let fitting = tiers.filter { fits(design: design, tier: $0.name, users: n) }
                    let billed = fitting.compactMap { t in
                        pricing.bill(dailyUnits: daily, monthlyUnits: units, plan: t).map { (t.name, $0) }
                    }
                    let best = billed.min { $0.1 < $1.1 }
                    tier = best?.0
                    cost = best?.1 ?? pricing.bill(dailyUnits: daily, monthlyUnits: units, plan: nil)
                }
            }
            if let cost { cumulative = (cumulative ?? 0) + cost }
            var month = GrowthPlan.Month(
                month: i + 1, users: n, method: listed?.method ?? "projected", requests: requests, cost: cost,
                cumulativeCost: cost == nil ? nil : cumulative, tier: tier, exceedsEveryTier: tier == nil && !tiers.isEmpty)
            if pricing?.per == .credit, let unitsPerRequest {
                month.credits = listed?.cost?.unitsPerMonth?.mean ?? requests * unitsPerRequest
            }
            plan.months.append(month)
        }
        if let budget = result.scenario.targets.maxCostPerMonth {
            plan.maxCostPerMonth = budget
            plan.overBudgetInMonth = plan.months.first { ($0.cost ?? 0) > budget }?.month
        }
        if let firstPriced = plan.months.firstIndex(where: { $0.cost != nil }) {
            plan.unpricedFromMonth = plan.months[firstPriced...].first { $0.cost == nil }?.month
        }
        plan.tiers = tiers.map { tier in
            let maxUsers = result.headroom.first { $0.design == design && $0.tier == tier.name }?.maxUsers
            let out = months.firstIndex { !fits(design: design, tier: tier.name, users: $0) }.map { $0 + 1 }
            return .init(tier: tier.name, maxUsers: maxUsers, runsOutInMonth: out)
        }
        return plan
    }
}
