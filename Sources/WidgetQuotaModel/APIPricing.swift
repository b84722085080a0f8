import Foundation
import WidgetQuotaSupport

/// How the API bills: per token at the model's price (the price table), or per request or per
/// credit, pay as you go beyond free allowances or through a plan's monthly fee and the volume it
/// includes (`QuotaTier.monthlyFee`, `includedPerMonth`, `overagePerUnit`).
///
/// A month is billed as the provider bills it, from the simulated volumes: pay as you go, the
/// units above `freePerDay` each day, then above `freePerMonth`, at `pricePerUnit` (or, with
/// `volumeTiers`, each unit at its volume band's price); on a plan, its fee and the units beyond
/// what it includes at its overage price.
public struct APIPricing: Codable, Sendable, Equatable {
    /// What the API counts and bills.
    public enum Unit: String, Codable, Sendable, CaseIterable {
        /// Tokens, at the model's price from the price table (language models).
        case token
        /// Requests.
        case request
        /// Credits, a fixed number per request (market-data APIs count one per symbol).
        case credit
    }

    /// What the API bills.
    public var per: Unit = .token
    /// Credits one request costs (for `credit`; 1 otherwise).
    public var creditsPerRequest: Double = 1
    /// For `credit`: credits per content key a request asks for, instead of `creditsPerRequest`
    /// (a market-data API's one credit per symbol). A device's fetch asks for every key its user
    /// follows (`content.keysPerUser`, or its own count of `content.keysPerUserMix`); a backend's
    /// generation asks for one key.
    public var creditsPerKey: Double?
    /// USD per request or credit when paying as you go (nil: only plans bill).
    public var pricePerUnit: Double?
    /// Requests or credits free each day (the provider's day), before any is billed.
    public var freePerDay: Double = 0
    /// Requests or credits free each month, after the daily allowance.
    public var freePerMonth: Double = 0
    /// Where the prices come from and when they were read (a price page and its date).
    public var source: String = ""
    /// Graduated prices by monthly volume, paying as you go (a maps API's price per call falls
    /// past 100,000 calls a month): each billable unit of the month at the price of the band it
    /// falls in, bands in ascending order, the last open-ended. Replaces `pricePerUnit` there.
    public var volumeTiers: [VolumeTier]?

    /// One band of graduated prices.
    public struct VolumeTier: Codable, Sendable, Equatable {
        /// The band holds the month's billable units up to this many (nil: no end).
        public var upTo: Double?
        /// USD per unit in the band.
        public var pricePerUnit: Double

        /// A band up to `upTo` units at `pricePerUnit`.
        public init(upTo: Double?, pricePerUnit: Double) {
            self.upTo = upTo
            self.pricePerUnit = pricePerUnit
        }
    }

    /// Tokens priced by the price table: the pricing of a scenario that names none.
    public init() {}

    /// A pricing per request or credit.
    public init(
        per: Unit, creditsPerRequest: Double = 1, creditsPerKey: Double? = nil, pricePerUnit: Double? = nil, freePerDay: Double = 0,
        freePerMonth: Double = 0, source: String = ""
    ) {
        self.per = per
        self.creditsPerRequest = creditsPerRequest
        self.creditsPerKey = creditsPerKey
        self.pricePerUnit = pricePerUnit
        self.freePerDay = freePerDay
        self.freePerMonth = freePerMonth
        self.source = source
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case per, creditsPerRequest, creditsPerKey, pricePerUnit, freePerDay, freePerMonth, source, volumeTiers
    }

    public init(from decoder: Decoder) throws {
        let d = APIPricing()
        let c = try decoder.container(keyedBy: CodingKeys.self)
        per = try c.value(.per, or: d.per)
        creditsPerRequest = try c.value(.creditsPerRequest, or: d.creditsPerRequest)
        creditsPerKey = try c.decodeIfPresent(Double.self, forKey: .creditsPerKey)
        pricePerUnit = try c.decodeIfPresent(Double.self, forKey: .pricePerUnit)
        freePerDay = try c.value(.freePerDay, or: d.freePerDay)
        freePerMonth = try c.value(.freePerMonth, or: d.freePerMonth)
        source = try c.value(.source, or: d.source)
        volumeTiers = try c.decodeIfPresent([VolumeTier].self, forKey: .volumeTiers)
    }

    /// USD for `units` billable units of a month paying as you go: graduated by `volumeTiers`,
    /// else at `pricePerUnit` (nil: nothing prices them).
    package func payAsYouGo(_ units: Double) -> Double? {
        guard let bands = volumeTiers, !bands.isEmpty else { return pricePerUnit.map { units * $0 } }
        var cost = 0.0
        var below = 0.0
        for band in bands {
            let top = band.upTo ?? .infinity
            let inBand = max(0, min(units, top) - below)
            cost += inBand * band.pricePerUnit
            below = top
            if units <= top { return cost }
        }
        // Units beyond the last band's end: nothing prices them.
        return nil
    }

