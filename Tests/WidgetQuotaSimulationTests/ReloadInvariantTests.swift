import Foundation
import Testing
import WidgetQuotaModel
import WidgetQuotaSimulation
import WidgetQuotaSimulationTestSupport
import WidgetQuotaSupport
import WidgetQuotaTestSupport

/// What must hold of getTimeline whatever the numbers: relations between runs that differ in one
/// thing (same seed, so the same users), and what Apple documents of the reload policy.
@Suite("Reload invariants")
struct ReloadInvariantTests {
    /// A scenario with one design of its own, `design`, under the name "probe".
    static func scenario(_ design: Design, users: Int = 300, days: Int = 10, _ change: (inout Scenario) -> Void = { _ in }) -> Scenario {
        var s = TestSupport.smallScenario(users: [users], runs: 2, days: days)
        var d = design
        d.name = "probe"
        s.designs = [d]
        change(&s)
        return s
    }

    static func probe(_ s: Scenario) -> DesignResult {
        TestSupport.row(TestSupport.run(s, designs: ["probe"]), "probe")
    }

    static func withPolicy(_ base: Design, _ policy: Design.ReloadPolicy) -> Design {
        var d = base
        d.reloadPolicy = policy
        return d
    }

    /// The policy gives the earliest date of the next reload: asking later never yields more.
    @Test("a longer policy never yields more getTimeline calls", arguments: ["direct", "cache-bgtask"])
    func longerPolicyNeverYieldsMore(design: String) throws {
        let base = try #require(DesignPresets.named(design))
        let calls = [15.0, 30, 60, 120, 240].map { minutes in
            Self.probe(Self.scenario(Self.withPolicy(base, .after(minutes: minutes)))).getTimelinePerUserDay
        }
        #expect(zip(calls, calls.dropFirst()).allSatisfy { $0 >= $1 }, "\(calls)")
        let never = Self.probe(Self.scenario(Self.withPolicy(base, .never))).getTimelinePerUserDay
        #expect(never <= calls.last!, ".never \(never) against .after(240) \(calls.last!)")
    }

    /// `.never`, no reload calls, no pushes: only WidgetKit's own reloads (and the first
    /// timeline), at most the system rate plus four standard errors of its sampling.
    @Test("a .never widget nobody reloads gets at most WidgetKit's own calls", arguments: [0.0, 0.35])
    func neverGetsOnlySystemCalls(smartStackShare: Double) throws {
        var d = Self.withPolicy(DesignPresets.direct, .never)
        d.reloadCalls = .never
        let users = 400
        let days = 10
        let s = Self.scenario(d, users: users, days: days) {
            $0.platform.systemReloadsPerDay = .fixed(3)
            $0.population.smartStackShare = .fixed(smartStackShare)
            $0.population.smartStackReloadsPerDay = .fixed(20)
            $0.population.rarelyViewedShare = 0
            $0.population.multiWidgetShare = 0
        }
        let r = Self.probe(s)
        let rate = 3 + smartStackShare * 20
        // Per user-day: Poisson counts times a mean-one day factor, around a mean-one user
        // factor (and the Smart Stack draw, a Bernoulli per user).
        let p = s.platform
        let dayVariance = rate + rate * rate * p.getTimelineDaySpread * p.getTimelineDaySpread
        let userVariance =
            rate * rate * p.getTimelineUserSpread * p.getTimelineUserSpread + 20 * 20 * smartStackShare * (1 - smartStackShare)
        let standardError = (dayVariance / Double(users * days) + userVariance / Double(users)).squareRoot()
        #expect(r.getTimelinePerUserDay <= rate + 4 * standardError, "\(r.getTimelinePerUserDay) against \(rate) ± \(standardError)")
        #expect(r.getTimelinePerUserDay >= rate - 4 * standardError, "\(r.getTimelinePerUserDay) against \(rate) ± \(standardError)")
        #expect(r.reloadCallsPerUserDay == 0)
    }

