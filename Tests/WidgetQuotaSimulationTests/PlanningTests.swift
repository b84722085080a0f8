import Foundation
import Testing
import WidgetQuotaModel
import WidgetQuotaSimulation
import WidgetQuotaSimulationTestSupport
import WidgetQuotaSupport
import WidgetQuotaTestSupport

/// Quotas, headroom, cost, synchronisation and outages: the relations issue 4 promises.
@Suite("planning") struct PlanningTests {
    @Test("direct breaks the free tier at a thousand users and the cache has more headroom")
    func directBreaksTheFreeTierAtAThousandUsersAndTheCacheHasMoreHeadroom() {
        var s = TestSupport.smallScenario(users: [1_000], runs: 4, days: 10, sample: 300)
        s.quotas.tiers = [QuotaTier.gemini[0]]
        let result = TestSupport.run(s, designs: ["direct", "cache-bgtask"])
        let direct = TestSupport.row(result, "direct")
        #expect(direct.quota[0].rpdExceedProbability == 1)
        let directRoom = result.headroom.first { $0.design == "direct" }!.maxUsers!
        let cacheRoom = result.headroom.first { $0.design == "cache-bgtask" }!.maxUsers!
        #expect(directRoom < 1_000)
        #expect(cacheRoom > directRoom * 4, "cache-bgtask \(cacheRoom) vs direct \(directRoom)")
    }

    /// The search must agree with checking every population size one by one.
    @Test("headroom search matches brute force") func headroomSearchMatchesBruteForce() {
        let sizes = Array(1...40)
        var s = TestSupport.smallScenario(users: sizes, runs: 10, days: 5, sample: 40)
        s.quotas.tiers = [QuotaTier(name: "tiny", rpm: 6, tpm: nil, rpd: 300, readOn: "test", note: "test")]
        s.quotas.acceptableRisk = 0.2
        let result = TestSupport.run(s, designs: ["direct"])
        let bruteForce = sizes.filter { n in TestSupport.row(result, "direct", users: n).quota[0].exceedProbability <= 0.2 }.max()
        let searched = result.headroom[0].maxUsers
        #expect(bruteForce != nil && bruteForce! < 40, "the case must put the answer inside the range")
        #expect(searched == bruteForce)
        #expect(result.headroom[0].exceedProbabilityAtMax <= 0.2)
    }

    @Test("headroom is monotone in the limit") func headroomIsMonotoneInTheLimit() {
        var s = TestSupport.smallScenario(users: [100], runs: 6, days: 7, sample: 100)
        s.quotas.tiers = [300.0, 3_000, 30_000].map { QuotaTier(name: "rpd\(Int($0))", rpm: nil, tpm: nil, rpd: $0, readOn: "", note: "") }
        let rooms = TestSupport.run(s, designs: ["cache-bgtask"]).headroom.map { $0.maxUsers ?? Int.max }
        #expect(rooms[0] < rooms[1] && rooms[1] < rooms[2], "\(rooms)")
        // Ten times the daily limit, about ten times the users (beyond the sample, by projection).
        #expect(abs(Double(rooms[2]) / Double(rooms[1]) - 10) < 1.5, "\(rooms)")
    }

