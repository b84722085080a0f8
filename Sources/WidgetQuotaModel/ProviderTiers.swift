import Foundation

/// A provider's published rate-limit tiers for its common small models, bundled with the tool
/// and dated: the tiers a scenario plans against when it lists none of its own.
package struct ProviderTiers: Sendable, Equatable {
    /// The provider as LiteLLM names it (`litellm_provider`): `gemini`, `openai`, `anthropic`.
    package var provider: String
    /// The provider's name for people.
    package var displayName: String
    /// Model-name prefixes that belong to the provider (`gpt-`, `claude-`), after any
    /// `provider/` prefix is removed.
    package var modelPrefixes: [String]
    package var tiers: [QuotaTier]
    /// How the provider counts a requests-per-day limit's day.
    package var dayWindow: QuotaSettings.DayWindow = .calendar

    /// Every bundled table.
    package static let bundled: [ProviderTiers] = [
        ProviderTiers(provider: "gemini", displayName: "Gemini API", modelPrefixes: ["gemini"], tiers: QuotaTier.gemini),
        ProviderTiers(
            provider: "openai", displayName: "OpenAI", modelPrefixes: ["gpt-", "chatgpt-", "o1", "o3", "o4"],
            tiers: QuotaTier.openAI, dayWindow: .rolling24h),
        ProviderTiers(provider: "anthropic", displayName: "Anthropic", modelPrefixes: ["claude"], tiers: QuotaTier.anthropic),
    ]

    /// The bundled tiers of `provider`, nil when none are bundled.
    package static func table(_ provider: String) -> [QuotaTier]? {
        bundled.first { $0.provider == provider }?.tiers
    }

    /// The provider of `model`: `litellmProvider` when given; otherwise a `provider/` prefix
    /// (`gemini/gemini-2.5-flash`, `azure/gpt-4o-mini`), else the first bundled provider whose
    /// model prefix the name starts with; nil when nothing tells.
    package static func provider(model: String, litellmProvider: String? = nil) -> String? {
        if let given = litellmProvider?.trimmingCharacters(in: .whitespaces).lowercased(), !given.isEmpty { return given }
        let name = model.lowercased()
        if let slash = name.firstIndex(of: "/") { return String(name[..<slash]) }
        return bundled.first { table in table.modelPrefixes.contains { name.hasPrefix($0) } }?.provider
    }
}

extension QuotaTier {
    /// OpenAI's usage tiers for its small models (gpt-4o-mini and gpt-4.1-mini publish the same
    /// figures), as read on the date given.
    public static let openAI: [QuotaTier] = {
        let read = "2026-12-01"
        let page = "OpenAI's rate-limit guide and the model's page (developers.openai.com/api/docs/models/gpt-4o-mini)"
        return [
            QuotaTier(
                name: "free", rpm: 3, tpm: 40_000, rpd: 200, readOn: read,
                note: "OpenAI free tier, gpt-4o-mini; \(page); check platform.openai.com/settings/organization/limits"),
            QuotaTier(
                name: "tier1", rpm: 500, tpm: 200_000, rpd: 10_000, readOn: read,
                note: "OpenAI tier 1 ($5 paid), gpt-4o-mini / gpt-4.1-mini; the day is a rolling 24 h; \(page)",
                qualification: .init(minimumSpend: 5)),
            QuotaTier(
                name: "tier2", rpm: 5_000, tpm: 2_000_000, rpd: nil, readOn: read,
                note: "OpenAI tier 2 ($50 paid, 7 days); no requests-per-day limit published; \(page)",
                qualification: .init(minimumSpend: 50, daysSinceFirstPayment: 7)),
            QuotaTier(
                name: "tier3", rpm: 5_000, tpm: 4_000_000, rpd: nil, readOn: read,
                note: "OpenAI tier 3 ($100 paid, 7 days); \(page)", qualification: .init(minimumSpend: 100, daysSinceFirstPayment: 7)),
            QuotaTier(
                name: "tier4", rpm: 10_000, tpm: 10_000_000, rpd: nil, readOn: read,
                note: "OpenAI tier 4 ($250 paid, 14 days); \(page)", qualification: .init(minimumSpend: 250, daysSinceFirstPayment: 14)),
            QuotaTier(
                name: "tier5", rpm: 30_000, tpm: 150_000_000, rpd: nil, readOn: read,
                note: "OpenAI tier 5 ($1,000 paid, 30 days); \(page)",
                qualification: .init(minimumSpend: 1_000, daysSinceFirstPayment: 30)),
        ]
    }()

    /// Anthropic's usage tiers for Claude Haiku 4.5, as read on the date given.
    ///
    /// Anthropic limits input and output tokens a minute separately (ITPM, OTPM); a tier has one
    /// `tpm`, so these tiers leave it unset and name both in the note. With a widget's short
    /// prompt and answer, requests a minute bind long before either (at tier 1, 50 requests a
    /// minute against 10,000 output tokens: 200 tokens a request).
    public static let anthropic: [QuotaTier] = {
        let read = "2026-12-01"
        let page =
            "Anthropic's rate-limit page (platform.claude.com/docs/en/api/rate-limits); tiers 1–4 as published before "
            + "Anthropic regrouped them as Start, Build and Scale in June 2026, which lowered no limit; check console.anthropic.com"
        return [
            QuotaTier(
                name: "tier1", rpm: 50, tpm: nil, rpd: nil, readOn: read,
                note: "Anthropic tier 1 ($5 credit), Claude Haiku 4.5: 50,000 input and 10,000 output tokens a minute; \(page)",
                qualification: .init(minimumSpend: 5)),
            QuotaTier(
                name: "tier2", rpm: 1_000, tpm: nil, rpd: nil, readOn: read,
                note: "Anthropic tier 2 ($40 credit), Claude Haiku 4.5: 450,000 input and 90,000 output tokens a minute; \(page)",
                qualification: .init(minimumSpend: 40)),
            QuotaTier(
                name: "tier3", rpm: 2_000, tpm: nil, rpd: nil, readOn: read,
                note: "Anthropic tier 3 ($200 credit), Claude Haiku 4.5: 1,000,000 input and 200,000 output tokens a minute; \(page)",
                qualification: .init(minimumSpend: 200)),
            QuotaTier(
                name: "tier4", rpm: 4_000, tpm: nil, rpd: nil, readOn: read,
                note: "Anthropic tier 4 ($400 credit), Claude Haiku 4.5: 4,000,000 input and 800,000 output tokens a minute; \(page)",
                qualification: .init(minimumSpend: 400)),
        ]
    }()
}
