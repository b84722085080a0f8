import Foundation
import WidgetQuotaModel
import WidgetQuotaSimulation
import WidgetQuotaSupport

extension Recommendation {
    /// Why no compared design meets every target at one population, and by how much.
    public struct Infeasibility: Codable, Sendable, Equatable {
        /// The fewest fetches per user-day that keep content within the freshness target at
        /// (1 − maxStaleShare) of glances, with every fetch perfectly timed before the busiest
        /// glances (`FreshnessBound`): no design where each phone fetches can do with fewer.
        public var fewestFetchesPerUserDay: Int
        /// Those fetches' paid requests a month at this population.
        public var requestsPerMonthAtBound: Double
        /// Their cost a month (nil: no price; for an API billed per request or credit, what paying
        /// as you go bills, nil when only plans bill, since their limits per minute are not known here).
        public var costPerMonthAtBound: Double?
        /// For an API billed per credit: those requests' credits a month (a device's fetch asks
        /// for every key its user follows); nil otherwise.
        public var creditsPerMonthAtBound: Double?
        /// The least each limit would have to give for a compared design to fit, the others held:
        /// here the budget (USD a month).
        public var budgetNeeded: Relaxation?
        /// The share of old glances that would have to be accepted.
        public var staleShareNeeded: Relaxation?
        /// The tier that would have to be allowed.
        public var tierNeeded: Relaxation?
        /// A compared backend design that meets every target here, if any.
        public var backendThatFits: String?
    }

    /// One limit relaxed just enough for `design` to fit.
    public struct Relaxation: Codable, Sendable, Equatable {
        /// The design that would fit.
        public var design: String
        /// The value the limit would need: dollars a month, a share, or the tier's position.
        public var value: Double
        /// The tier, for a tier relaxation.
        public var tier: String?
    }
}

/// The least fetching the freshness target asks for under the scenario's glance pattern.
///
/// Glances follow the widget's hours (`population.activity.widget`) in each user's local day. A
/// fetch at minute f keeps the content within the target T until f + T, so the question is how
/// few windows of T minutes cover (1 − s) of a day's glances. Windows are chosen greedily, the
/// one covering most uncovered glances first: what a phone that knew when its user would look
/// could do. Real triggers (getTimeline, app opens, background runs) are not so well timed, so
/// every simulated design needs more; the bound says when no timing at all would do.
package enum FreshnessBound {
    package static func fewestFetchesPerDay(widgetHours weights: [Double], targetMinutes: Double, maxStaleShare: Double) -> Int {
        let perDay = TimeUnits.minutesPerDay
        let total = weights.reduce(0, +)
        guard total > 0, weights.count == TimeUnits.hoursPerDay else { return 0 }
        var density = (0..<perDay).map { weights[$0 / TimeUnits.minutesPerHour] / total / Double(TimeUnits.minutesPerHour) }
        let window = max(1, min(perDay, Int(targetMinutes.rounded(.down))))
        let needed = 1 - max(0, min(1, maxStaleShare))
        var covered = 0.0
        var fetches = 0
        while covered < needed - 1e-12 && fetches < perDay {
            // The window (wrapping round midnight) holding most uncovered glances.
            var sum = (0..<window).reduce(0.0) { $0 + density[$1 % perDay] }
            var best = sum
            var bestStart = 0
            for start in 1..<perDay {
                sum += density[(start + window - 1) % perDay] - density[start - 1]
                if sum > best + 1e-15 {
                    best = sum
                    bestStart = start
                }
            }
            guard best > 0 else { break }
            for m in bestStart..<(bestStart + window) { density[m % perDay] = 0 }
            covered += best
            fetches += 1
        }
        return fetches
    }
}

extension RecommendationStudy {
    /// Why no compared design fits at `users` (`rows`: the compared designs' rows there).
    static func infeasibility(rows: [DesignResult], users: Int, scenario s: Scenario) -> Recommendation.Infeasibility {
        let targets = s.targets
        let tiers = s.quotas.tiers
        let k = FreshnessBound.fewestFetchesPerDay(
            widgetHours: s.population.activity.widget, targetMinutes: s.population.freshnessTargetMinutes,
            maxStaleShare: targets.maxStaleShare)
        let requests = Double(k) * Double(s.horizon.days) * Double(users)
        var cost: Double?
        var credits: Double?
        if let pricing = s.api.pricing, pricing.per != .token {
            // Billed per request or credit: the volume as the provider counts it, paid as you go.
            let units = requests * pricing.unitsPerRequest(keys: s.content.meanKeysPerUser)
            if pricing.per == .credit { credits = units }
            let days = max(s.horizon.days, 1)
            cost = pricing.bill(dailyUnits: [Double](repeating: units / Double(days), count: days), monthlyUnits: units, plan: nil)
        } else {
            // The price of one request, from a compared design that calls the API from each device.
            cost = rows.first { r in
                r.backend == nil && (r.cost?.perMonth.mean ?? 0) > 0 && r.totalRequestsPerMonth.mean > 0
            }.flatMap { r in r.cost.map { $0.perMonth.mean / r.totalRequestsPerMonth.mean * requests } }
        }
        func cheapest(_ candidates: [DesignResult]) -> DesignResult? { candidates.min { price($0) < price($1) } }
        let inTier = { (r: DesignResult) in withinTier(r, maxTier: targets.maxTier, tiers: tiers) }
        let fresh = { (r: DesignResult) in withinStaleness(r, targets) }
        let budget = { (r: DesignResult) in withinBudget(r, targets) }
        var out = Recommendation.Infeasibility(
            fewestFetchesPerUserDay: k, requestsPerMonthAtBound: requests, costPerMonthAtBound: cost, creditsPerMonthAtBound: credits)
        if targets.maxCostPerMonth != nil, let r = cheapest(rows.filter { inTier($0) && fresh($0) }), let cost = r.cost?.perMonth.mean {
            out.budgetNeeded = .init(design: r.design, value: cost)
        }
        if let r = rows.filter({ inTier($0) && budget($0) }).min(by: { $0.freshness.targetShare < $1.freshness.targetShare }) {
            out.staleShareNeeded = .init(design: r.design, value: r.freshness.targetShare)
        }
        let candidates = rows.filter { fresh($0) && budget($0) && !$0.exceedsEveryTier && $0.requiredTier != nil }
        if let r = candidates.min(by: { (rank($0.requiredTier, tiers) ?? .max) < (rank($1.requiredTier, tiers) ?? .max) }),
            let position = rank(r.requiredTier, tiers)
        {
            out.tierNeeded = .init(design: r.design, value: Double(position), tier: r.requiredTier)
        }
        out.backendThatFits = rows.first { $0.backend != nil && inTier($0) && fresh($0) && budget($0) }?.design
        return out
    }
}
