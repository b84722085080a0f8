import Foundation
import Testing
import WidgetQuotaModel
import WidgetQuotaTestSupport

/// Bills as a provider writes them: per request or credit, free allowances, plans with a fee,
/// an included volume and overage.
@Suite("API pricing")
struct APIPricingTests {
    static func plan(_ name: String, fee: Double? = nil, included: Double? = nil, overage: Double? = nil) -> QuotaTier {
        QuotaTier(
            name: name, rpm: nil, tpm: nil, rpd: nil, readOn: "2026-12-04", note: "", monthlyFee: fee, includedPerMonth: included,
            overagePerUnit: overage)
    }

    @Test("Paying as you go bills each day's units above the daily allowance, then the month's above the monthly one")
    func payAsYouGo() {
        var pricing = APIPricing(per: .request, pricePerUnit: 0.002, freePerDay: 80)
        // 20 + 0 + 220 above 80 a day.
        #expect(pricing.bill(dailyUnits: [100, 50, 300], monthlyUnits: 450, plan: nil) == 240 * 0.002)
        pricing.freePerMonth = 100
        #expect(pricing.bill(dailyUnits: [100, 50, 300], monthlyUnits: 450, plan: nil) == 140 * 0.002)
        // Part-days at the month's ends (units beyond the days listed) count as one more day: 20 + 10.
        let daily = APIPricing(per: .request, pricePerUnit: 0.002, freePerDay: 80)
        #expect(daily.bill(dailyUnits: [100], monthlyUnits: 190, plan: nil) == 30 * 0.002)
    }

    @Test("Within the allowances nothing is billed, even without a price; beyond them without a price nothing can be said")
    func unpriced() {
        let pricing = APIPricing(per: .request, freePerDay: 1_000)
        #expect(pricing.bill(dailyUnits: [999, 1_000], monthlyUnits: 1_999, plan: nil) == 0)
        #expect(pricing.bill(dailyUnits: [999, 1_001], monthlyUnits: 2_000, plan: nil) == nil)
    }

    @Test("A plan bills its fee, and beyond what it includes its overage (or the pricing's price per unit)")
    func plans() {
        let pricing = APIPricing(per: .credit, creditsPerRequest: 5, pricePerUnit: 0.02)
        #expect(pricing.bill(dailyUnits: [], monthlyUnits: 12_500, plan: Self.plan("Pro", fee: 79, included: 10_000, overage: 0.01)) == 104)
        #expect(pricing.bill(dailyUnits: [], monthlyUnits: 9_000, plan: Self.plan("Pro", fee: 79, included: 10_000, overage: 0.01)) == 79)
        #expect(pricing.bill(dailyUnits: [], monthlyUnits: 12_500, plan: Self.plan("Pro", fee: 79, included: 10_000)) == 79 + 2_500 * 0.02)
        // Flat plans limited only per minute include as much as their limits allow.
        #expect(pricing.bill(dailyUnits: [], monthlyUnits: 9e9, plan: Self.plan("Grow", fee: 229)) == 229)
        // A tier that bills nothing of its own is paid as you go.
        #expect(pricing.bill(dailyUnits: [10], monthlyUnits: 10, plan: Self.plan("Free")) == 10 * 0.02)
    }

    @Test("Beyond a plan's included volume with no overage price, the plan cannot carry the month")
    func capped() {
        let pricing = APIPricing(per: .request)
        let basic = Self.plan("Basic", fee: 0, included: 800 * 30)
        #expect(pricing.bill(dailyUnits: [], monthlyUnits: 24_000, plan: basic) == 0)
        #expect(pricing.bill(dailyUnits: [], monthlyUnits: 24_001, plan: basic) == nil)
    }

