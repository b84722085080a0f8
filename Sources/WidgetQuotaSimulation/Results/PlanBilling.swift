import Foundation
import WidgetQuotaModel
import WidgetQuotaSupport

/// The bills of an API priced per request or credit (`api.pricing`), for one design and
/// population: each run's billed volume (a month and each provider day), and what each plan, or
/// paying as you go, would bill for it.
struct PlanBillsAcrossRuns {
    let pricing: APIPricing
    let tiers: [QuotaTier]
    /// Units (requests or credits) one of the design's requests costs.
    let unitsPerRequest: Double
    /// Units billed in each run's month (requests, or their credits); failed requests are not billed.
    private(set) var monthlyUnits: [Double] = []
    /// Per run, each plan's bill (nil: the plan cannot carry that month), in `tiers` order.
    private(set) var byPlan: [[Double?]] = []
    /// Per run, the bill paying as you go (nil: no price per unit for the volume above the allowances).
    private(set) var payAsYouGo: [Double?] = []
    /// Over the runs, the sum of each billed day's units and of its units above the daily allowance
    /// (`APIPricing.billedDays`: the complete provider days, then the part-days together).
    private var dayUnitSums: [Double] = []
    private var dayAboveFreeSums: [Double] = []

    init(pricing: APIPricing, tiers: [QuotaTier], unitsPerRequest: Double) {
        self.pricing = pricing
        self.tiers = tiers
        self.unitsPerRequest = unitsPerRequest
    }

    /// Adds a run: its requests in the month and in each complete quota day, and the share of its
    /// requests that succeeded.
    mutating func add(totalRequests total: Double, quotaDayRequests days: [Double], billedShare: Double) {
        let perRequest = unitsPerRequest * billedShare
        let month = total * perRequest
        let daily = days.map { $0 * perRequest }
        monthlyUnits.append(month)
        let billed = APIPricing.billedDays(dailyUnits: daily, monthlyUnits: month)
        if dayUnitSums.isEmpty {
            dayUnitSums = Array(repeating: 0, count: billed.count)
            dayAboveFreeSums = dayUnitSums
        }
        for (i, units) in billed.enumerated() where i < dayUnitSums.count {
            dayUnitSums[i] += units
            dayAboveFreeSums[i] += max(0, units - pricing.freePerDay)
        }
        byPlan.append(tiers.map { pricing.bill(dailyUnits: daily, monthlyUnits: month, plan: $0) })
        payAsYouGo.append(pricing.bill(dailyUnits: daily, monthlyUnits: month, plan: nil))
    }

    /// The bills of plan `t` over the runs, when it carries the month in all but
    /// `allowedBreakingRuns` of them (its bill in the others counted as the mean of the rest).
    func bills(plan t: Int, allowedBreakingRuns: Int) -> [Double]? {
        let bills = byPlan.map { $0[t] }
        let carried = bills.compactMap { $0 }
        guard !carried.isEmpty, bills.count - carried.count <= allowedBreakingRuns else { return nil }
        let mean = Statistics.mean(carried)
        return bills.map { $0 ?? mean }
    }

    /// The cheapest of the plans `eligible` (whose limits hold) by mean bill, the first listed on
    /// a tie, with its bills; nil when none can carry the month.
    func cheapest(among eligible: [Int], allowedBreakingRuns: Int) -> (plan: Int, bills: [Double])? {
        var best: (plan: Int, bills: [Double], mean: Double)?
        for t in eligible {
            guard let bills = bills(plan: t, allowedBreakingRuns: allowedBreakingRuns) else { continue }
            let mean = Statistics.mean(bills)
            if best == nil || mean < best!.mean { best = (t, bills, mean) }
        }
        return best.map { ($0.plan, $0.bills) }
    }

    /// The cost of `users` users on plan `t` (nil: paying as you go), from `bills`.
    func cost(plan t: Int?, bills: [Double], users n: Int) -> DesignResult.Cost {
        let plan = t.map { tiers[$0] }
        var cost = DesignResult.Cost(
            model: "per \(pricing.per.rawValue)", inputCostPerToken: 0, outputCostPerToken: 0, perMonth: RunSpread(bills),
            perUserMonth: Statistics.mean(bills) / Double(n),
            priceSource: pricing.source.isEmpty ? "the scenario's api.pricing" : pricing.source)
        cost.per = pricing.per.rawValue
        cost.unitsPerMonth = RunSpread(monthlyUnits)
        cost.plan = plan.flatMap { APIPricing.isPriced($0) ? $0.name : nil }
        cost.planFeePerMonth = plan.flatMap { APIPricing.isPriced($0) ? ($0.monthlyFee ?? 0) : nil }
        let runs = Double(max(1, monthlyUnits.count))
        cost.unitsPerDay = dayUnitSums.map { $0 / runs }
        cost.unitsAboveFreePerDay = dayAboveFreeSums.map { $0 / runs }
        return cost
    }
}
