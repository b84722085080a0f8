import Foundation
import WidgetQuotaSupport

/// A bundled, dated entry of the plan catalogue: how a widget API bills and the plans its
/// provider sells, as published on the date read. A scenario selects one by name
/// (`api.catalogue`); its own `api.pricing` and `quotas.tiers` override the entry's.
public struct APICatalogueEntry: Sendable, Equatable {
    /// The name a scenario selects it by (`weatherkit`).
    public let name: String
    /// The API's name for people.
    public let displayName: String
    /// How the API bills; nil: per token at the model's price (the language-model providers).
    public let pricing: APIPricing?
    /// The plans, each with its limits and price, dated.
    public let tiers: [QuotaTier]
    /// When the provider's day starts, in hours from UTC (its daily limits and allowances reset).
    public let resetUTCOffsetHours: Double
    /// How the provider counts a day.
    public let dayWindow: QuotaSettings.DayWindow
}

/// The bundled catalogue: the language-model providers whose rate-limit tiers are bundled, a
/// weather API billed per call with a free daily allowance, a weather API whose free tier limits
/// the minute, the hour, the day and the month, Apple's WeatherKit with its included calls and
/// monthly plans, and a market-data API billed in credits with flat plans.
package enum APICatalogue {
    /// Every entry, by name.
    package static let entries: [APICatalogueEntry] =
        ProviderTiers.bundled.map { provider in
            APICatalogueEntry(
                name: provider.provider, displayName: provider.displayName, pricing: nil, tiers: provider.tiers,
                resetUTCOffsetHours: QuotaSettings().resetUTCOffsetHours, dayWindow: provider.dayWindow)
        } + [openWeatherOneCall, openMeteo, weatherKit, twelveData]

    /// The entry named `name`, nil when none is.
    package static func entry(named name: String) -> APICatalogueEntry? {
        entries.first { $0.name == name }
    }

    /// Every entry's name, for messages.
    package static var names: [String] { entries.map(\.name) }

    /// OpenWeather's One Call API 3.0 "by call": 1,000 calls a day free, then a price per call.
    static let openWeatherOneCall: APICatalogueEntry = {
        let read = "2026-12-05"
        let source =
            "OpenWeather's price page (openweathermap.org/price), One Call API 3.0 by call, as quoted in public repositories "
            + "(2024-10-16: 1,000 calls a day free, US$0.0015 a call above); read \(read)"
        return APICatalogueEntry(
            name: "openweather-one-call", displayName: "OpenWeather One Call API 3.0",
            pricing: APIPricing(per: .request, pricePerUnit: 0.0015, freePerDay: 1_000, source: source),
            tiers: [
                QuotaTier(
                    name: "by-call", rpm: nil, tpm: nil, rpd: nil, readOn: read,
                    note: "pay as you call: no per-minute or per-day limit published; "
                        + "a daily cap you set in the account stops calls beyond it")
            ],
            resetUTCOffsetHours: 0, dayWindow: .calendar)
    }()

    /// Open-Meteo: a free, non-commercial tier limited per minute, hour, day and month, and
    /// commercial plans by calls a month (no overage: a bigger plan).
    static let openMeteo: APICatalogueEntry = {
        let read = "2026-12-05"
        let source =
            "Open-Meteo's pricing page (open-meteo.com/en/pricing) as recorded by public plan listings, and its creator's "
            + "answer on Hacker News (600 calls a minute, 5,000 an hour, 10,000 a day, per IP): free tier 300,000 calls a month, "
            + "Standard US$29 a month for 1,000,000, Professional US$99 for 5,000,000; read \(read)"
        return APICatalogueEntry(
            name: "open-meteo", displayName: "Open-Meteo",
            pricing: APIPricing(per: .request, source: source),
            tiers: [
                QuotaTier(
                    name: "free", rpm: 600, tpm: nil, rph: 5_000, rpd: 10_000, readOn: read,
                    note: "non-commercial use only; 600 calls a minute, 5,000 an hour, 10,000 a day and 300,000 a month, "
                        + "counted per client IP: right for a backend's calls, which count together; devices that call it directly "
                        + "count apart, and this tool counts all of a design's calls together",
                    monthlyFee: 0, includedPerMonth: 300_000),
                QuotaTier(
                    name: "standard", rpm: nil, tpm: nil, rpd: nil, readOn: read,
                    note: "commercial: 1,000,000 calls a month for US$29, no per-minute limit published", monthlyFee: 29,
                    includedPerMonth: 1_000_000),
                QuotaTier(
                    name: "professional", rpm: nil, tpm: nil, rpd: nil, readOn: read,
                    note: "commercial: 5,000,000 calls a month for US$99, no per-minute limit published", monthlyFee: 99,
                    includedPerMonth: 5_000_000),
            ],
            resetUTCOffsetHours: 0, dayWindow: .calendar)
    }()

    /// Apple's WeatherKit: 500,000 calls a month with the Apple Developer Program membership, then
    /// monthly plans by calls included (no overage: a bigger plan).
    static let weatherKit: APICatalogueEntry = {
        let read = "2026-12-05"
        let source =
            "Apple's \"Get started with WeatherKit\" (developer.apple.com/weatherkit/get-started), availability and pricing; "
            + "read \(read)"
        let plans: [(String, Double, Double)] = [
            ("included", 500_000, 0), ("1M", 1_000_000, 49.99), ("2M", 2_000_000, 99.99), ("5M", 5_000_000, 249.99),
            ("10M", 10_000_000, 499.99), ("20M", 20_000_000, 999.99), ("50M", 50_000_000, 2_499.99),
            ("100M", 100_000_000, 4_999.99), ("150M", 150_000_000, 7_499.99), ("200M", 200_000_000, 9_999.99),
        ]
        return APICatalogueEntry(
            name: "weatherkit", displayName: "Apple WeatherKit",
            pricing: APIPricing(per: .request, source: source),
            tiers: plans.map { name, calls, fee in
                QuotaTier(
                    name: name, rpm: nil, tpm: nil, rpd: nil, readOn: read,
                    note: name == "included"
                        ? "500,000 calls a month included with the Apple Developer Program membership"
                        : "\(NumberText.plain(calls / 1_000_000)) million calls a month for US$\(NumberText.fixed(fee, digits: 2)); unused calls do not roll over",
                    monthlyFee: fee, includedPerMonth: calls)
            },
            resetUTCOffsetHours: 0, dayWindow: .calendar)
    }()

    /// Twelve Data's market-data API: credits (one per symbol a request asks for) a minute, flat
    /// monthly plans named by their credits a minute.
    static let twelveData: APICatalogueEntry = {
        let read = "2026-12-05"
        let source =
            "Twelve Data's support articles \"Credits\" and \"How do I upgrade my subscription?\" (support.twelvedata.com): "
            + "one credit per symbol, the Basic plan's 8 a minute and 800 a day (reset 00:00 UTC), Grow 55 at US$29 and "
            + "Pro 1597 at US$229 a month; read \(read). The pricing page sells more plans; add them as quotas.tiers"
        return APICatalogueEntry(
            name: "twelve-data", displayName: "Twelve Data",
            pricing: APIPricing(per: .credit, creditsPerKey: 1, source: source),
            tiers: [
                QuotaTier(
                    name: "basic", rpm: 8, tpm: nil, rpd: 800, readOn: read, note: "Basic (free): 8 credits a minute, 800 a day",
                    monthlyFee: 0),
                QuotaTier(
                    name: "grow-55", rpm: 55, tpm: nil, rpd: nil, readOn: read, note: "Grow 55: 55 credits a minute, no daily limit",
                    monthlyFee: 29),
                QuotaTier(
                    name: "pro-1597", rpm: 1_597, tpm: nil, rpd: nil, readOn: read,
                    note: "Pro 1597: 1,597 credits a minute, no daily limit", monthlyFee: 229),
            ],
            resetUTCOffsetHours: 0, dayWindow: .calendar)
    }()
}
