import Foundation
import Testing
import WidgetQuotaModel
import WidgetQuotaReporting
import WidgetQuotaSimulation
import WidgetQuotaSimulationTestSupport
import WidgetQuotaStudies
import WidgetQuotaSupport
import WidgetQuotaTestSupport

/// The verdict: which limit decides the tier, and when, on cases built by hand.
@Suite("Verdict") struct VerdictTests {
    static let tiers = [
        QuotaTier(name: "small", rpm: 100, tpm: nil, rpd: 1_000, readOn: "test", note: ""),
        QuotaTier(name: "big", rpm: 1_000, tpm: nil, rpd: nil, readOn: "test", note: ""),
    ]

    static func spread(_ p95: Double) -> RunSpread { RunSpread(mean: p95 * 0.9, p5: p95 * 0.8, p50: p95 * 0.9, p95: p95, p99: p95) }

    /// A result with one row, `direct` at 5,000 users, whose tier, peaks and per-limit chances of
    /// breaking each tier (small, then big) are set by hand; an outage on day 5 from 15:00 UTC.
    static func result(
        tier: String?, perMinute: Double, perDay: Double, busiestDay: Int = 3,
        small: (rpm: Double, rpd: Double), big: Double
    ) -> SimulationResult {
        var r = ReportFixtures.result
        r.scenario.quotas.tiers = tiers
        r.scenario.api.outages = [Outage(day: 5, startHourUTC: 15, durationHours: 3, errorRate: 0.95)]
        r.method.runs = 20
        r.method.designs = ["direct"]
        r.method.baseline = "direct"
        var row = r.results[0]
        row.design = "direct"
        row.users = 5_000
        row.requiredTier = tier
        row.exceedsEveryTier = tier == nil
        row.load.peakRequestsPerMinute = spread(perMinute)
        row.load.peakRequestsPerQuotaDay = spread(perDay)
        row.load.busiestQuotaDay = busiestDay
        row.quota = [
            .init(
                tier: "small", exceedProbability: max(small.rpm, small.rpd), rpmExceedProbability: small.rpm, tpmExceedProbability: 0,
                rpdExceedProbability: small.rpd, rpmUtilizationP95: perMinute / 100, tpmUtilizationP95: nil,
                rpdUtilizationP95: perDay / 1_000),
            .init(
                tier: "big", exceedProbability: big, rpmExceedProbability: big, tpmExceedProbability: 0, rpdExceedProbability: 0,
                rpmUtilizationP95: perMinute / 1_000, tpmUtilizationP95: nil, rpdUtilizationP95: nil),
        ]
        r.results = [row]
        r.headroom = [
            .init(design: "direct", tier: "small", maxUsers: 800, largestPopulationSearched: 10_000_000, exceedProbabilityAtMax: 0),
            .init(design: "direct", tier: "big", maxUsers: 9_000, largestPopulationSearched: 10_000_000, exceedProbabilityAtMax: 0.05),
        ]
        return r
    }

    static func verdict(_ result: SimulationResult, withoutOutages: SimulationResult? = nil) throws -> Verdict {
        try #require(VerdictBuilder(result: result, withoutOutages: withoutOutages).all().first)
    }

    @Test("An hourly limit decides: the tier below's requests an hour, broken in the busiest clock hour")
    func hourlyLimitDecides() throws {
        var r = Self.result(tier: "big", perMinute: 80, perDay: 900, small: (rpm: 0, rpd: 0), big: 0)
        r.scenario.quotas.tiers[0].rph = 300
        r.results[0].load.peakRequestsPerHour = Self.spread(450)
        r.results[0].quota[0].rphExceedProbability = 0.9
        r.results[0].quota[0].exceedProbability = 0.9
        let v = try Self.verdict(r)
        #expect(v.decidingTier == "small" && v.decidingLimit == "requestsPerHour" && !v.limitHolds)
        #expect(v.decidingValue == 450 && v.limitValue == 300 && v.exceedProbability == 0.9)
        #expect(v.cause == "busiestHour")
        #expect(v.reason.contains("small's 300 requests an hour") && v.reason.contains("the busiest clock hour"), "\(v.reason)")
        // When: the typical day's busiest hour, as a per-minute limit names its busiest minute.
        let hours = try #require(r.typicalDay.first { $0.design == "direct" }?.requestsPerUserPerMinuteByHour)
        let top = try #require(hours.indices.max { hours[$0] != hours[$1] ? hours[$0] < hours[$1] : $0 > $1 })
        #expect(v.reason.contains("a typical day's is \(ReportFormat.clock(minutes: Double(top * 60)))–"), "\(v.reason)")
        // Within reach: a third fewer requests in the busiest hour would fit, more than the 25% the advice offers.
        r.results[0].load.peakRequestsPerHour = Self.spread(350)
        let near = try Self.verdict(r)
        #expect(near.advice.contains("in the busiest hour"), "\(near.advice)")
    }