    /// The app's reload calls only add getTimeline calls: taking them away never spends more budget.
    @Test(
        "removing the app's reload calls never raises budget exhaustion", arguments: ["cache-on-open", "cache-bgtask", "prebuilt-timeline"])
    func removingReloadCallsNeverRaisesExhaustion(design: String) throws {
        let base = try #require(DesignPresets.named(design))
        var quiet = base
        quiet.reloadCalls = .never
        var loud = base
        loud.reloadCalls = .everyForeground
        let change: (inout Scenario) -> Void = { $0.platform.foregroundReloadsExempt = false }
        let withCalls = Self.probe(Self.scenario(base, change)).budgetExhaustedDayShare
        let without = Self.probe(Self.scenario(quiet, change)).budgetExhaustedDayShare
        let everyOpen = Self.probe(Self.scenario(loud, change)).budgetExhaustedDayShare
        #expect(without <= withCalls && without <= everyOpen, "without \(without), as designed \(withCalls), every open \(everyOpen)")
    }

    /// Reloads while the app is in the foreground are not counted against the budget (Apple's
    /// "Keeping a widget up to date"), and only those.
    @Test("foreground reloads spend no budget") func foregroundReloadsSpendNoBudget() throws {
        var d = try #require(DesignPresets.named("cache-on-open"))
        d.reloadCalls = .everyForeground
        var s = Self.scenario(d, users: 30, days: 5)
        s.population.neverOpenShare = .fixed(0)
        let m = SimulationModel(scenario: s, design: s.designs[0], run: 0, parameters: .central(s))
        var inForeground = 0
        for user in 0..<30 {
            var sim = UserSimulator(model: m, user: user, observer: SimulatorInternalsTests.Recorder())
            sim.run()
            var foreground = false
            for (event, _) in sim.observer.events {
                switch event {
                case .appForeground: foreground = true
                case .appBackground: foreground = false
                case .getTimeline(_, _, let exempt):
                    #expect(exempt == foreground, "user \(user): a getTimeline \(foreground ? "in" : "out of") the foreground")
                    if foreground { inForeground += 1 }
                default: break
                }
            }
        }
        #expect(inForeground > 0)
    }

    /// Each instance has its own calls and budget; a fetch sends as many requests either way.
    @Test("more instances multiply calls, not requests per fetch") func moreInstancesMultiplyCalls() throws {
        let design = try #require(DesignPresets.named("direct"))
        let one = Self.probe(Self.scenario(design) { $0.population.multiWidgetShare = 0 })
        let two = Self.probe(
            Self.scenario(design) {
                $0.population.multiWidgetShare = 1
                $0.population.instancesWhenMulti = 2
            })
        let ratio = two.getTimelinePerUserDay / one.getTimelinePerUserDay
        #expect(abs(ratio - 2) < 0.1, "two instances: ×\(ratio) getTimeline calls")
        #expect(abs(two.requestsPerUserDay / two.fetchesPerUserDay - one.requestsPerUserDay / one.fetchesPerUserDay) < 1e-9)
    }

    /// A policy reload falling due while the phone is idle overnight waits for the night's end.
    @Test("no policy reload while the phone is idle") func noPolicyReloadWhileIdle() throws {
        let (calls, m) = SimulatorInternalsTests.timelines(DesignPresets.direct, systemCallsPerDay: 0, idleHours: 5)
        let traits = UserTraits(model: m, user: 0)
        let policy = calls.filter(\.policy).map(\.t)
        #expect(!policy.isEmpty)
        for t in policy {
            let into = (t - traits.idleStartSeconds).truncatingRemainder(dividingBy: 86_400)
            let sinceIdle = into < 0 ? into + 86_400 : into
            #expect(sinceIdle >= traits.idleSeconds - 1e-6, "a policy reload \(sinceIdle / 3_600) h into the night")
        }
        // Hourly while in use: about 19 a day, never 24.
        let days = Double(m.countedEndDay - m.countedFirstDay)
        #expect(
            Double(policy.count) / days <= 20.5 && Double(policy.count) / days >= 17,
            "\(Double(policy.count) / days) a day, \(calls.count) calls")
    }
}
