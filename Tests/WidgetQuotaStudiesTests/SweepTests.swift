import Foundation
import Testing
import WidgetQuotaModel
import WidgetQuotaSimulation
import WidgetQuotaSimulationTestSupport
import WidgetQuotaStudies
import WidgetQuotaSupport
import WidgetQuotaTestSupport

/// A sweep varies one knob and says so; anything else it has to change is said too.
@Suite("sweep") struct SweepTests {
    /// `direct` as it would be with `.never`: a design with no reload policy.
    static var directNever: Design {
        var d = DesignPresets.direct
        d.name = "direct-never"
        d.reloadPolicy = .never
        return d
    }

    static func sweep(_ design: String, _ knob: Sweep.Knob, _ values: [Double]) throws -> SweepResult {
        var s = TestSupport.smallScenario(users: [60], runs: 2, days: 7)
        s.designs = [directNever]
        let d = s.availableDesigns.first { $0.name == design }!
        return try Sweep(scenario: s, design: d, knob: knob, values: values, users: 60).run(threads: 2)
    }

    /// A longer cache lifetime means fewer requests and older content, and the Pareto marks are
    /// exactly the values no other value beats on both.
    @Test("longer TTL trades requests for staleness") func longerTTLTradesRequestsForStaleness() throws {
        let r = try SweepTests.sweep("cache-bgtask", .ttl, [15, 60, 240, 720])
        let requests = r.points.map(\.requestsPerUserMonth)
        let stale = r.points.map(\.overTargetShare)
        #expect(zip(requests, requests.dropFirst()).allSatisfy { $0 > $1 }, "\(requests)")
        #expect(zip(stale, stale.dropFirst()).allSatisfy { $0 <= $1 + 0.02 }, "\(stale)")
        for p in r.points {
            let beaten = r.points.contains { q in
                q.requestsPerUserMonth <= p.requestsPerUserMonth && q.overTargetShare <= p.overTargetShare
                    && (q.requestsPerUserMonth < p.requestsPerUserMonth || q.overTargetShare < p.overTargetShare)
            }
            #expect(p.pareto == !beaten)
        }
        #expect(r.addition == nil)
    }

    /// The design as it is need not be simulated again: its row from the projection gives the
    /// same point, byte for byte, and a row from a different sample is not used.
    @Test("the design's own value is taken from the projection, with the same result")
    func ownValueIsReused() throws {
        var s = TestSupport.smallScenario(users: [60, 5_000], runs: 3, days: 7, sample: 60)
        s.api.outages = [Outage(day: 4, startHourUTC: 15, durationHours: 3, errorRate: 0.95)]
        let d = s.availableDesigns.first { $0.name == "cache-bgtask" }!
        let projection = MonteCarloEngine(scenario: s, designs: [d], threads: 2).run()
        let row = TestSupport.row(projection, "cache-bgtask", users: 60)
        let values = [15, d.cacheTTLMinutes!, 240]
        let sweep = try Sweep(scenario: s, design: d, knob: .ttl, values: values, users: 60)
        let simulated = try JSONOutput.encode(sweep.run(threads: 2))
        #expect(try JSONOutput.encode(sweep.run(threads: 1, known: (row, 60))) == simulated)
        // A row that is not this sweep's (another design's figures) would show if it were used.
        var other = row
        other.requestsPerUserMonth.mean += 1_000
        #expect(try JSONOutput.encode(sweep.run(threads: 2, known: (other, 60))) != simulated)
        #expect(try JSONOutput.encode(sweep.run(threads: 2, known: (other, 59))) == simulated)
    }

    /// Sweeping a knob the design does not have gives it one: the output says so.
    @Test(
        "a knob the design lacks is named",
        arguments: [
            ("direct", Sweep.Knob.ttl, "has no cache"), ("direct-never", .poll, "has no reload policy"),
            ("cache-on-open", .background, "does not refresh in the background"),
            ("prebuilt-timeline", .poll, "reloads at its timeline's end"),
        ])
    func aKnobTheDesignLacksIsNamed(design: String, knob: Sweep.Knob, says: String) throws {
        let r = try SweepTests.sweep(design, knob, [60])
        #expect(r.addition?.contains(says) == true)
        #expect(try JSONOutput.encode(r).contains("\"addition\""))
    }
}