    @Test("A plan's included volume without overage decides: the month's total against it, in the unit billed")
    func includedVolumeDecides() throws {
        var r = Self.result(tier: "big", perMinute: 80, perDay: 900, small: (rpm: 0, rpd: 0), big: 0)
        r.scenario.api.pricing = APIPricing(per: .request)
        r.scenario.quotas.tiers[0].monthlyFee = 0
        r.scenario.quotas.tiers[0].includedPerMonth = 20_000
        r.scenario.quotas.tiers[1].monthlyFee = 29
        var cost = DesignResult.Cost(
            model: "per request", inputCostPerToken: 0, outputCostPerToken: 0, perMonth: Self.spread(29), perUserMonth: 0.0058,
            priceSource: "test")
        cost.unitsPerMonth = Self.spread(25_000)
        r.results[0].cost = cost
        r.results[0].quota[0].monthlyVolumeExceedProbability = 1
        r.results[0].quota[0].monthlyVolumeUtilizationP95 = 1.25
        r.results[0].quota[0].exceedProbability = 1
        let v = try Self.verdict(r)
        #expect(v.decidingTier == "small" && v.decidingLimit == "requestsPerMonth" && !v.limitHolds)
        #expect(v.decidingValue == 25_000 && v.limitValue == 20_000 && v.cause == "monthlyVolume")
        #expect(
            v.reason.contains("small's 20,000 requests a month are exceeded in all 20 runs: the month's total reaches 25,000"),
            "\(v.reason)")
        // With no plan to carry the month there is no cost: the total comes from the tier's use of its volume.
        r.results[0].cost = nil
        #expect(try Self.verdict(r).decidingValue == 25_000)
        // A plan that bills overage has no monthly cap: the month never decides.
        r.scenario.quotas.tiers[0].overagePerUnit = 0.001
        #expect(try Self.verdict(r).decidingLimit != "requestsPerMonth")
    }

    @Test("A credit limit broken by one long watchlist's request says so")
    func oversizedRequestSaysSo() throws {
        var r = Self.result(tier: "big", perMinute: 20, perDay: 900, small: (rpm: 0.95, rpd: 0), big: 0)
        r.scenario.api.pricing = APIPricing(per: .credit, creditsPerKey: 1, pricePerUnit: 0.001)
        r.scenario.content.keys = 500
        r.scenario.content.keysPerUserMix = [.init(keys: 1, share: 0.99), .init(keys: 150, share: 0.01)]
        let v = try Self.verdict(r)
        #expect(v.decidingLimit == "requestsPerMinute" && !v.limitHolds)
        #expect(v.reason.contains("one request for the longest watchlist (150 keys) costs 150 credits"), "\(v.reason)")
        r.scenario.content.keysPerUserMix = [.init(keys: 1, share: 0.99), .init(keys: 50, share: 0.01)]
        #expect(try !Self.verdict(r).reason.contains("longest watchlist"))
    }

    @Test("A daily limit decides: the tier below's requests a day, broken on the busiest quota day")
    func dailyLimitDecides() throws {
        let r = Self.result(tier: "big", perMinute: 80, perDay: 1_500, small: (rpm: 0, rpd: 0.95), big: 0)
        let v = try Self.verdict(r)
        #expect(v.tier == "big" && !v.exceedsEveryTier)
        #expect(v.decidingTier == "small" && v.decidingLimit == "requestsPerDay" && !v.limitHolds)
        #expect(v.decidingValue == 1_500 && v.limitValue == 1_000 && v.exceedProbability == 0.95)
        #expect(v.cause == "busiestQuotaDay" && v.busiestQuotaDay == 3)
        #expect(
            v.reason
                == "small's 1,000 requests a day are exceeded in 19 of 20 runs: the busiest quota day (most often day 3) reaches 1,500.")
        // A third fewer requests is not within reach: the advice is the tier's headroom.
        #expect(v.advice == "big holds up to 9,000 users; beyond that no published tier is enough.")
    }

    @Test("A daily limit within reach, on the outage's quota day, says how many fewer requests would fit the cheaper tier")
    func dailyLimitWithinReach() throws {
        let r = Self.result(tier: "big", perMinute: 80, perDay: 1_100, busiestDay: 5, small: (rpm: 0, rpd: 0.5), big: 0)
        // Without the outage the busiest day is 200 requests lower: the outage decides it, and is named.
        let calm = Self.result(tier: "big", perMinute: 80, perDay: 900, busiestDay: 5, small: (rpm: 0, rpd: 0.5), big: 0)
        let v = try Self.verdict(r, withoutOutages: calm)
        #expect(v.reason.contains("the busiest quota day (most often day 5, the outage's) reaches 1,100"))
        #expect(v.advice.hasPrefix("Within reach of small: 9% fewer requests on the busiest day would fit it"), "\(v.advice)")
        // Removing it changes nothing, or nothing is known without it: the outage is not named.
        for other in [r, nil] {
            let plain = try Self.verdict(r, withoutOutages: other)
            #expect(plain.reason.contains("the busiest quota day (most often day 5) reaches 1,100"), "\(plain.reason)")
        }
    }

    @Test("The busiest minute decides over a daily limit broken in fewer runs")
    func theLimitBrokenInMostRunsDecides() throws {
        let v = try Self.verdict(Self.result(tier: "big", perMinute: 400, perDay: 1_200, small: (rpm: 1, rpd: 0.6), big: 0))
        #expect(v.decidingLimit == "requestsPerMinute" && v.decidingValue == 400 && v.limitValue == 100)
        #expect(v.cause == "busiestMinute" && v.typicalPeakMinuteUTC != nil && v.busiestQuotaDay == nil)
        #expect(
            v.reason.hasPrefix("small's 100 requests a minute are exceeded in all 20 runs: the busiest minute (a typical day peaks at "))
    }

    @Test("An outage that raises the tier: the verdict shows the tier with and without it")
    func outageRaisesTheTier() throws {
        let stormy = Self.result(tier: nil, perMinute: 2_500, perDay: 500, small: (rpm: 1, rpd: 0), big: 1)
        let calm = Self.result(tier: "big", perMinute: 600, perDay: 480, small: (rpm: 1, rpd: 0), big: 0)
        let v = try Self.verdict(stormy, withoutOutages: calm)
        #expect(v.tier == nil && v.exceedsEveryTier)
        #expect(v.cause == "outage" && v.tierWithoutOutage == "big" && v.exceedsEveryTierWithoutOutage == false)
        #expect(v.decidingTier == "big" && v.decidingLimit == "requestsPerMinute")
        #expect(v.decidingValue == 2_500 && v.limitValue == 1_000 && v.decidingValueWithoutOutage == 600)
        #expect(
            v.reason.contains("big's 1,000 requests a minute are exceeded in all 20 runs because of the outage on day 5, 15:00–18:00 UTC"))
        #expect(v.reason.contains("; without it, the busiest minute is 600 and big holds"))
        #expect(v.advice.hasPrefix("No published tier absorbs the outage, though big is enough on ordinary days"))
        #expect(v.advice.contains("agree a higher limit with the provider"))
    }

    @Test("An outage that costs one tier names the tier kept without it")
    func outageCostsOneTier() throws {
        let stormy = Self.result(tier: "big", perMinute: 300, perDay: 500, small: (rpm: 1, rpd: 0), big: 0)
        let calm = Self.result(tier: "small", perMinute: 90, perDay: 480, small: (rpm: 0, rpd: 0), big: 0)
        let v = try Self.verdict(stormy, withoutOutages: calm)
        #expect(v.tier == "big" && v.tierWithoutOutage == "small" && v.cause == "outage")
        #expect(v.advice.hasPrefix("The outage costs a tier: small is enough on ordinary days"))
        #expect(v.advice.hasSuffix("otherwise plan for big."))
        // `direct` retries at its next reload: the catch-up is what to spread, not retries.
        #expect(v.advice.contains("spread the catch-up after an outage (a random delay before the first fetch after a failed one"))
        #expect(!v.advice.contains("backoff"))
    }

    @Test(
        "A design that retries at once after an outage is told to jitter its backoff, or to space it out when it is jittered",
        arguments: [
            (false, "To keep it, add jitter to the backoff of the retries after an outage;"), (true, "further apart, or retry fewer times"),
        ])
    func outageAdviceFollowsTheRetry(jitter: Bool, advice: String) throws {
        var stormy = Self.result(tier: "big", perMinute: 300, perDay: 500, small: (rpm: 1, rpd: 0), big: 0)
        var calm = Self.result(tier: "small", perMinute: 90, perDay: 480, small: (rpm: 0, rpd: 0), big: 0)
        var retrying = try #require(stormy.scenario.availableDesigns.first { $0.name == "direct" })
        retrying.retry = .backoff(maxRetries: 3, baseSeconds: 2, jitter: jitter)
        stormy.scenario.designs = [retrying]
        calm.scenario.designs = [retrying]
        let v = try Self.verdict(stormy, withoutOutages: calm)
        #expect(v.cause == "outage")
        #expect(v.advice.contains(advice), "\(v.advice)")
        #expect(!v.advice.contains("catch-up"))
    }

    @Test("No tier is enough, outage or not: the verdict says what that means")
    func noTierIsEnough() throws {
        let stormy = Self.result(tier: nil, perMinute: 3_000, perDay: 500, small: (rpm: 1, rpd: 0), big: 1)
        let calm = Self.result(tier: nil, perMinute: 2_900, perDay: 480, small: (rpm: 1, rpd: 0), big: 1)
        let v = try Self.verdict(stormy, withoutOutages: calm)
        #expect(v.tier == nil && v.exceedsEveryTier && v.tierWithoutOutage == nil && v.exceedsEveryTierWithoutOutage == true)
        #expect(v.cause == "busiestMinute" && v.decidingTier == "big")
        #expect(v.advice.hasPrefix("No published tier is enough: the busiest minute is 3.00× big's 1,000 requests a minute"))
        #expect(v.advice.contains("talk to the provider") && v.advice.contains("change the design"))
        let section = VerdictSection(result: stormy, verdicts: [v], comparedWithoutOutages: true)
        #expect(section.markdown().contains("- **5,000 users: above big (no published tier is enough)**"))
    }

    @Test("The cheapest tier's closest limit holds")
    func cheapestTierHolds() throws {
        let v = try Self.verdict(Self.result(tier: "small", perMinute: 20, perDay: 900, small: (rpm: 0, rpd: 0), big: 0))
        #expect(v.limitHolds && v.decidingTier == "small" && v.decidingLimit == "requestsPerDay")
        #expect(v.reason == "small is enough: the busiest quota day reaches 900 of its 1,000 requests a day, its closest limit.")
        #expect(v.advice == "small holds up to 800 users; beyond that plan for big.")
    }

    @Test("report.md leads with the verdict; report.json lists one verdict per result row; the CSV has its columns")
    func verdictInEveryFormat() throws {
        let report = ReportFixtures.report
        let md = report.markdown()
        let verdict = try #require(md.range(of: "## Verdict"))
        let summary = try #require(md.range(of: "## In 30 seconds"))
        #expect(verdict.lowerBound < summary.lowerBound)
        for design in ReportFixtures.designs { #expect(md[verdict.lowerBound..<summary.lowerBound].contains("### \(design)")) }
        let json = try JSONValue.parse(Data(try report.json().utf8), file: "report.json")
        let verdicts = try #require(json["verdicts"]?.array)
        #expect(verdicts.count == report.result.results.count)
        for key in ["design", "users", "decidingTier", "decidingLimit", "decidingValue", "limitValue", "cause", "reason", "advice"] {
            #expect(verdicts.allSatisfy { $0[key] != nil }, "every verdict has \(key)")
        }
        let header = try #require(report.csv().split(whereSeparator: \.isNewline).first)
        // The verdict's columns, then the columns added after them; only the tiers' follow.
        let tiers = report.result.scenario.quotas.tiers.map { ",exceed_probability_" + $0.name }.joined()
        #expect(
            header.hasSuffix(
                ",verdict_deciding_tier,verdict_deciding_limit,verdict_deciding_value,verdict_limit_value,"
                    + "verdict_exceed_probability,verdict_cause,verdict_tier_without_outage,verdict_deciding_value_without_outage,"
                    + "older_than_ttl_glance_share,backend_requests_per_day_mean,backend_peak_rpm_mean,backend_cost_per_month,"
                    + "push_delivered_share,peak_rph_p95" + tiers))
    }
}

