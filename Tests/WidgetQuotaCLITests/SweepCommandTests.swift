import Foundation
import Testing
import WidgetQuotaModel
import WidgetQuotaSupport
import WidgetQuotaTestSupport

@Suite("sweep on the command line") struct SweepCommandTests {
    /// Sweeping a knob the design does not have gives it one: the command says so on standard error.
    @Test(
        "a knob the design lacks is named on standard error",
        arguments: [
            ("direct", "ttl", "has no cache"), ("direct-never", "poll", "has no reload policy"),
            ("cache-on-open", "background", "does not refresh in the background"),
            ("prebuilt-timeline", "poll", "reloads at its timeline's end"),
        ])
    func aKnobTheDesignLacksIsNamedOnStandardError(design: String, knob: String, says: String) throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        var scenario = Scenario()
        var directNever = DesignPresets.direct
        directNever.name = "direct-never"
        directNever.reloadPolicy = .never
        scenario.designs = [directNever]
        let file = try tmp.file(ScenarioLoader.encode(scenario))
        let cli = TestSupport.cli([
            "sweep", "--scenario", file, "--design", design, "--knob", knob, "--values", "60", "--users", "20",
            "--sample-users", "20", "--runs", "1",
        ])
        #expect(cli.code == .success)
        #expect(cli.err.contains("note: \(design) \(says)"))
    }
}
