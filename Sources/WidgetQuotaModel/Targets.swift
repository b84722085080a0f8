import Foundation

/// What the product owner will accept: the most expensive quota tier they will pay for, the share
/// of glances they accept at content older than the freshness target (or at none), and the most
/// they will spend on the API a month.
///
/// The report's recommendation names the cheapest compared design within all three.
public struct Targets: Codable, Sendable, Equatable {
    /// The most expensive tier of `quotas.tiers` the owner will pay for; nil: any listed tier.
    public var maxTier: String?
    /// Largest acceptable share of glances at content older than `population.freshnessTargetMinutes`,
    /// or at an error or placeholder.
    public var maxStaleShare: Double = 0.25
    /// The most the owner will pay for the API a month, in US dollars (the mean cost); nil: no budget.
    public var maxCostPerMonth: Double?

    /// Targets: the most expensive tier allowed, the largest share of old glances, a monthly budget.
    public init(maxTier: String? = nil, maxStaleShare: Double = 0.25, maxCostPerMonth: Double? = nil) {
        self.maxTier = maxTier
        self.maxStaleShare = maxStaleShare
        self.maxCostPerMonth = maxCostPerMonth
    }

    /// True when `cost` (a month, mean) is within the budget, or there is no budget; a design with
    /// no price (nil) cannot be held to one and counts as within.
    package func withinBudget(_ cost: Double?) -> Bool {
        guard let budget = maxCostPerMonth, let cost else { return true }
        return cost <= budget
    }

    enum CodingKeys: String, CodingKey { case maxTier, maxStaleShare, maxCostPerMonth }

    public init(from decoder: Decoder) throws {
        let d = Targets()
        let c = try decoder.container(keyedBy: CodingKeys.self)
        maxTier = try c.decodeIfPresent(String.self, forKey: .maxTier)
        maxStaleShare = try c.value(.maxStaleShare, or: d.maxStaleShare)
        maxCostPerMonth = try c.decodeIfPresent(Double.self, forKey: .maxCostPerMonth)
    }

    /// Writes `maxTier` and `maxCostPerMonth` as null when unset, so that every field shows in
    /// `widget-quota scenario`.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(maxTier, forKey: .maxTier)
        try c.encode(maxStaleShare, forKey: .maxStaleShare)
        try c.encode(maxCostPerMonth, forKey: .maxCostPerMonth)
    }
}

extension Scenario {
    /// The designs `simulate` and `report` compare unless told otherwise: the scenario's own
    /// designs and its baseline; every available design when the scenario defines none (there the
    /// presets are the owner's designs) or when `withPresets` is set.
    package func comparedDesigns(withPresets: Bool = false) -> [Design] {
        let all = availableDesigns
        guard !designs.isEmpty, !withPresets else { return all }
        let own = Set(designs.map(\.name))
        return all.filter { own.contains($0.name) || $0.name == baseline }
    }
}
