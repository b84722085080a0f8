import Foundation
import Testing
import WidgetQuotaModel

/// `horizon.growth`: its two forms, and the field an invalid one names.
@Suite("Growth scenario") struct GrowthScenarioTests {
    static func decode(_ growth: String) throws -> Scenario {
        try ScenarioLoader.decode(Data(#"{"horizon": {"growth": \#(growth)}}"#.utf8))
    }

    /// The field and problem of the error decoding `growth` throws.
    static func problem(_ growth: String) -> String {
        do {
            _ = try decode(growth)
            return "no error"
        } catch {
            return "\(error)"
        }
    }

    @Test("A list gives the users of each month, in order")
    func list() throws {
        let s = try Self.decode("[20000, 60000, 110000, 160000, 210000, 250000]")
        #expect(s.horizon.growth?.users == [20_000, 60_000, 110_000, 160_000, 210_000, 250_000])
    }

    @Test("A linear curve adds the same users each month and ends at the end")
    func linear() throws {
        let s = try Self.decode(#"{"start": 20000, "end": 250000, "months": 6, "curve": "linear"}"#)
        #expect(s.horizon.growth?.users == [20_000, 66_000, 112_000, 158_000, 204_000, 250_000])
    }

    @Test("An exponential curve grows by the same factor each month")
    func exponential() throws {
        let s = try Self.decode(#"{"start": 1000, "end": 1000000, "months": 4, "curve": "exponential"}"#)
        #expect(s.horizon.growth?.users == [1_000, 10_000, 100_000, 1_000_000])
    }

    @Test("Growth survives the scenario's JSON round trip, in both forms")
    func roundTrip() throws {
        for growth in ["[5, 10]", #"{"start": 5, "end": 50, "months": 3, "curve": "exponential"}"#] {
            let s = try Self.decode(growth)
            let again = try ScenarioLoader.decode(Data(ScenarioLoader.encode(s).utf8))
            #expect(again.horizon.growth == s.horizon.growth)
        }
    }

    @Test(
        "Invalid growth names the field at fault",
        arguments: [
            ("[]", "horizon.growth"),
            ("[1000, 0]", "horizon.growth[1]"),
            ("[1000, 2500.5]", "horizon.growth[1]"),
            (#""many""#, "horizon.growth"),
            (#"{"start": 10, "months": 3}"#, "horizon.growth.end"),
            (#"{"start": 10, "end": 100, "months": 1}"#, "horizon.growth.months"),
            (#"{"start": -5, "end": 100, "months": 3}"#, "horizon.growth.start"),
            (#"{"start": 10, "end": 100, "months": 3, "curve": "expnential"}"#, "horizon.growth.curve"),
            (#"{"start": 10, "end": 100, "month": 3}"#, "horizon.growth.month"),
        ])
    func invalid(growth: String, field: String) {
        let text = Self.problem(growth)
        #expect(text.contains(field), "\(growth): \(text)")
    }

    @Test("A misspelt curve suggests the nearest")
    func curveSuggestion() {
        #expect(Self.problem(#"{"start": 10, "end": 100, "months": 3, "curve": "expnential"}"#).contains("did you mean \"exponential\""))
    }
}

/// Which bundled tiers a model plans against.
@Suite("Provider tiers") struct ProviderTierTests {
    static func tiers(model: String, litellmProvider: String? = nil) -> QuotaSettings {
        var q = QuotaSettings()
        q.chooseBundledTiers(model: model, litellmProvider: litellmProvider)
        return q
    }

    @Test("gpt-4o-mini plans against OpenAI's tiers, claude against Anthropic's, gemini against Gemini's")
    func byPrefix() {
        #expect(Self.tiers(model: "gpt-4o-mini").tiers == QuotaTier.openAI)
        #expect(Self.tiers(model: "gpt-4.1-mini").tiers == QuotaTier.openAI)
        #expect(Self.tiers(model: "claude-haiku-4-5").tiers == QuotaTier.anthropic)
        #expect(Self.tiers(model: "claude-3-5-haiku-20241022").tiers == QuotaTier.anthropic)
        #expect(Self.tiers(model: "gemini-2.5-flash").tiers == QuotaTier.gemini)
        #expect(Self.tiers(model: "gemini/gemini-2.5-flash").tiers == QuotaTier.gemini)
    }

    @Test("An unknown model gets no tiers, and the reason says so instead of borrowing Gemini's")
    func unknown() {
        let q = Self.tiers(model: "mistral-small")
        #expect(q.tiers.isEmpty)
        #expect(q.missingTiersReason(model: "mistral-small")?.contains("No quota tiers are bundled for `mistral-small`") == true)
        #expect(Self.tiers(model: "azure/gpt-4o-mini").tiers.isEmpty, "Azure's quotas are not OpenAI's")
    }

    @Test("The price table's litellm_provider decides over the name")
    func litellmProvider() throws {
        let json =
            #"{"gpt-4o-mini": {"input_cost_per_token": 1.5e-7, "output_cost_per_token": 6e-7, "litellm_provider": "openai"},"#
            + #" "my-proxy-model": {"input_cost_per_token": 1e-7, "output_cost_per_token": 1e-7, "litellm_provider": "anthropic"}}"#
        let prices = try PriceTable.decode(Data(json.utf8), file: "prices.json")
        #expect(prices.provider(for: "gpt-4o-mini") == "openai")
        var s = Scenario()
        s.api.model = "my-proxy-model"
        #expect(s.choosingTiers(prices: prices).quotas.tiers == QuotaTier.anthropic)
    }

    @Test("A scenario's own tiers always win")
    func ownTiersWin() throws {
        let own = QuotaTier(name: "mine", rpm: 7, tpm: nil, rpd: nil, readOn: "today", note: "")
        var s = Scenario()
        s.quotas.tiers = [own]
        s.api.model = "gpt-4o-mini"
        #expect(s.choosingTiers(prices: .bundled).quotas.tiers == [own])
        let decoded = try ScenarioLoader.decode(
            Data(#"{"api": {"model": "gpt-4o-mini"}, "quotas": {"tiers": [{"name": "mine", "rpm": 7, "readOn": "x", "note": ""}]}}"#.utf8))
        #expect(decoded.quotas.tiers.map(\.name) == ["mine"])
        let bundled = try ScenarioLoader.decode(Data(#"{"api": {"model": "claude-haiku-4-5"}}"#.utf8))
        #expect(bundled.quotas.tiers == QuotaTier.anthropic)
    }

    @Test("Every bundled tier is dated and names its source")
    func dated() {
        for table in ProviderTiers.bundled {
            for tier in table.tiers {
                #expect(tier.readOn.count == 10 && tier.readOn.hasPrefix("20"), "\(table.provider) \(tier.name)")
                #expect(!tier.note.isEmpty)
            }
        }
    }
}
