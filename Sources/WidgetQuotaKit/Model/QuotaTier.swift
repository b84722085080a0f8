import Foundation

/// Rate limits of one API tier, planned per project for all users together.
public struct QuotaTier: Codable, Sendable, Equatable {
    public var name: String
    /// Requests per minute.
    public var rpm: Double?
    /// Tokens per minute.
    public var tpm: Double?
    /// Requests per day, counted in the quota's own day; `nil` means unpublished, treated as unlimited.
    public var rpd: Double?
    /// When the figures were read, and where to check them.
    public var readOn: String
    public var note: String

    public init(name: String, rpm: Double?, tpm: Double?, rpd: Double?, readOn: String, note: String) {
        self.name = name
        self.rpm = rpm
        self.tpm = tpm
        self.rpd = rpd
        self.readOn = readOn
        self.note = note
    }

    /// The Gemini API tiers (gemini-2.5-flash), as published when read.
    public static let gemini: [QuotaTier] = [
        QuotaTier(
            name: "free", rpm: 10, tpm: 250_000, rpd: 250, readOn: "2026-11-29",
            note: "Gemini API free tier; check the AI Studio console for your project's limits"),
        QuotaTier(
            name: "tier1", rpm: 1_000, tpm: 1_000_000, rpd: 10_000, readOn: "2026-11-29",
            note: "Gemini API tier 1 (billing enabled); check the console"),
        QuotaTier(
            name: "tier2", rpm: 2_000, tpm: 3_000_000, rpd: 100_000, readOn: "2026-11-29",
            note: "Gemini API tier 2; check the console"),
        QuotaTier(
            name: "tier3", rpm: 10_000, tpm: 8_000_000, rpd: nil, readOn: "2026-11-29",
            note: "Gemini API tier 3; requests per day unpublished, treated as unlimited"),
    ]
}

/// How quotas are counted and which tiers to plan against.
public struct QuotaSettings: Codable, Sendable, Equatable {
    /// UTC offset of the quota's day boundary (Gemini resets daily quotas at midnight Pacific time;
    /// −8 is Pacific standard time).
    public var resetUTCOffsetHours: Double = -8
    /// Tiers to plan against, cheapest first.
    public var tiers: [QuotaTier] = QuotaTier.gemini
    /// Largest acceptable chance of hitting any limit in the month (headroom search).
    public var acceptableRisk: Double = 0.05

    public init() {}

    public init(from decoder: Decoder) throws {
        let d = QuotaSettings()
        let c = try decoder.container(keyedBy: CodingKeys.self)
        resetUTCOffsetHours = try c.value(.resetUTCOffsetHours, or: d.resetUTCOffsetHours)
        tiers = try c.value(.tiers, or: d.tiers)
        acceptableRisk = try c.value(.acceptableRisk, or: d.acceptableRisk)
    }
}

extension QuotaTier {
    /// Which of the tier's limits a population's peaks break, given the tokens each request uses.
    public func exceeded(peakPerMinute: Double, peakQuotaDay: Double, tokensPerRequest: Double) -> (rpm: Bool, tpm: Bool, rpd: Bool) {
        (
            rpm.map { peakPerMinute > $0 } ?? false,
            tpm.map { peakPerMinute * tokensPerRequest > $0 } ?? false,
            rpd.map { peakQuotaDay > $0 } ?? false
        )
    }

    /// True when any limit is broken.
    public func isExceeded(peakPerMinute: Double, peakQuotaDay: Double, tokensPerRequest: Double) -> Bool {
        let e = exceeded(peakPerMinute: peakPerMinute, peakQuotaDay: peakQuotaDay, tokensPerRequest: tokensPerRequest)
        return e.rpm || e.tpm || e.rpd
    }
}
