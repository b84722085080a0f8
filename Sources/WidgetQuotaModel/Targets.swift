import Foundation

/// What the product owner will accept: the most expensive quota tier they will pay for and the
/// share of glances they accept at content older than the freshness target (or at none).
///
/// The report's recommendation names the cheapest compared design within both.
public struct Targets: Codable, Sendable, Equatable {
    /// The most expensive tier of `quotas.tiers` the owner will pay for; nil: any listed tier.
    public var maxTier: String?
    /// Largest acceptable share of glances at content older than `population.freshnessTargetMinutes`,
    /// or at an error or placeholder.
    public var maxStaleShare: Double = 0.25

    public init(maxTier: String? = nil, maxStaleShare: Double = 0.25) {
        self.maxTier = maxTier
        self.maxStaleShare = maxStaleShare
    }

    enum CodingKeys: String, CodingKey { case maxTier, maxStaleShare }

    public init(from decoder: Decoder) throws {
        let d = Targets()
        let c = try decoder.container(keyedBy: CodingKeys.self)
        maxTier = try c.decodeIfPresent(String.self, forKey: .maxTier)
        maxStaleShare = try c.value(.maxStaleShare, or: d.maxStaleShare)
    }

    /// Writes `maxTier` as null when unset, so that every field shows in `widget-quota scenario`.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(maxTier, forKey: .maxTier)
        try c.encode(maxStaleShare, forKey: .maxStaleShare)
    }
}

extension Scenario {
    /// The designs `simulate` and `report` compare unless told otherwise: the scenario's own
    /// designs and its baseline; every available design when the scenario defines none (there the
    /// presets are the owner's designs) or when `withPresets` is set.
    public func comparedDesigns(withPresets: Bool = false) -> [Design] {
        let all = availableDesigns
        guard !designs.isEmpty, !withPresets else { return all }
        let own = Set(designs.map(\.name))
        return all.filter { own.contains($0.name) || $0.name == baseline }
    }
}
