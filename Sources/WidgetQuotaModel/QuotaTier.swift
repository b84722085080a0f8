import Foundation

/// Rate limits of one API tier, planned per project for all users together.
public struct QuotaTier: Codable, Sendable, Equatable {
    /// The tier's name, as reports and `targets.maxTier` name it.
    public var name: String
    /// Requests per minute.
    public var rpm: Double?
    /// Tokens per minute.
    public var tpm: Double?
    /// Requests per hour, counted in clock hours (a weather API's hourly limit); `nil` means
    /// unpublished, treated as unlimited.
    public var rph: Double?
    /// Requests per day, counted in the quota's own day; `nil` means unpublished, treated as unlimited.
    public var rpd: Double?
    /// When the figures were read, and where to check them (required: a provider's limits
    /// change, and the report says how old these are).
    public var readOn: String
    /// Anything a reader should know about the tier; empty when a scenario gives none.
    public var note: String
    /// What an account must have done to be granted the tier (nil: nothing, or unpublished).
    public var qualification: Qualification?
    /// A plan's price: USD a month, whatever the volume (nil: no fee).
    public var monthlyFee: Double?
    /// Requests or credits (`api.pricing.per`) the fee includes each month (nil: as many as the
    /// limits allow).
    public var includedPerMonth: Double?
    /// USD per request or credit beyond `includedPerMonth` (nil: the pricing's `pricePerUnit`;
    /// without either, a month beyond the included volume needs another plan).
    public var overagePerUnit: Double?

    /// A tier earned rather than chosen: so much paid to the provider, so many days after the first payment.
    public struct Qualification: Codable, Sendable, Equatable {
        /// USD paid to the provider in all.
        public var minimumSpend: Double
        /// Days since the first successful payment.
        public var daysSinceFirstPayment: Int

        /// A tier granted after `minimumSpend` USD paid and `daysSinceFirstPayment` days.
        public init(minimumSpend: Double, daysSinceFirstPayment: Int = 0) {
            self.minimumSpend = minimumSpend
            self.daysSinceFirstPayment = daysSinceFirstPayment
        }
    }

    /// A tier with its limits (nil: unpublished, treated as unlimited), when they were read, a note and what earns it.
    public init(
        name: String, rpm: Double?, tpm: Double?, rph: Double? = nil, rpd: Double?, readOn: String, note: String,
        qualification: Qualification? = nil, monthlyFee: Double? = nil, includedPerMonth: Double? = nil, overagePerUnit: Double? = nil
    ) {
        self.name = name
        self.rpm = rpm
        self.tpm = tpm
        self.rph = rph
        self.rpd = rpd
        self.readOn = readOn
        self.note = note
        self.qualification = qualification
        self.monthlyFee = monthlyFee
        self.includedPerMonth = includedPerMonth
        self.overagePerUnit = overagePerUnit
    }

    enum CodingKeys: String, CodingKey {
        case name, rpm, tpm, rph, rpd, readOn, note, qualification, monthlyFee, includedPerMonth, overagePerUnit
    }

    /// `name` and `readOn` are required; the limits and `note` are optional.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decode(String.self, forKey: .name)
        rpm = try c.decodeIfPresent(Double.self, forKey: .rpm)
        tpm = try c.decodeIfPresent(Double.self, forKey: .tpm)
        rph = try c.decodeIfPresent(Double.self, forKey: .rph)
        rpd = try c.decodeIfPresent(Double.self, forKey: .rpd)
        readOn = try c.decode(String.self, forKey: .readOn)
        note = try c.decodeIfPresent(String.self, forKey: .note) ?? ""
        qualification = try c.decodeIfPresent(Qualification.self, forKey: .qualification)
        monthlyFee = try c.decodeIfPresent(Double.self, forKey: .monthlyFee)
        includedPerMonth = try c.decodeIfPresent(Double.self, forKey: .includedPerMonth)
        overagePerUnit = try c.decodeIfPresent(Double.self, forKey: .overagePerUnit)
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
    /// −8 is Pacific standard time), for `dayWindow` `calendar`.
    public var resetUTCOffsetHours: Double = -8
    /// How a requests-per-day limit counts its day.
    public enum DayWindow: String, Codable, Sendable, CaseIterable {
        /// A calendar day from midnight at `resetUTCOffsetHours` (Gemini: midnight Pacific).
        case calendar
        /// Any 24 hours in a row (OpenAI's tier notes).
        case rolling24h

        public init(from decoder: Decoder) throws { self = try ScenarioEnum.decode(decoder) }
    }
    /// The window of daily limits; unless the scenario writes it, the bundled provider's.
    public var dayWindow: DayWindow = .calendar {
        didSet { dayWindowFromScenario = true }
    }
    private var dayWindowFromScenario = false
    /// Tiers to plan against, cheapest first. Unless the scenario lists its own, the bundled table
    /// of the model's provider (`ProviderTiers`); empty when no table is bundled for it.
    public var tiers: [QuotaTier] = QuotaTier.gemini {
        didSet { tiersFromScenario = true }
    }
    /// Largest acceptable chance of hitting any limit in the month (headroom search).
    public var acceptableRisk: Double = 0.05
    /// True when the scenario (or code) set `tiers` itself; false when they are a bundled table
    /// chosen by the model's provider. Not part of the JSON.
    public private(set) var tiersFromScenario = false
    /// The provider whose bundled tiers `tiers` holds, or whose model has none (nil when the
    /// scenario set `tiers`, or the provider is unknown). Not part of the JSON.
    public private(set) var bundledProvider: String?
    /// The catalogue entry whose plans `tiers` holds (nil: none). Not part of the JSON.
    public private(set) var catalogueEntry: String?

