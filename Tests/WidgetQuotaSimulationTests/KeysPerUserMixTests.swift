import Foundation
import Testing
import WidgetQuotaModel
import WidgetQuotaSimulation
import WidgetQuotaSimulationTestSupport
import WidgetQuotaTestSupport

/// Users who follow different numbers of keys (`content.keysPerUserMix`): each draws its count,
/// a fetch that sends a request per key sends that many, and what depends on the mean keys
/// (credits per request, distinct keys followed) takes the mix's mean.
@Suite("Keys per user mix")
struct KeysPerUserMixTests {
    /// Half follow one key, half nine: a mean of 5, E[k²] ÷ E[k] = 41 ÷ 5.
    static let mix: [SharedContent.KeysShare] = [.init(keys: 1, share: 0.5), .init(keys: 9, share: 0.5)]

    static func scenario(mix: Bool) -> Scenario {
        var s = TestSupport.smallScenario(users: [1_500], runs: 2, days: 7)
        s.content.keys = 50
        if mix { s.content.keysPerUserMix = Self.mix } else { s.content.keysPerUser = 5 }
        var d = DesignPresets.direct
        d.name = "per-key"
        d.requestPerKey = true
        s.designs = [d]
        return s
    }

    @Test("The mix's counts, mean and request-weighted keys")
    func moments() {
        var c = SharedContent()
        c.keys = 50
        c.keysPerUserMix = Self.mix
        #expect(c.meanKeysPerUser == 5 && c.maxKeysPerUser == 9)
        #expect(abs(c.requestWeightedKeys - 8.2) < 1e-12)
        #expect(c.keysFollowed(draw: 0) == 1 && c.keysFollowed(draw: 0.4999) == 1)
        #expect(c.keysFollowed(draw: 0.5) == 9 && c.keysFollowed(draw: 0.999_999) == 9)
        // The followed-key chance depends on the mean draws alone.
        var fixed = c
        fixed.keysPerUserMix = nil
        fixed.keysPerUser = 5
        #expect(c.followedKeys(users: 300) == fixed.followedKeys(users: 300))
    }

    /// The same users, fetches and failures (common random numbers): only each user's keys differ,
    /// drawn apart from every other trait. The totals agree within the standard error of
    /// Σ (k − 5) × f over the users, k independent of the fetches f; the spread of requests a
    /// user widens.
    @Test("A request per key: the mean matches the fixed count of the same mean, the spread a user widens")
    func requestPerKey() throws {
        let fixed = TestSupport.row(TestSupport.run(Self.scenario(mix: false), designs: ["per-key"]), "per-key")
        let mixed = TestSupport.row(TestSupport.run(Self.scenario(mix: true), designs: ["per-key"]), "per-key")
        let n = Double(fixed.users)
        // Fetches a user: a fixed user sends 5 requests a fetch. Var(k) = 16, and E[f²] is bounded
        // by the square of the 99th percentile of fetches (most users are below it).
        let f99 = fixed.requestsPerUserMonth.p99 / 5
        let se = (16 * f99 * f99 / n).squareRoot() / 2.squareRoot()  // two runs
        let gap = abs(mixed.requestsPerUserMonth.mean - fixed.requestsPerUserMonth.mean)
        #expect(gap <= 4 * se, "mean \(mixed.requestsPerUserMonth.mean) against \(fixed.requestsPerUserMonth.mean), 4 SE = \(4 * se)")
        #expect(mixed.requestsPerUserMonth.p95 > 1.4 * fixed.requestsPerUserMonth.p95)
        #expect(mixed.requestsPerUserMonth.p5 < 0.5 * fixed.requestsPerUserMonth.p5)
    }

    /// A plan of 12 credits a minute: one request for a 15-symbol watchlist breaks it alone, though
    /// requests at the mix's mean (2.4 credits) would need 6 in one minute, which 20 users of this
    /// widget almost never send. The first population with such a user breaks the tier, in the
    /// headroom and in the chance of breaking it alike.
    @Test("A request that carries more keys than a tier's credits a minute breaks it from the first user who sends one")
    func oversizedRequest() throws {
        let users = [1, 2, 3, 5, 10, 20]
        var s = Self.scenario(mix: true)
        s.content.keysPerUserMix = [.init(keys: 1, share: 0.9), .init(keys: 15, share: 0.1)]
        s.horizon.users = users
        s.horizon.sampleUsers = 20
        s.horizon.runs = 1
        s.designs[0].requestPerKey = false
        s.api.pricing = APIPricing(per: .credit, creditsPerKey: 1, pricePerUnit: 0.001)
        s.quotas.tiers = [
            QuotaTier(name: "basic", rpm: 12, tpm: nil, rpd: nil, readOn: "", note: ""),
            QuotaTier(name: "big", rpm: 100_000, tpm: nil, rpd: nil, readOn: "", note: ""),
        ]
        let result = TestSupport.run(s, designs: ["per-key"])
        let biggest = TestSupport.row(result, "per-key", users: 20)
        #expect(biggest.load.peakRequestsPerMinute.p95 < 5, "at the mean credits the load alone would fit")
        let headroom = try #require(result.headroom.first { $0.tier == "basic" })
        let maxUsers = try #require(headroom.maxUsers, "a tenth of the users follow 15 keys: one of the first 20 breaks basic")
        #expect(maxUsers < 20)
        for n in users {
            let row = TestSupport.row(result, "per-key", users: n)
            #expect((row.quota[0].rpmExceedProbability == 1) == (n > maxUsers), "\(n) users, headroom \(maxUsers)")
            #expect(row.requiredTier == (n > maxUsers ? "big" : "basic"))
        }
        // With every user on one key, no request is oversized.
        s.content.keysPerUserMix = [.init(keys: 1, share: 1)]
        let single = TestSupport.run(s, designs: ["per-key"])
        #expect(single.headroom.first { $0.tier == "basic" }?.maxUsers ?? .max > 20)
    }

    @Test("One request carrying every key costs the mix's mean credits")
    func creditsPerRequest() {
        var s = Self.scenario(mix: true)
        s.designs[0].requestPerKey = false
        s.api.pricing = APIPricing(per: .credit, creditsPerKey: 1, pricePerUnit: 0.001)
        #expect(s.unitsPerRequest(of: s.designs[0]) == 5)
        var backend = s.designs[0]
        backend.backend = BackendGeneration(regenerate: .onChange)
        #expect(s.unitsPerRequest(of: backend) == 1)
    }
}
