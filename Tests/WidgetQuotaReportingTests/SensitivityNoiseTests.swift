import Foundation
import Testing
import WidgetQuotaReporting
import WidgetQuotaSimulationTestSupport
import WidgetQuotaStudies
import WidgetQuotaSupport
import WidgetQuotaTestSupport

/// The sensitivity headline names a driver only when its swing clearly exceeds the sample's noise.
@Suite("Sensitivity noise") struct SensitivityNoiseTests {
    static func driver(_ path: String, swing: Double, noise: Double?) -> SensitivityResult.Driver {
        .init(
            assumption: path, distribution: "triangular(1, 2, 3)", lowValue: 1, highValue: 3, requestsAtLow: 1_000 - swing / 2,
            requestsAtHigh: 1_000 + swing / 2, swing: swing, swingShare: swing / 1_000,
            exceedsNoise: noise.map { swing >= SensitivityResult.noiseMultiple * $0 })
    }

    static func sensitivity(swings: [Double], noise: Double?) -> SensitivityResult {
        SensitivityResult(
            design: "cache-bgtask", users: 1_000, sampleUsers: 300, central: 1_000,
            drivers: swings.enumerated().map { driver("a.assumption\($0.offset)", swing: $0.element, noise: noise) },
            noise: noise, noiseShare: noise.map { $0 / 1_000 })
    }

    static func headline(_ s: SensitivityResult) -> String {
        SummarySection(facts: ReportFacts(ReportFixtures.result), sensitivity: s).driverSentence(baseline: "cache-bgtask")
    }

    @Test("A swing within three times the noise names no driver")
    func withinNoiseNoDriver() {
        let s = Self.sensitivity(swings: [30, 10], noise: 15)
        #expect(s.dominantDriver == nil)
        let text = Self.headline(s)
        #expect(text.hasPrefix("**What moves the answer most:** no single assumption dominates."))
        #expect(text.contains("`a.assumption0`'s 3.0%") && text.contains("±1.5%"))
        #expect(!text.contains("Pin it down first"))
    }

    @Test("A swing well above the noise is named, with the noise beside it")
    func aboveNoiseIsNamed() {
        let s = Self.sensitivity(swings: [300, 10], noise: 15)
        #expect(s.dominantDriver?.assumption == "a.assumption0")
        let text = Self.headline(s)
        #expect(text.hasPrefix("**What moves the answer most:** `a.assumption0`, assumed triangular(1, 2, 3)."))
        #expect(text.contains("a swing of 30% (the sensitivity sample's own noise is ±1.5% of it). Pin it down first"))
    }

    @Test("Two swings closer than the noise allows are named together")
    func twoEqualDriversAreNamedTogether() {
        let text = Self.headline(Self.sensitivity(swings: [300, 290, 10], noise: 15))
        #expect(text.contains("`a.assumption0` (assumed triangular(1, 2, 3), a swing of 30%) and `a.assumption1`"))
        #expect(text.contains("about equally") && !text.contains("a.assumption2"))
    }

    @Test("Without a noise measurement the widest swing is named as before")
    func noNoiseMeasured() {
        let s = Self.sensitivity(swings: [30, 10], noise: nil)
        #expect(s.dominantDriver?.assumption == "a.assumption0")
        #expect(Self.headline(s).contains("`a.assumption0`, assumed"))
    }

    @Test("The analysis measures its noise from the two halves of its sample, the same at any thread count")
    func noiseIsMeasuredAndDeterministic() throws {
        let design = try #require(ReportFixtures.scenario.availableDesigns.first { $0.name == "cache-bgtask" })
        let one = SensitivityAnalysis(scenario: ReportFixtures.scenario, design: design, users: 100, sampleUsers: 40, threads: 1).run()
        #expect(one == ReportFixtures.sensitivity, "one thread or two, the same result")
        let noise = try #require(one.noise)
        #expect(noise > 0 && noise.isFinite)
        #expect(one.noiseShare == noise / one.central)
        for d in one.drivers { #expect(d.exceedsNoise == (d.swing >= SensitivityResult.noiseMultiple * noise)) }
        let json = try JSONValue.parse(Data(try JSONOutput.encode(one).utf8), file: "sensitivity")
        #expect(json["noise"]?.number != nil && json["noiseShare"]?.number != nil)
    }

    @Test("A sample too small to split reports no noise")
    func tinySampleHasNoNoise() throws {
        let design = try #require(ReportFixtures.scenario.availableDesigns.first { $0.name == "cache-bgtask" })
        let s = SensitivityAnalysis(scenario: ReportFixtures.scenario, design: design, users: 100, sampleUsers: 3, threads: 2).run()
        #expect(s.noise == nil && s.drivers.allSatisfy { $0.exceedsNoise == nil })
    }
}