    /// The bundled tiers of the default model's provider.
    public init() {}

    enum CodingKeys: String, CodingKey { case resetUTCOffsetHours, dayWindow, tiers, acceptableRisk }

    public init(from decoder: Decoder) throws {
        let d = QuotaSettings()
        let c = try decoder.container(keyedBy: CodingKeys.self)
        resetUTCOffsetHours = try c.value(.resetUTCOffsetHours, or: d.resetUTCOffsetHours)
        tiers = try c.value(.tiers, or: d.tiers)
        acceptableRisk = try c.value(.acceptableRisk, or: d.acceptableRisk)
        dayWindow = try c.value(.dayWindow, or: d.dayWindow)
        tiersFromScenario = c.contains(.tiers)
        dayWindowFromScenario = c.contains(.dayWindow)
        resetFromScenario = c.contains(.resetUTCOffsetHours)
    }

    /// True when the scenario set `resetUTCOffsetHours`. Not part of the JSON.
    private var resetFromScenario = false

    /// Unless the scenario set its own, plans against `entry`'s tiers, day and reset time.
    package mutating func useCatalogue(_ entry: APICatalogueEntry) {
        guard !tiersFromScenario else { return }
        tiers = entry.tiers
        tiersFromScenario = false
        catalogueEntry = entry.name
        bundledProvider = nil
        if !dayWindowFromScenario {
            dayWindow = entry.dayWindow
            dayWindowFromScenario = false
        }
        if !resetFromScenario { resetUTCOffsetHours = entry.resetUTCOffsetHours }
    }

    /// Unless the scenario set its own tiers, plans against the bundled tiers of `model`'s
    /// provider (`litellmProvider` when the price table names one, else the model name's prefix),
    /// and against none when no table is bundled for that provider.
    package mutating func chooseBundledTiers(model: String, litellmProvider: String? = nil) {
        guard !tiersFromScenario, catalogueEntry == nil else { return }
        let provider = ProviderTiers.provider(model: model, litellmProvider: litellmProvider)
        tiers = provider.flatMap(ProviderTiers.table) ?? []
        tiersFromScenario = false
        bundledProvider = provider
        if !dayWindowFromScenario {
            dayWindow = ProviderTiers.bundled.first { $0.provider == provider }?.dayWindow ?? .calendar
            dayWindowFromScenario = false
        }
    }

    /// When the plan has no tiers because none are bundled for the model's provider: why, in a
    /// sentence (nil otherwise).
    package func missingTiersReason(model: String) -> String? {
        guard !tiersFromScenario, catalogueEntry == nil, tiers.isEmpty else { return nil }
        let who = bundledProvider.map { "its provider (\($0))" } ?? "its provider, which the model name does not tell"
        return "No quota tiers are bundled for `\(model)` or \(who); the tool does not borrow another provider's tiers "
            + "(bundled: \(ProviderTiers.bundled.map(\.displayName).joined(separator: ", ")))."
    }

    /// Equal when the JSON fields are equal (where the tiers came from is not compared).
    public static func == (a: QuotaSettings, b: QuotaSettings) -> Bool {
        a.resetUTCOffsetHours == b.resetUTCOffsetHours && a.tiers == b.tiers && a.acceptableRisk == b.acceptableRisk
            && a.dayWindow == b.dayWindow
    }
}

/// A population's busiest minute, clock hour and quota day, in requests: what a tier's limits
/// are held against.
package struct QuotaPeaks: Sendable, Equatable {
    package var perMinute: Double
    package var perHour: Double
    package var quotaDay: Double

    package init(perMinute: Double, perHour: Double, quotaDay: Double) {
        self.perMinute = perMinute
        self.perHour = perHour
        self.quotaDay = quotaDay
    }
}

extension QuotaTier {
    /// Which of the tier's limits a population's peaks break.
    package struct Breaks: Sendable, Equatable {
        package var rpm: Bool
        package var tpm: Bool
        package var rph: Bool
        package var rpd: Bool

        /// True when any limit is broken.
        package var any: Bool { rpm || tpm || rph || rpd }
    }

    /// Which of the tier's limits `peaks` break, given the tokens each request uses.
    package func exceeded(_ peaks: QuotaPeaks, tokensPerRequest: Double) -> Breaks {
        .init(
            rpm: rpm.map { peaks.perMinute > $0 } ?? false,
            tpm: tpm.map { peaks.perMinute * tokensPerRequest > $0 } ?? false,
            rph: rph.map { peaks.perHour > $0 } ?? false,
            rpd: rpd.map { peaks.quotaDay > $0 } ?? false)
    }

    /// True when `peaks` break any limit.
    package func isExceeded(_ peaks: QuotaPeaks, tokensPerRequest: Double) -> Bool {
        exceeded(peaks, tokensPerRequest: tokensPerRequest).any
    }
}