/// A verdict on an API billed per credit speaks in credits, as its limits do.
@Suite("Verdict in credits")
struct CreditVerdictTests {
    @Test("The deciding peak and the limit are both credits, c credits a request")
    func creditsVerdict() throws {
        var s = TestSupport.smallScenario(users: [2_000], runs: 4, days: 7, sample: 500)
        s.api.pricing = APIPricing(per: .credit, creditsPerRequest: 5)
        s.quotas.tiers = [
            QuotaTier(name: "Small", rpm: 10, tpm: nil, rpd: nil, readOn: "2026-12-04", note: "", monthlyFee: 10),
            QuotaTier(name: "Large", rpm: 100_000, tpm: nil, rpd: nil, readOn: "2026-12-04", note: "", monthlyFee: 100),
        ]
        let result = TestSupport.run(s, designs: ["direct"])
        let row = TestSupport.row(result, "direct")
        let v = try #require(VerdictBuilder(result: result, withoutOutages: nil).all().first)
        #expect(v.tier == "Large" && v.decidingTier == "Small" && v.decidingLimit == "requestsPerMinute")
        let peak = try #require(v.decidingValue)
        #expect(abs(peak - 5 * row.load.peakRequestsPerMinute.p95) <= 1e-9 * peak)
        #expect(v.limitValue == 10)
        #expect(v.reason.contains("10 credits a minute"), "\(v.reason)")
    }
}

