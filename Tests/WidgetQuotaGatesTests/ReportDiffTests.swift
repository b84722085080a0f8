import Foundation
import Testing
import WidgetQuotaGates
import WidgetQuotaSupport
import WidgetQuotaTestSupport

@Suite("report diff") struct ReportDiffTests {
    typealias Estimate = ReportDiff.Estimate

    static func sampling(seed: Int, runs: Int = 20, sample: Int = 1_000) -> ReportDiff.Sampling {
        ReportDiff.Sampling(
            json: try! JSONValue.parse(
                Data("{\"method\": {\"seed\": \(seed), \"runs\": \(runs), \"sampleUsers\": \(sample)}}".utf8), file: "m"))
    }

    static let common = NoiseModel(base: sampling(seed: 1), head: sampling(seed: 1))
    static let independent = NoiseModel(base: sampling(seed: 1), head: sampling(seed: 2))

    @Test("same seed runs and sample: a change is real when every percentile moves the same way")
    func commonRandomNumbersNeedEveryPercentileToMove() {
        let base = Estimate(mean: 100, p5: 50, p50: 100, p95: 150)
        // A 10% saving moves the whole distribution down, however wide the spread across runs.
        #expect(Self.common.movement(.count, base: base, head: Estimate(mean: 90, p5: 45, p50: 90, p95: 135), users: 1_000) == .better)
        #expect(Self.common.movement(.dollars, base: base, head: Estimate(mean: 101, p5: 51, p50: 101, p95: 151), users: 1_000) == .worse)
        // Mean up, p5 down: the runs reshuffled rather than moved.
        #expect(
            Self.common.movement(.count, base: base, head: Estimate(mean: 102, p5: 49, p50: 101, p95: 152), users: 1_000) == .withinNoise)
        #expect(Self.common.movement(.count, base: base, head: base, users: 1_000) == .unchanged)
    }

    @Test("different seeds: a change is real only when the p5 to p95 ranges do not overlap")
    func independentRunsNeedRangesApart() {
        let base = Estimate(mean: 100, p5: 50, p50: 100, p95: 150)
        // Every percentile moved down 10%, but the ranges overlap: within noise.
        #expect(
            Self.independent.movement(.count, base: base, head: Estimate(mean: 90, p5: 45, p50: 90, p95: 135), users: 1_000) == .withinNoise
        )
        #expect(Self.independent.movement(.count, base: base, head: Estimate(mean: 40, p5: 20, p50: 40, p95: 49), users: 1_000) == .better)
        #expect(
            Self.independent.movement(.count, base: base, head: Estimate(mean: 400, p5: 300, p50: 400, p95: 500), users: 1_000) == .worse)
    }

    @Test("a share's noise shrinks with the sample and runs behind it") func shareNoiseShrinksWithSampleAndRuns() {
        let base = Estimate(mean: 0.15)
        let head = Estimate(mean: 0.17)
        // Same seed: 1,000 sampled users × 20 runs make two points a change, at any user count
        // (shares are tallied over the whole sample); 10 sampled users do not.
        #expect(Self.common.movement(.share, base: base, head: head, users: 1) == .worse)
        #expect(Self.common.movement(.share, base: base, head: head, users: 1_000_000) == .worse)
        let small = NoiseModel(base: Self.sampling(seed: 1, sample: 10), head: Self.sampling(seed: 1, sample: 10))
        #expect(small.movement(.share, base: base, head: head, users: 1_000) == .withinNoise)
        #expect(Self.common.movement(.share, base: base, head: Estimate(mean: 0.153), users: 1_000) == .withinNoise)
        // Different seeds: only 20 runs each, so two points is noise and thirty are not.
        #expect(Self.independent.movement(.share, base: base, head: head, users: 1_000) == .withinNoise)
        #expect(Self.independent.movement(.share, base: base, head: Estimate(mean: 0.45), users: 1_000) == .worse)
    }

    @Test("a design's changed field is named by design, against the preset it overrides")
    func designFieldNamedByDesign() throws {
        func report(_ designs: String) -> JSONValue {
            try! JSONValue.parse(
                Data("{\"scenario\": {\"designs\": \(designs), \"horizon\": {\"seed\": 1}}, \"results\": []}".utf8), file: "r")
        }
        let changes = ReportDiff.changes(
            base: report("[]"), head: report("[{\"name\": \"cache-bgtask\", \"cacheTTLMinutes\": 120, \"summary\": \"changed\"}]"))
        #expect(changes == [.init(design: "cache-bgtask", path: "cacheTTLMinutes", old: "60", new: "120")])
        let both = ReportDiff.changes(
            base: report("[{\"name\": \"cache-bgtask\", \"cacheTTLMinutes\": 45}]"),
            head: report("[{\"name\": \"cache-bgtask\", \"cacheTTLMinutes\": 120}]"))
        #expect(both.map(\.design) == ["cache-bgtask"] && both.first?.old == "45")
        #expect(!both.contains { $0.path.contains("designs[") })
    }

    @Test("rows say better or worse per figure and the tier by its rank") func rowsSayBetterOrWorse() throws {
        let text = try Fixtures.report("tiny-report.json")
        let base = try JSONValue.parse(Data(text.utf8), file: "b")
        let head = try JSONValue.parse(
            Data(
                text.replacingOccurrences(
                    of: "\"mean\": 91000, \"p5\": 85000, \"p95\": 97000", with: "\"mean\": 120000, \"p5\": 110000, \"p95\": 130000"
                )
                .replacingOccurrences(
                    of: "{ \"tier\": \"tier1\", \"exceedProbability\": 0.04 }", with: "{ \"tier\": \"tier1\", \"exceedProbability\": 0.5 }"
                ).utf8), file: "h")
        let diff = ReportDiff(base: base, head: head)
        let row = try #require(diff.rows.first { $0.design == "cache-bgtask" && $0.users == 1_000 })
        #expect(row.figure("totalRequestsPerMonth")?.movement == .worse)
        #expect(row.figure("cost.perMonth")?.movement == .unchanged)
        #expect(row.tierMovement == .worse && row.baseTier == "tier1" && row.headTier == "above tier1")
        #expect(row.isChanged && diff.rows.filter(\.isChanged).count == 1)
        #expect(diff.commonRandomNumbers)
    }
}
