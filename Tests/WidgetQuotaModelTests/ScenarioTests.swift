import Foundation
import Testing
import WidgetQuotaModel
import WidgetQuotaSupport
import WidgetQuotaTestSupport

@Suite("scenario") struct ScenarioTests {
    @Test("default scenario round trips through its JSON") func defaultScenarioRoundTripsThroughItsJSON() throws {
        let text = ScenarioLoader.encode(Scenario())
        let decoded = try ScenarioLoader.decode(Data(text.utf8))
        #expect(decoded == Scenario())
    }

    /// What docs/scenario.md and `scenario --help` call required is required, and nothing else.
    @Test("a tier needs its name and readOn; its limits and note are optional")
    func tierRequiredFields() throws {
        let minimal = try ScenarioLoader.decode(Data(#"{"quotas": {"tiers": [{"name": "mine", "readOn": "2026-12-01"}]}}"#.utf8))
        #expect(minimal.quotas.tiers == [QuotaTier(name: "mine", rpm: nil, tpm: nil, rpd: nil, readOn: "2026-12-01", note: "")])
        for missing in [#"{"name": "mine"}"#, #"{"readOn": "2026-12-01", "rpm": 5}"#] {
            #expect(throws: (any Error).self) {
                try ScenarioLoader.decode(Data(#"{"quotas": {"tiers": [\#(missing)]}}"#.utf8))
            }
        }
    }

    @Test("every field is optional") func everyFieldIsOptional() throws {
        let s = try ScenarioLoader.decode(Data(#"{"horizon": {"days": 7}}"#.utf8))
        #expect(s.horizon.days == 7)
        #expect(s.horizon.users == Horizon().users)
        #expect(s.platform == Platform())
    }

    @Test(
        "distributions decode",
        arguments: [
            (
                #"{"platform": {"systemReloadsPerDay": {"distribution": "triangular", "min": 10, "mode": 30, "max": 45}}}"#,
                Distribution.triangular(min: 10, mode: 30, max: 45)
            ),
            (
                #"{"platform": {"systemReloadsPerDay": {"distribution": "lognormal", "mean": 30, "sd": 8}}}"#,
                Distribution.lognormal(mean: 30, sd: 8)
            ),
            (
                #"{"platform": {"systemReloadsPerDay": {"distribution": "uniform", "min": 15, "max": 45}}}"#,
                Distribution.uniform(min: 15, max: 45)
            ),
            (#"{"platform": {"systemReloadsPerDay": 31}}"#, Distribution.fixed(31)),
        ])
    func distributionsDecode(json: String, expected: Distribution) throws {
        let s = try ScenarioLoader.decode(Data(json.utf8))
        #expect(s.platform.systemReloadsPerDay == expected)
    }

    /// Beta quantiles are exact (to 1e-8, far below what a report prints): checked against closed forms (beta(1, b) and beta(a, 1) invert
    /// by hand) and against draws for a skewed failure rate.
    @Test("beta quantiles match their closed form", arguments: [(1.0, 9.0), (1.0, 1.0), (3.0, 1.0), (1.0, 50.0)])
    func betaQuantilesMatchTheirClosedForm(a: Double, b: Double) {
        for q in [0.05, 0.25, 0.5, 0.95] {
            let expected = a == 1 ? 1 - Foundation.pow(1 - q, 1 / b) : Foundation.pow(q, 1 / a)
            #expect(abs(Distribution.beta(alpha: a, beta: b).quantile(q) - expected) < 1e-8, "beta(\(a), \(b)) at \(q)")
        }
    }

    @Test("skewed beta quantiles match its draws") func skewedBetaQuantilesMatchItsDraws() {
        let d = Distribution.beta(alpha: 2, beta: 50)
        var rng = RandomStream(seed: 3)
        let draws = (0..<200_000).map { _ in d.sample(&rng) }.sorted()
        for q in [0.05, 0.5, 0.95] {
            let empirical = draws[Int(q * Double(draws.count))]
            #expect(abs(d.quantile(q) - empirical) < 0.002, "q = \(q): \(d.quantile(q)) against \(empirical)")
        }
        // The normal approximation it replaces gave p5 = 0 here; the true value is about 0.0070.
        #expect(abs(d.quantile(0.05) - 0.00700) < 0.0002)
    }

    @Test("sampled distributions stay in their support and centre") func sampledDistributionsStayInTheirSupportAndCentre() {
        let cases: [Distribution] = [
            .uniform(min: 1, max: 3), .triangular(min: 1, mode: 2, max: 3),
            .normal(mean: 5, sd: 1, min: 4, max: nil), .lognormal(mean: 30, sd: 10),
            .beta(alpha: 2, beta: 6),
        ]
        for d in cases {
            var rng = RandomStream(seed: 1, 2)
            let draws = (0..<20_000).map { _ in d.sample(&rng) }
            #expect(draws.allSatisfy { d.support.contains($0) }, "\(d.summary)")
            let mean = draws.reduce(0, +) / Double(draws.count)
            if case .normal = d { continue }  // clamping moves the mean
            // Within four standard errors of the draws' mean (the lognormal's central value is its mean).
            let margin = StandardError.bound * StandardError.ofMean(draws)
            #expect(abs(mean - d.central) < margin, "\(d.summary): mean \(mean), central \(d.central) ± \(margin)")
        }
    }

    /// A preset the file changes says so in its summary (which the report's design table shows);
    /// restating a preset's own values changes nothing, and a summary the file gives is kept.
    @Test("an overridden preset says what changed") func anOverriddenPresetSaysWhatChanged() throws {
        func summary(_ json: String) throws -> String {
            let s = try ScenarioLoader.decode(Data(json.utf8))
            return try #require(s.availableDesigns.first { $0.name == "cache-bgtask" }).summary
        }
        let preset = DesignPresets.cacheBGTask.summary
        #expect(
            try summary(#"{"designs": [{"name": "cache-bgtask", "cacheTTLMinutes": 720, "requestsPerFetch": 3}]}"#)
                == preset + " Modified by the scenario: cacheTTLMinutes, requestsPerFetch.")
        #expect(try summary(#"{"designs": [{"name": "cache-bgtask", "cacheTTLMinutes": 60}]}"#) == preset)
        #expect(try summary(#"{"designs": [{"name": "cache-bgtask", "cacheTTLMinutes": 720, "summary": "Ours."}]}"#) == "Ours.")
    }

    @Test("custom designs build on presets") func customDesignsBuildOnPresets() throws {
        let json =
            #"{"designs": [{"name": "cache-bgtask-2h", "fetchTriggers": ["appForeground", "backgroundTask"], "cacheTTLMinutes": 120, "reloadPolicy": "after(120)"}]}"#
        let s = try ScenarioLoader.decode(Data(json.utf8))
        let d = try #require(s.availableDesigns.first { $0.name == "cache-bgtask-2h" })
        #expect(d.cacheTTLMinutes == 120)
        #expect(d.reloadPolicy == .after(minutes: 120))
        #expect(s.availableDesigns.count == DesignPresets.all.count + 1)
    }

    @Test("Fast-changing data is refused only when a design draws each change of every key")
    func keyChangeLimit() throws {
        let quotes = #""content": {"keys": 3000}, "api": {"dataChangesPerDay": 390}"#
        // A widget that polls measures how outdated its quotes are from the expected changes.
        _ = try ScenarioLoader.decode(Data(#"{\#(quotes)}"#.utf8), file: "s.json")
        expectRefused(
            #"{\#(quotes), "designs": [{"name": "b", "source": "s", "backend": {"regenerate": "onChange"}}]}"#, naming: "content.keys")
    }

    @Test(
        "A schedule by popularity needs a schedule, a shorter period and at least one key",
        arguments: [
            (#"{"regenerate": "onChange", "popular": {"keys": 10, "everyMinutes": 1}}"#, "designs[0].backend.popular"),
            (#"{"regenerate": "every(5)", "popular": {"keys": 10, "everyMinutes": 10}}"#, "designs[0].backend.popular.everyMinutes"),
            (#"{"regenerate": "every(5)", "popular": {"keys": 0, "everyMinutes": 1}}"#, "designs[0].backend.popular.keys"),
        ])
    func popularScheduleRefused(backend: String, field: String) {
        expectRefused(#"{"designs": [{"name": "b", "source": "s", "backend": \#(backend)}]}"#, naming: field)
    }
}
