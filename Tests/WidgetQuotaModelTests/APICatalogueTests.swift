import Foundation
import Testing
import WidgetQuotaModel
import WidgetQuotaSupport
import WidgetQuotaTestSupport

/// The bundled plan catalogue: every entry is a valid, dated plan a scenario can select by name,
/// and a scenario's own pricing and tiers win over the entry's.
@Suite("API catalogue")
struct APICatalogueTests {
    static func load(_ json: String) throws -> Scenario {
        try ScenarioLoader.decode(Data(json.utf8), file: "s.json")
    }

    @Test("each entry is selectable by name, valid, and says where and when it was read", arguments: APICatalogue.names)
    func entries(name: String) throws {
        let entry = try #require(APICatalogue.entry(named: name))
        // A language-model entry plans for its provider's models.
        let model = ["openai": "gpt-4o-mini", "anthropic": "claude-haiku-4-5"][name].map { #", "model": "\#($0)""# } ?? ""
        let s = try Self.load(#"{"api": {"catalogue": "\#(name)"\#(model)}}"#)
        #expect(s.quotas.tiers == entry.tiers)
        #expect(s.api.pricing == entry.pricing)
        #expect(!entry.tiers.isEmpty)
        #expect(entry.tiers.allSatisfy { $0.readOn.count == 10 && $0.readOn.hasPrefix("20") }, "\(name)")
        if let pricing = entry.pricing {
            #expect(pricing.source.contains("read 20"), "\(name): \(pricing.source)")
            // A plan-billed API prices every volume its plans are for.
            #expect(pricing.pricePerUnit != nil || entry.tiers.allSatisfy(APIPricing.isPriced), "\(name)")
        }
        // The tiers are the entry's, not the scenario's, and printed and read again the same.
        #expect(s.quotas.catalogueEntry == name)
        #expect(!s.quotas.tiersFromScenario)
        #expect(try Self.load(ScenarioLoader.encode(s)).quotas.tiers == s.quotas.tiers)
    }

    @Test("the scenario's own pricing and tiers override the entry's")
    func overrides() throws {
        let own = try Self.load(
            #"{"api": {"catalogue": "weatherkit", "pricing": {"per": "request", "pricePerUnit": 0.002}}, "quotas": {"tiers": [{"name": "mine", "readOn": "2026-12-05", "rpm": 100}]}}"#
        )
        #expect(own.api.pricing?.pricePerUnit == 0.002)
        #expect(own.quotas.tiers.map(\.name) == ["mine"])
        let entry = try Self.load(#"{"api": {"catalogue": "twelve-data"}}"#)
        #expect(entry.api.pricing?.per == .credit)
        #expect(entry.quotas.tiers.map(\.name) == ["basic", "grow-55", "pro-1597"])
        #expect(entry.quotas.resetUTCOffsetHours == 0)
        // The model's provider does not replace the entry's plans.
        #expect(entry.choosingTiers(prices: PriceTable.bundled).quotas.tiers == entry.quotas.tiers)
    }

    @Test("an unknown name is refused with the nearest and the list")
    func unknown() {
        #expect {
            try Self.load(#"{"api": {"catalogue": "weatherkt"}}"#)
        } throws: { error in
            let text = "\(error)"
            return text.contains("api.catalogue") && text.contains("did you mean \"weatherkit\"") && text.contains("twelve-data")
        }
    }

    @Test("a printout's provider tiers beside another entry, and a model of another provider, are refused")
    func mismatches() throws {
        var printed = try #require(
            try JSONSerialization.jsonObject(with: Data(ScenarioLoader.encode(Scenario()).utf8)) as? [String: Any])
        var api = try #require(printed["api"] as? [String: Any])
        api["catalogue"] = "weatherkit"
        printed["api"] = api
        let text = String(decoding: try JSONSerialization.data(withJSONObject: printed), as: UTF8.self)
        #expect {
            try Self.load(text)
        } throws: { "\($0)".contains("quotas.tiers") && "\($0)".contains("delete quotas.tiers") }
        #expect {
            try Self.load(#"{"api": {"catalogue": "anthropic"}}"#)
        } throws: { "\($0)".contains("api.catalogue") && "\($0)".contains("gemini-2.5-flash") }
        #expect(try Self.load(#"{"api": {"catalogue": "anthropic", "model": "claude-haiku-4-5"}}"#).quotas.catalogueEntry == "anthropic")
    }
}
