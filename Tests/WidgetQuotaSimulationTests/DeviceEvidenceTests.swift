import Testing
import WidgetQuotaModel
import WidgetQuotaSimulation
import WidgetQuotaSimulationTestSupport
import WidgetQuotaTestSupport

/// The device mechanisms that public evidence describes: WidgetKit honours a policy's date late,
/// a widget coming into view runs a due reload, a tap on an interactive widget reloads it outside
/// the budget, and a request that hangs inside a background task's slice expires the task.
@Suite("device evidence") struct DeviceEvidenceTests {
    static let users = 400
    static let days = 10

    /// One instance per user, no calls of WidgetKit's own or Smart Stack's, no night, a budget
    /// that never binds: only the design's own reloads and what the test adds.
    static func quiet(_ design: Design, _ change: (inout Scenario) -> Void = { _ in }) -> Scenario {
        ReloadInvariantTests.scenario(design, users: users, days: days) { s in
            s.population.multiWidgetShare = 0
            s.population.smartStackShare = 0
            s.population.smartStackReloadsPerDay = 0
            s.population.rarelyViewedShare = 0
            s.population.idleHours = 0
            s.platform.systemReloadsPerDay = 0
            s.platform.reloadBudgetMin = 10_000
            s.platform.reloadBudgetMax = 10_000
            change(&s)
        }
    }

    static func probe(_ s: Scenario) -> DesignResult {
        TestSupport.row(TestSupport.run(s, designs: ["probe"], central: true), "probe")
    }

    static var neverDirect: Design {
        var d = Design(name: "never")
        d.fetchTriggers = [.getTimeline]
        d.reloadPolicy = .never
        return d
    }

    /// An hourly policy honoured a mean L minutes late reloads every 60 + L minutes on average:
    /// 24 a day at L = 0, 16 at L = 30.
    @Test("a policy honoured late reloads every delay plus the mean lateness", arguments: [0.0, 30.0, 120.0])
    func latenessStretchesThePolicy(minutes: Double) {
        let r = Self.probe(Self.quiet(DesignPresets.direct) { $0.platform.policyLatenessMinutes = .fixed(minutes) })
        let expected = 24 * 60 / (60 + minutes)
        let margin = StandardError.bound * StandardError.ofPoissonRate(expected, units: Double(Self.users * Self.days))
        #expect(abs(r.getTimelinePerUserDay - expected) < margin, "\(r.getTimelinePerUserDay) a day for \(expected) ± \(margin)")
    }

    /// Smart Stack's rotations run a late policy reload as soon as it is due; they never reload a
    /// `.never` widget, whose policy is never due.
    @Test("rotations run due reloads, and nothing for a widget that never asks") func rotationsRunDueReloads() {
        func rate(_ design: Design, stacked: Bool) -> Double {
            Self.probe(
                Self.quiet(design) {
                    $0.platform.policyLatenessMinutes = 60
                    $0.population.smartStackShare = .fixed(stacked ? 1 : 0)
                    $0.population.smartStackRotationsPerDay = 96
                }
            ).getTimelinePerUserDay
        }
        let late = rate(DesignPresets.direct, stacked: false)
        let stacked = rate(DesignPresets.direct, stacked: true)
        // 60 + 60 minutes apart without the stack (12 a day); much closer to 60 with it.
        #expect(abs(late - 12) < 1, "\(late)")
        #expect(stacked > late * 1.4, "stacked \(stacked), not \(late)")
        #expect(rate(Self.neverDirect, stacked: true) == 0)
    }

    /// A tap reloads the tapped instance at once, spending no budget, after the requests its
    /// intent sends itself (`requestsPerTap`): a `.never` widget that fetches in getTimeline
    /// sends 1 + k requests a tap; the same widget without buttons, none.
    @Test(
        "a tap reloads an interactive widget outside the budget, after its intent's requests",
        arguments: [(false, 0), (true, 0), (true, 2)])
    func tapsReloadInteractiveWidgets(interactive: Bool, requestsPerTap: Int) {
        var d = Self.neverDirect
        d.interactive = interactive
        d.requestsPerTap = requestsPerTap
        let r = Self.probe(
            Self.quiet(d) {
                $0.population.interactiveTapsPerDay = 1
                $0.platform.reloadBudgetMin = 0
                $0.platform.reloadBudgetMax = 0
                $0.api.failureProbability = 0
            })
        guard interactive else {
            #expect(r.requestsPerUserDay == 0)
            return
        }
        let perTap = Double(1 + requestsPerTap)
        let margin = StandardError.bound * perTap * StandardError.ofPoissonRate(1, units: Double(Self.users * Self.days))
        #expect(abs(r.requestsPerUserDay - perTap) < margin, "\(r.requestsPerUserDay) requests a day for a tap a day")
    }

    /// With every request hanging until its timeout, a 60-second timeout outlasts the 29-second
    /// slice and expires every background task; a 10-second one fails inside it.
    @Test("a request hanging past the slice expires the background task") func hangingRequestsExpireTheTask() {
        func expirations(timeout: Double) -> Double {
            var s = Self.quiet(DesignPresets.cacheBGTask) {
                $0.api.failureProbability = 1
                $0.api.hangShareOfFailures = 1
                $0.api.timeoutSeconds = timeout
            }
            s.designs[0].retry = .nextOpportunity
            return Self.probe(s).backgroundExpirationsPerUserDay
        }
        #expect(expirations(timeout: 10) == 0)
        #expect(expirations(timeout: 60) > 0.5)
    }
}