    /// Every device asks at :00 and :30; WidgetKit's lateness after the date spreads them over
    /// minutes (an exponential of mean L has a density 30 ÷ L times the jitter's uniform 30
    /// minutes at its start), so the stampede stays, smaller the later WidgetKit runs reloads.
    @Test("aligned refreshes peak far higher for the same total", arguments: [(0.0, 3.0), (nil, 1.8)])
    func alignedRefreshesPeakFarHigherForTheSameTotal(latenessMinutes: Double?, factor: Double) {
        var s = TestSupport.smallScenario(users: [2_000], runs: 2, days: 7, sample: 400)
        s.api.outages = []
        if let latenessMinutes { s.platform.policyLatenessMinutes = .fixed(latenessMinutes) }
        let result = TestSupport.run(s, designs: ["poll-30m-aligned", "poll-30m-jittered"])
        let aligned = TestSupport.row(result, "poll-30m-aligned")
        let jittered = TestSupport.row(result, "poll-30m-jittered")
        #expect(
            aligned.load.peakToMeanRatio > factor * jittered.load.peakToMeanRatio,
            "\(aligned.load.peakToMeanRatio) vs \(jittered.load.peakToMeanRatio)")
        let totals = aligned.totalRequestsPerMonth.mean / jittered.totalRequestsPerMonth.mean
        #expect(abs(totals - 1) < 0.02, "totals differ: \(totals)")
    }

    @Test("during an outage direct shows errors and the cache shows its last content")
    func duringAnOutageDirectShowsErrorsAndTheCacheShowsItsLastContent() {
        var s = TestSupport.smallScenario(users: [200], runs: 2, days: 7)
        s.population.neverOpenShare = 0  // nobody stays on the placeholder forever
        s.api.outages = [Outage(day: 3, startHourUTC: 8, durationHours: 6, errorRate: 1)]
        let result = TestSupport.run(s, designs: ["direct", "cache-bgtask"])
        let direct = TestSupport.row(result, "direct").freshness
        let cache = TestSupport.row(result, "cache-bgtask").freshness
        #expect((direct.outageErrorShare ?? 0) > 0.5, "direct: \(String(describing: direct.outageErrorShare))")
        #expect((cache.outageErrorShare ?? 1) < 0.02, "cache: \(String(describing: cache.outageErrorShare))")
        #expect(TestSupport.row(result, "cache-bgtask").outage != nil)
    }

    @Test("immediate retries add requests that waiting for the next opportunity does not")
    func immediateRetriesAddRequestsThatWaitingForTheNextOpportunityDoesNot() {
        func extra(_ retry: Design.Retry) -> Double {
            var s = TestSupport.smallScenario(users: [300], runs: 2, days: 5)
            s.api.outages = [Outage(day: 2, startHourUTC: 12, durationHours: 2, errorRate: 1)]
            var d = DesignPresets.direct
            d.name = "direct-retry"
            d.retry = retry
            s.designs = [d]
            return TestSupport.row(TestSupport.run(s, designs: ["direct-retry"]), "direct-retry").outage!.extraRequestsPerUserMonth
        }
        let waiting = extra(.nextOpportunity)
        let retrying = extra(.backoff(maxRetries: 4, baseSeconds: 30, jitter: true))
        #expect(abs(waiting) < 0.05, "the Gemini widget report's design adds nothing: \(waiting)")
        #expect(retrying > 1, "each failed getTimeline retries up to four times: \(retrying)")
    }

    @Test("cost follows requests and prices") func costFollowsRequestsAndPrices() throws {
        var s = TestSupport.smallScenario(users: [100])
        s.api.inputTokensPerRequest = 100
        s.api.outputTokensPerRequest = 50
        s.api.failureProbability = 0
        s.api.outages = []
        let price = PriceTable.Price(inputCostPerToken: 1e-6, outputCostPerToken: 1e-5)
        let prices = PriceTable(prices: ["gemini-2.5-flash": price], source: "test")
        let designs = ["direct", "cache-bgtask"].map { DesignPresets.named($0)! }
        let result = MonteCarloEngine(scenario: s, designs: designs, threads: 2, prices: prices).run()
        for r in result.results {
            let expected = r.totalRequestsPerMonth.mean * (100 * 1e-6 + 50 * 1e-5)
            #expect(abs(r.cost!.perMonth.mean - expected) < 1e-9 * max(1, expected))
        }
        #expect(TestSupport.row(result, "cache-bgtask").cost!.perMonth.mean < TestSupport.row(result, "direct").cost!.perMonth.mean / 5)
    }

    @Test("lite LLM price files are read as is") func liteLLMPriceFilesAreReadAsIs() throws {
        let json = #"""
            {"sample_spec": {"max_tokens": "set to max_output_tokens if provider specifies it"},
             "gemini/gemini-2.5-flash": {"input_cost_per_token": 3e-07, "output_cost_per_token": 2.5e-06, "litellm_provider": "gemini"},
             "gpt-image-1": {"input_cost_per_image": 0.04}}
            """#
        let table = try PriceTable.decode(Data(json.utf8), file: "prices.json")
        let price = try table.price(for: "gemini-2.5-flash")
        #expect(price.inputCostPerToken == 3e-7)
        #expect(throws: WidgetQuotaError.self) { try table.price(for: "gemini-9") }
        #expect(throws: WidgetQuotaError.self) { try PriceTable.decode(Data("[]".utf8), file: "x.json") }
    }

    /// A price whose month would print $Infinity is a unit mistake, refused with the unit.
    @Test("A price of true is refused, never read as $1 a token")
    func booleanPrice() {
        for key in ["input_cost_per_token", "output_cost_per_token"] {
            let other = key == "input_cost_per_token" ? "output_cost_per_token" : "input_cost_per_token"
            let json = "{\"m\": {\"\(key)\": true, \"\(other)\": 1e-6}}"
            #expect {
                try PriceTable.decode(Data(json.utf8), file: "prices.json")
            } throws: { error in
                "\(error)".contains("m: \(key) must be a number of dollars, got true")
            }
        }
    }

    @Test("a price beyond any model's is refused") func aPriceBeyondAnyModelsIsRefused() {
        let json = #"{"m": {"input_cost_per_token": 1e308, "output_cost_per_token": 1e-6}}"#
        #expect {
            _ = try PriceTable.decode(Data(json.utf8), file: "prices.json")
        } throws: { error in
            "\(error)".contains("m: a cost of 1e+308 $ a token is beyond any model's") && "\(error)".contains("dollars per token")
        }
        #expect(
            (try? PriceTable.decode(Data(#"{"m": {"input_cost_per_token": 1, "output_cost_per_token": 0.5}}"#.utf8), file: "p.json")) != nil
        )
    }
}
