import Foundation
import Testing
import WidgetQuotaModel
import WidgetQuotaSimulation
import WidgetQuotaSimulationTestSupport
import WidgetQuotaStudies
import WidgetQuotaSupport
import WidgetQuotaTestSupport

/// The studies' designs are simulated together, each distinct design once, and what they read
/// back is what simulating each design on its own gives.
@Suite("study batch") struct StudyBatchTests {
    static let scenario: Scenario = {
        var s = TestSupport.smallScenario(users: [40, 5_000], runs: 2, days: 7, sample: 40)
        s.api.outages = [Outage(day: 4, startHourUTC: 15, durationHours: 3, errorRate: 0.95)]
        return s
    }()
    static let cache = scenario.availableDesigns.first { $0.name == "cache-bgtask" }!

    static func json(_ rows: [DesignResult]) throws -> String {
        try JSONOutput.encode(
            rows.map { row -> DesignResult in
                var r = row
                r.ratioToBaseline = nil  // relative to whichever design a batch names first
                r.outage = nil  // what an outage adds: measured by the projection only
                return r
            })
    }

    /// Two studies asking for one design under two names get the same figures, each under its
    /// own name, and they are the figures of that design simulated on its own.
    @Test("a design asked for twice gives one design's figures, under each name")
    func twinsShareTheirFigures() throws {
        var twin = Sweep.Knob.ttl.apply(120, to: Self.cache)
        twin.summary = "the same design, described otherwise"
        var other = Self.cache
        other.cacheTTLMinutes = 120
        other.name = "cache-bgtask+ttl"
        let batch = StudyBatch(scenario: Self.scenario, designs: [twin, other], threads: 2)
        let alone = MonteCarloEngine(scenario: Self.scenario, designs: [other], threads: 1).run()
        #expect(batch.rows(twin).map(\.design) == [twin.name, twin.name])
        #expect(try Self.json(batch.rows(other)) == Self.json(alone.results))
        var renamed = batch.rows(twin)
        for i in renamed.indices { renamed[i].design = other.name }
        #expect(try Self.json(renamed) == Self.json(batch.rows(other)))
    }

    /// A design the projection already simulated takes the projection's rows, when the
    /// projection has the batch's runs, seed and sample; otherwise it is simulated.
    @Test("the projection's rows are reused only from the same sample")
    func projectionRowsAreReusedFromTheSameSample() throws {
        let projection = MonteCarloEngine(scenario: Self.scenario, designs: [Self.cache], threads: 2).run()
        let variant = Sweep.Knob.ttl.apply(Self.cache.cacheTTLMinutes!, to: Self.cache)
        let simulated = StudyBatch(scenario: Self.scenario, designs: [variant], threads: 2)
        let reused = StudyBatch(scenario: Self.scenario, designs: [variant], known: ([Self.cache], projection), threads: 2)
        #expect(try Self.json(reused.rows(variant)) == Self.json(simulated.rows(variant)))
        // Figures no simulation gives show whether the known rows were used.
        var marked = projection
        for i in marked.results.indices { marked.results[i].requestsPerUserMonth.mean += 1_000 }
        let fromMarked = StudyBatch(scenario: Self.scenario, designs: [variant], known: ([Self.cache], marked), threads: 2)
        #expect(fromMarked.row(variant, users: 40)?.requestsPerUserMonth.mean == marked.results[0].requestsPerUserMonth.mean)
        var otherSample = marked
        otherSample.method.sampleUsers = 39
        let fromOtherSample = StudyBatch(scenario: Self.scenario, designs: [variant], known: ([Self.cache], otherSample), threads: 2)
        #expect(try Self.json(fromOtherSample.rows(variant)) == Self.json(simulated.rows(variant)))
    }

    /// A design the batch was not given has no rows.
    @Test("a design not in the batch has no rows") func unknownDesignHasNoRows() {
        let batch = StudyBatch(scenario: Self.scenario, designs: [Self.cache], threads: 2)
        var other = Self.cache
        other.cacheTTLMinutes = 7
        #expect(batch.rows(other).isEmpty)
        #expect(batch.row(Self.cache, users: 41) == nil)
        #expect(batch.row(Self.cache, users: 40) != nil)
    }
}
