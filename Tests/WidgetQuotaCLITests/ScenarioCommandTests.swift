import Foundation
import Testing
import WidgetQuotaCLI
import WidgetQuotaModel
import WidgetQuotaSupport
import WidgetQuotaTestSupport

@Suite("scenario on the command line") struct ScenarioCommandTests {
    @Test(
        "invalid scenarios name the field",
        arguments: [
            (#"{"horizon": {"users": [1000, -5]}}"#, "horizon.users[1]"),
            (#"{"horizon": {"users": [0]}}"#, "horizon.users[0]"),
            (#"{"horizon": {"days": 0}}"#, "horizon.days"),
            (#"{"baseline": "cache-bgtsk"}"#, "did you mean \"cache-bgtask\""),
            (#"{"population": {"smartStackShare": {"distribution": "uniform", "min": 0.5, "max": 0.2}}}"#, "population.smartStackShare"),
            (#"{"population": {"smartStackShare": {"distribution": "gaussian", "mean": 0.5}}}"#, "unknown distribution"),
            (#"{"population": {"lowPowerDayShare": 1.5}}"#, "population.lowPowerDayShare"),
            (#"{"platfrom": {}}"#, "did you mean \"platform\""),
            (#"{"designs": [{"name": "mine", "cacheTTLMinutes": -1}]}"#, "designs[0].cacheTTLMinutes"),
            (#"{"designs": [{"name": "mine", "entrySpacingMinutes": 1}]}"#, "at least 5 minutes apart"),
            (#"{"horizon": {"users": "many"}}"#, "horizon.users"),
            ("[1, 2]", "expected a JSON object"),
            (#"{"horizon": {"days": 1e999}}"#, ":1:22: not valid JSON: the number 1e999 is too large for a double"),
            (#"{"horizon": {"days": 7.5}}"#, "horizon.days"),
            ("", "the file is empty"),
        ])
    func invalidScenariosNameTheField(json: String, fragment: String) throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let path = try tmp.file(json)
        let (code, out, err) = TestSupport.cli(["simulate", "--scenario", path])
        #expect(code == (json.isEmpty ? .noInput : .dataError), "\(json): exit \(code)")
        #expect(out.isEmpty)
        #expect(err.contains(fragment), "\(json) → \(err)")
    }

    @Test("unknown design on the command line is rejected") func unknownDesignOnTheCommandLineIsRejected() {
        let (code, _, err) = TestSupport.cli(["simulate", "--designs", "direct,cache-bg"])
        // A flag's value is a usage error that names the flag.
        #expect(code == .usage)
        #expect(err.contains("--designs: unknown design \"cache-bg\""))
    }

    @Test("missing scenario file is no input") func missingScenarioFileIsNoInput() {
        let (code, _, err) = TestSupport.cli(["simulate", "--scenario", "/nonexistent/scenario.json"])
        #expect(code == .noInput)
        #expect(err.contains("no such file"))
    }

    @Test("bad flags are usage errors") func badFlagsAreUsageErrors() {
        #expect(TestSupport.cli(["simulate", "--runz", "3"]).code == .usage)
        #expect(TestSupport.cli(["simulate", "--runs", "many"]).code == .usage)
        #expect(TestSupport.cli(["simulat"]).err.contains("did you mean \"simulate\""))
    }

    @Test("scenario --check refuses what simulate refuses before simulating: a model billed per token with no price")
    func checkNeedsAPrice() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let tiers = #""quotas": {"tiers": [{"name": "Basic", "readOn": "2026-12-04", "rpm": 8}]}"#
        let unpriced = try tmp.file(#"{"api": {"model": "twelve-data"}, "# + tiers + "}")
        for command in [["scenario", "--check", unpriced], ["simulate", "--scenario", unpriced]] {
            let (code, out, err) = TestSupport.cli(command)
            #expect(code == .dataError && out.isEmpty, "\(command)")
            #expect(err.contains("no price for model \"twelve-data\""), "\(command): \(err)")
        }
        // Billed per credit, it needs none.
        let credits = try tmp.file(
            #"{"api": {"model": "twelve-data", "pricing": {"per": "credit", "creditsPerRequest": 5}}, "# + tiers + "}")
        let (code, out, _) = TestSupport.cli(["scenario", "--check", credits])
        #expect(code == .success && out.contains("\"creditsPerRequest\" : 5"))
    }
}
