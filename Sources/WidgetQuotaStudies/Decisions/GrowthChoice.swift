import Foundation
import WidgetQuotaModel
import WidgetQuotaSimulation
import WidgetQuotaSupport

extension Recommendation {
    /// The choice over the whole growth plan rather than one population: the design that stays
    /// within every limit the longest, and of those that last through the plan, the one whose
    /// bills add up to least. A design cheapest at launch that outgrows its plan in month 3 is
    /// no bargain.
    public struct GrowthChoice: Codable, Sendable, Equatable {
        /// Months in the plan.
        public var months: Int
        /// The design chosen (nil: no design is within the staleness limit).
        public var design: String?
        /// True when `design` stays within every limit (tier, budget) in every month.
        public var lastsThePlan: Bool
        /// Per compared design within the staleness limit, in the order of preference.
        public var designs: [Outlook]

        /// How one design fares over the plan.
        public struct Outlook: Codable, Sendable, Equatable {
            /// The design.
            public var design: String
            /// The first month past the tier limit or every listed tier (nil: none).
            public var outgrowsTierInMonth: Int?
            /// The first month over the budget, or with no cost because no listed plan carries it
            /// (nil: none).
            public var overBudgetInMonth: Int?
            /// USD over the months it stays within every limit (nil: the model has no price).
            public var cumulativeCost: Double?
            /// The last month within every limit (0: not even the first).
            public var lastMonthWithin: Int
        }
    }
}

extension RecommendationStudy {
    /// The growth choice among `designs` (nil without a growth plan): designs within the
    /// staleness limit at the largest listed population, ordered by the last month within the
    /// tier limit and the budget (later first), then by their cost over those months (lower first).
    package static func growthChoice(result: SimulationResult, designs: [String], targets: Targets) -> Recommendation.GrowthChoice? {
        let plans = GrowthPlanner(result: result).plans().filter { designs.contains($0.design) }
        guard let months = plans.first?.months.count, months > 0 else { return nil }
        let tiers = result.scenario.quotas.tiers
        let allowed = rank(targets.maxTier, tiers) ?? (tiers.count - 1)
        var outlooks = [Recommendation.GrowthChoice.Outlook]()
        for plan in plans {
            // Freshness does not grow with users: read at the largest listed population.
            guard let row = result.results.filter({ $0.design == plan.design }).max(by: { $0.users < $1.users }),
                withinStaleness(row, targets)
            else { continue }
            let outgrows = plan.months.first { m in
                !tiers.isEmpty && (m.exceedsEveryTier || (rank(m.tier, tiers).map { $0 > allowed } ?? true))
            }?.month
            let overBudget = targets.maxCostPerMonth.flatMap { budget in
                plan.months.first { m in m.cost.map { $0 > budget } ?? (plan.months.contains { $0.cost != nil }) }?.month
            }
            let lastWithin = min(outgrows ?? months + 1, overBudget ?? months + 1) - 1
            let priced = plan.months.prefix(lastWithin)
            let cost =
                priced.allSatisfy { $0.cost != nil } && plan.months.contains { $0.cost != nil }
                ? priced.reduce(0) { $0 + ($1.cost ?? 0) } : nil
            outlooks.append(
                .init(
                    design: plan.design, outgrowsTierInMonth: outgrows, overBudgetInMonth: overBudget, cumulativeCost: cost,
                    lastMonthWithin: lastWithin))
        }
        outlooks.sort { a, b in
            if a.lastMonthWithin != b.lastMonthWithin { return a.lastMonthWithin > b.lastMonthWithin }
            if let x = a.cumulativeCost, let y = b.cumulativeCost, x != y { return x < y }
            return designs.firstIndex(of: a.design)! < designs.firstIndex(of: b.design)!
        }
        let best = outlooks.first.flatMap { $0.lastMonthWithin > 0 ? $0 : nil }
        return .init(months: months, design: best?.design, lastsThePlan: best?.lastMonthWithin == months, designs: outlooks)
    }
}