    @Test("More units never bill less", arguments: [nil, 1_000.0])
    func monotone(freePerDay: Double?) {
        let pricing = APIPricing(per: .request, pricePerUnit: 0.001, freePerDay: freePerDay ?? 0, freePerMonth: 500)
        var previous = 0.0
        for units in stride(from: 0.0, through: 40_000, by: 1_250) {
            let days = [Double](repeating: units / 30, count: 30)
            let bill = pricing.bill(dailyUnits: days, monthlyUnits: units, plan: nil) ?? -1
            #expect(bill >= previous)
            previous = bill
        }
    }

    /// Graduated bands as a maps API writes them: up to 100,000 at $0.005, to 500,000 at
    /// $0.004, beyond at $0.003.
    static let graduated = [
        APIPricing.VolumeTier(upTo: 100_000, pricePerUnit: 0.005), .init(upTo: 500_000, pricePerUnit: 0.004),
        .init(upTo: nil, pricePerUnit: 0.003),
    ]

    @Test("Volume tiers price each unit of the month at its band's price, after the allowances")
    func graduatedBands() throws {
        var pricing = APIPricing(per: .request, freePerMonth: 10_000)
        pricing.volumeTiers = Self.graduated
        let days = [Double](repeating: 20_000, count: 30)
        // 600,000 units, 590,000 billable: 100,000 × $0.005 + 400,000 × $0.004 + 90,000 × $0.003.
        let bill = try #require(pricing.bill(dailyUnits: days, monthlyUnits: 600_000, plan: nil))
        #expect(abs(bill - (500 + 1_600 + 270)) < 1e-6)
        // Within the first band, the first band's price.
        #expect(abs((pricing.bill(dailyUnits: [], monthlyUnits: 60_000, plan: nil) ?? -1) - 50_000 * 0.005) < 1e-9)
        // A last band with an end: units beyond it have no price.
        pricing.volumeTiers = [.init(upTo: 100_000, pricePerUnit: 0.005)]
        #expect(pricing.bill(dailyUnits: [], monthlyUnits: 200_000, plan: nil) == nil)
    }

    @Test("More units never bill less under volume tiers, and never more than at the first band's price")
    func graduatedMonotone() {
        var pricing = APIPricing(per: .request)
        pricing.volumeTiers = Self.graduated
        var previous = 0.0
        for units in stride(from: 0.0, through: 1_000_000, by: 12_500) {
            let bill = pricing.bill(dailyUnits: [], monthlyUnits: units, plan: nil) ?? -1
            #expect(bill >= previous && bill <= units * 0.005 + 1e-9)
            previous = bill
        }
    }