/// Watchlists of different lengths on an API billed per key: the verdict says that a request
/// counts at the mix's mean credits, and how much more a minute's credits vary.
@Suite("Verdict with a mix of watchlists")
struct MeanCreditsNoteTests {
    static func section(mix: [SharedContent.KeysShare]?, requestPerKey: Bool = false) -> VerdictSection {
        var r = VerdictTests.result(tier: "big", perMinute: 100, perDay: 1_000, small: (1, 0), big: 0)
        r.scenario.api.pricing = APIPricing(per: .credit, creditsPerKey: 2, pricePerUnit: 0.001)
        r.scenario.content.keys = 100
        r.scenario.content.keysPerUserMix = mix
        var direct = DesignPresets.direct
        direct.requestPerKey = requestPerKey
        r.scenario.designs = [direct]
        return VerdictSection(result: r, verdicts: [], comparedWithoutOutages: false)
    }

    @Test(
        "Half one key, half nine: 10 credits at the mean, and ±8% at a busiest minute of 100 requests (a coefficient of variation of 0.8 ÷ √100)"
    )
    func noteStatesTheSpread() throws {
        let note = try #require(Self.section(mix: [.init(keys: 1, share: 0.5), .init(keys: 9, share: 0.5)]).meanCreditsNote)
        #expect(note.contains("10 credits"), "\(note)")
        #expect(note.contains("1 to 9 keys") && note.contains("±8%") && note.contains("100 requests"), "\(note)")
        #expect(Self.section(mix: [.init(keys: 1, share: 0.5), .init(keys: 9, share: 0.5)]).markdown().contains(note))
    }

