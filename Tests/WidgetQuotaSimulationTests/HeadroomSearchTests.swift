import Testing
import WidgetQuotaModel
import WidgetQuotaSimulation
import WidgetQuotaSimulationTestSupport
import WidgetQuotaTestSupport

/// The closed-form headroom search must find what a bisection over whole projected series finds.
@Suite("headroom search") struct HeadroomSearchTests {
    static func projection(design: String, outage: Bool, sample: Int) -> (LoadProjection, SimulationModel) {
        var s = TestSupport.smallScenario(users: [sample], runs: 1, days: 6, sample: sample)
        if outage { s.api.outages = [Outage(day: 3, startHourUTC: 9, durationHours: 2, errorRate: 0.9)] }
        let index = s.availableDesigns.firstIndex { $0.name == design }!
        let model = SimulationModel(
            scenario: s, design: s.availableDesigns[index], run: 0,
            parameters: RunParameters.draw(s, run: 0))
        // The sample's per-minute counts, as the engine collects them.
        var buckets = [Int32](repeating: 0, count: model.countedMinutes)
        let workspace = SimulationWorkspace(model: model)
        buckets.withUnsafeMutableBufferPointer { b in
            for user in 0..<sample {
                var sim = UserSimulator(model: model, user: user, observer: NoObserver(), workspace: workspace)
                sim.collected.buckets = b.baseAddress
                sim.run()
            }
        }
        return (LoadProjection(sample: buckets, sampleUsers: sample, model: model), model)
    }

    static let tiers: [QuotaTier] =
        [
            QuotaTier(name: "rpm", rpm: 7, tpm: nil, rpd: nil, readOn: "", note: ""),
            QuotaTier(name: "rpm-frac", rpm: 250.5, tpm: nil, rpd: nil, readOn: "", note: ""),
            QuotaTier(name: "tpm", rpm: nil, tpm: 123_457, rpd: nil, readOn: "", note: ""),
            QuotaTier(name: "rpd", rpm: nil, tpm: nil, rpd: 40_000, readOn: "", note: ""),
            QuotaTier(name: "rpd-huge", rpm: nil, tpm: nil, rpd: 9e9, readOn: "", note: ""),
            QuotaTier(name: "rph", rpm: nil, tpm: nil, rph: 2_500, rpd: nil, readOn: "", note: ""),
            QuotaTier(name: "rph-rpd", rpm: 400, tpm: nil, rph: 9_000.5, rpd: 40_000, readOn: "", note: ""),
            QuotaTier(name: "none", rpm: nil, tpm: nil, rpd: nil, readOn: "", note: ""),
            QuotaTier(name: "zero", rpm: 0, tpm: nil, rpd: nil, readOn: "", note: ""),
        ] + QuotaTier.gemini

    @Test("agrees with bisection", arguments: ["direct", "cache-bgtask", "poll-30m-aligned", "direct-poll-15m"], [false, true])
    func agreesWithBisection(design: String, outage: Bool) {
        let (projection, model) = HeadroomSearchTests.projection(design: design, outage: outage, sample: 60)
        for tier in HeadroomSearchTests.tiers {
            for above in [60, 5_000] {
                let fast = projection.firstExceeding(
                    tier: tier, tokensPerRequest: 65, above: above,
                    largest: MonteCarloEngine.largestPopulation, model: model)
                let reference = MonteCarloEngine.firstExceeding(
                    tier: tier, projection: projection, model: model,
                    above: above, tokens: 65)
                #expect(
                    fast == reference,
                    "\(design) \(tier.name) above \(above): \(String(describing: fast)) vs \(String(describing: reference))")
            }
        }
    }

    @Test("minute threshold is the smallest breaking count") func minuteThresholdIsTheSmallestBreakingCount() {
        for tier in HeadroomSearchTests.tiers {
            guard let c = LoadProjection.minuteThreshold(tier: tier, tokensPerRequest: 65) else {
                #expect(tier.rpm == nil && tier.tpm == nil)
                continue
            }
            func breaks(_ n: Int) -> Bool {
                tier.isExceeded(.init(perMinute: Double(n), perHour: 0, quotaDay: 0), tokensPerRequest: 65)
            }
            #expect(breaks(c))
            #expect(c == 0 || !breaks(c - 1))
        }
    }
}