    /// Billing units one request asking for `keys` content keys costs: its credits, or 1.
    package func unitsPerRequest(keys: Double) -> Double {
        guard per == .credit else { return 1 }
        return creditsPerKey.map { $0 * max(keys, 1) } ?? creditsPerRequest
    }

    /// The unit's name in the plural, as tables print it.
    package var unitName: String {
        switch per {
        case .token: return "tokens"
        case .request: return "requests"
        case .credit: return "credits"
        }
    }

    /// The days a month is billed by, each with its own daily allowance: each complete provider
    /// day, then the part-days at the month's ends together (the month's units the days leave).
    package static func billedDays(dailyUnits: [Double], monthlyUnits: Double) -> [Double] {
        dailyUnits + [max(0, monthlyUnits - dailyUnits.reduce(0, +))]
    }

    /// USD per unit beyond a plan's included volume: its own overage price, else paying as you go's
    /// (nil: the plan bills no overage).
    package func overagePrice(of plan: QuotaTier) -> Double? { plan.overagePerUnit ?? pricePerUnit }

    /// The units a month a plan can carry at most: its included volume when it bills no overage
    /// (a bigger plan is the only way on), nil when the month has no such cap.
    package func monthlyCap(of plan: QuotaTier) -> Double? {
        guard per != .token, Self.isPriced(plan), overagePrice(of: plan) == nil else { return nil }
        return plan.includedPerMonth
    }

    /// True when a plan bills for itself: a fee, an included volume or an overage price.
    package static func isPriced(_ plan: QuotaTier) -> Bool {
        plan.monthlyFee != nil || plan.includedPerMonth != nil || plan.overagePerUnit != nil
    }

    /// A month's bill in USD for a request- or credit-priced API: `dailyUnits` are the units of
    /// each of the provider's days, `monthlyUnits` the month's (the days' sum and any part-days at
    /// the month's ends). On `plan` when it bills for itself, else pay as you go.
    ///
    /// Nil when nothing prices the volume: paying as you go without `pricePerUnit` (and beyond the
    /// free allowances), or units beyond a plan's included volume with no overage price; such a
    /// plan cannot carry the month.
    package func bill(dailyUnits: [Double], monthlyUnits: Double, plan: QuotaTier?) -> Double? {
        if let plan, Self.isPriced(plan) {
            let included = plan.includedPerMonth ?? .infinity
            let over = max(0, monthlyUnits - included)
            guard over > 0 else { return plan.monthlyFee ?? 0 }
            guard let overage = overagePrice(of: plan) else { return nil }
            return (plan.monthlyFee ?? 0) + over * overage
        }
        let aboveDaily = Self.billedDays(dailyUnits: dailyUnits, monthlyUnits: monthlyUnits).reduce(0) { $0 + max(0, $1 - freePerDay) }
        let billable = max(0, aboveDaily - freePerMonth)
        guard billable > 0 else { return 0 }
        return payAsYouGo(billable)
    }
}

extension Scenario {
    /// Billing units (requests or credits) one paid request of `design` costs: a device's fetch
    /// asks for every key its user follows (unless it sends a request per key), a backend's
    /// generation for one.
    package func unitsPerRequest(of design: Design) -> Double {
        guard let pricing = api.pricing else { return 1 }
        return pricing.unitsPerRequest(keys: design.backend == nil && !design.requestPerKey ? content.meanKeysPerUser : 1)
    }

    /// `design` as the engine simulates it: a fetch that sends a request per key sends
    /// `content.keysPerUser` times its requests (with a mix, each user's own count, in the engine).
    package func simulated(_ design: Design) -> Design {
        // With a mix, each user's fetch multiplies by its own keys (`UserTraits.keysFollowed`).
        guard design.requestPerKey, design.backend == nil, content.keysPerUserMix == nil else { return design }
        var d = design
        d.requestsPerFetch = design.requestsPerFetch * max(content.keysPerUser, 1)
        return d
    }

    /// The scenario as the engine counts it for `design`: for an API billed per credit, each
    /// tier's per-minute, per-hour and per-day limits in the design's requests (its credits ÷ the credits
    /// of one of its requests), since the engine counts requests; otherwise the scenario itself.
    /// Token limits are unchanged.
    package func limitsInRequests(for design: Design) -> Scenario {
        let c = unitsPerRequest(of: design)
        guard api.pricing?.per == .credit, c != 1 else { return self }
        var s = self
        s.quotas.tiers = quotas.tiers.map { tier in
            var t = tier
            t.rpm = tier.rpm.map { $0 / c }
            t.rph = tier.rph.map { $0 / c }
            t.rpd = tier.rpd.map { $0 / c }
            return t
        }
        return s
    }
}