    @Test("No note without a mix, or for a design that sends a request per key")
    func noNote() {
        #expect(Self.section(mix: nil).meanCreditsNote == nil)
        #expect(Self.section(mix: [.init(keys: 1, share: 0.5), .init(keys: 9, share: 0.5)], requestPerKey: true).meanCreditsNote == nil)
    }
}

/// The report's table of key groups: each group's keys, hours, changes, followers and followed keys.
@Suite("Key groups in the report")
struct KeyGroupReportTests {
    @Test("Each group has a row: its hours or every hour, its change factor, the share of users who follow one, and its followed keys")
    func table() throws {
        var r = VerdictTests.result(tier: "big", perMinute: 100, perDay: 1_000, small: (1, 0), big: 0)
        r.scenario.content.keys = 3_000
        r.scenario.content.keysPerUser = 5
        r.scenario.content.groups = [
            .init(name: "stocks", keys: 2_700, hours: OpenHours(holidays: ["2027-03-26"])),
            .init(name: "crypto", keys: 300, dataChanges: 3.7),
        ]
        let md = try #require(SharedContentSection(result: r).markdown())
        #expect(md.contains("| stocks | 2,700 | 09:30–16:00 America/New_York, weekdays, 1 holiday |"), "\(md)")
        #expect(md.contains("| crypto | 300 | at every hour | 3.7× |"), "\(md)")
        // The coins hold 8.4% of the follows: 1 − (1 − 0.0844)^5 of the users follow one.
        #expect(md.contains("| 36% |"), "\(md)")
        r.scenario.content.groups = nil
        #expect(SharedContentSection(result: r).markdown()?.contains("Key groups") != true)
    }
}