    @Test(
        "Volume tiers out of order, or open before the last, are refused naming the band",
        arguments: [
            (#"[{"upTo": 100, "pricePerUnit": 0.1}, {"upTo": 50, "pricePerUnit": 0.05}]"#, "api.pricing.volumeTiers[1].upTo"),
            (#"[{"pricePerUnit": 0.1}, {"upTo": 50, "pricePerUnit": 0.05}]"#, "api.pricing.volumeTiers[0].upTo"),
            (#"[]"#, "api.pricing.volumeTiers"),
            (#"[{"upTo": 100, "pricePerUnit": -1}]"#, "api.pricing.volumeTiers[0].pricePerUnit"),
        ])
    func badBands(json: String, field: String) {
        let text = #"{"api": {"pricing": {"per": "request", "volumeTiers": "# + json + "}}}"
        do {
            _ = try ScenarioLoader.decode(Data(text.utf8))
            Issue.record("accepted \(json)")
        } catch {
            #expect("\(error)".contains(field), "\(error)")
        }
    }

    @Test("A scenario names its pricing and its plans' prices")
    func decodes() throws {
        let s = try ScenarioLoader.decode(
            Data(
                #"""
                {"api": {"pricing": {"per": "credit", "creditsPerRequest": 5, "pricePerUnit": 0.001, "freePerDay": 800, "source": "a price page, read 2026-12-04"}},
                 "quotas": {"tiers": [{"name": "Grow", "readOn": "2026-12-04", "rpm": 377, "monthlyFee": 229, "includedPerMonth": 1000000, "overagePerUnit": 0.0005}]}}
                """#.utf8))
        #expect(
            s.api.pricing
                == APIPricing(
                    per: .credit, creditsPerRequest: 5, pricePerUnit: 0.001, freePerDay: 800, source: "a price page, read 2026-12-04"))
        #expect(
            s.quotas.tiers[0].monthlyFee == 229 && s.quotas.tiers[0].includedPerMonth == 1_000_000
                && s.quotas.tiers[0].overagePerUnit == 0.0005)
        #expect(try ScenarioLoader.decode(Data(ScenarioLoader.encode(s).utf8)) == s)
    }

    @Test("A schedule's keys are staggered unless the scenario says otherwise")
    func staggered() throws {
        let design = #"{"designs": [{"name": "b", "fetchTriggers": ["getTimeline"], "backend": {"regenerate": "every(2)"BODY}}]}"#
        let on = try ScenarioLoader.decode(Data(design.replacingOccurrences(of: "BODY", with: "").utf8))
        #expect(on.designs[0].backend?.staggered == true)
        let off = try ScenarioLoader.decode(Data(design.replacingOccurrences(of: "BODY", with: #", "staggered": false"#).utf8))
        #expect(off.designs[0].backend?.staggered == false)
        #expect(try ScenarioLoader.decode(Data(ScenarioLoader.encode(off).utf8)) == off)
    }

    @Test(
        "Impossible prices are refused with the field named",
        arguments: [
            (#"{"api": {"pricing": {"per": "request", "creditsPerRequest": 5}}}"#, "api.pricing.creditsPerRequest"),
            (#"{"api": {"pricing": {"per": "credit", "pricePerUnit": -1}}}"#, "api.pricing.pricePerUnit"),
            (#"{"api": {"pricing": {"per": "credit", "freePerDay": -5}}}"#, "api.pricing.freePerDay"),
            (#"{"api": {"pricing": {"per": "credit", "pricePerCredit": 1}}}"#, "api.pricing.pricePerCredit"),
            (#"{"quotas": {"tiers": [{"name": "x", "readOn": "d", "monthlyFee": -3}]}}"#, "quotas.tiers[0].monthlyFee"),
            (#"{"content": {"keys": 3, "keysPerUser": 5}}"#, "content.keysPerUser"),
            (#"{"content": {"keys": 30, "keysPerUser": 2, "keysPerUserMix": [{"keys": 1, "share": 1}]}}"#, "content.keysPerUserMix"),
            (#"{"content": {"keys": 30, "keysPerUserMix": [{"keys": 1, "share": 0.5}, {"keys": 5, "share": 0.4}]}}"#, "add up to 1"),
            (#"{"content": {"keys": 3, "keysPerUserMix": [{"keys": 5, "share": 1}]}}"#, "content.keysPerUserMix[0].keys"),
            (#"{"content": {"keys": 30, "keysPerUserMix": [{"keys": 2.5, "share": 1}]}}"#, "keysPerUserMix[0].keys"),
            (#"{"content": {"keys": 30, "keysPerUserMix": []}}"#, "content.keysPerUserMix"),
            (
                #"{"api": {"pricing": {"per": "request"}}, "quotas": {"tiers": [{"name": "x", "readOn": "d", "includedPerMonth": 0}]}}"#,
                "quotas.tiers[0].includedPerMonth"
            ),
            (#"{"quotas": {"tiers": [{"name": "x", "readOn": "d", "rph": 0}]}}"#, "quotas.tiers[0].rph"),
            (
                #"{"api": {"pricing": {"per": "request"}}, "quotas": {"tiers": [{"name": "hobby", "readOn": "d", "rph": 500}, {"name": "basic", "readOn": "d", "monthlyFee": 10}]}}"#,
                "quotas.tiers[0]"
            ),
        ])
    func refused(json: String, field: String) {
        #expect {
            try ScenarioLoader.decode(Data(json.utf8))
        } throws: { error in
            "\(error)".contains(field)
        }
    }
}
