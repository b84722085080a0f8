import Foundation
import Testing

@testable import WidgetQuotaKit

/// A sweep varies one knob and says so; anything else it has to change is said too.
@Suite("sweep") struct SweepTests {
    static func sweep(_ design: String, _ knob: Sweep.Knob, _ values: [Double]) throws -> SweepResult {
        let s = TestSupport.smallScenario(users: [60], runs: 2, days: 7)
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

    /// Sweeping a knob the design does not have gives it one: the output says so.
    @Test(
        "a knob the design lacks is named",
        arguments: [
            ("direct", Sweep.Knob.ttl, "has no cache"), ("direct", .poll, "has no reload policy"),
            ("cache-on-open", .background, "does not refresh in the background"),
            ("prebuilt-timeline", .poll, "reloads at its timeline's end"),
        ])
    func aKnobTheDesignLacksIsNamed(design: String, knob: Sweep.Knob, says: String) throws {
        let r = try SweepTests.sweep(design, knob, [60])
        #expect(r.addition?.contains(says) == true)
        #expect(r.markdown().contains("**Note:** \(design) \(says)"))
        #expect(try JSONOutput.encode(r).contains("\"addition\""))
        let cli = TestSupport.cli([
            "sweep", "--design", design, "--knob", knob.rawValue, "--values", "60", "--users", "20",
            "--sample-users", "20", "--runs", "1",
        ])
        #expect(cli.code == .success)
        #expect(cli.err.contains("note: \(design) \(says)"))
    }
}
