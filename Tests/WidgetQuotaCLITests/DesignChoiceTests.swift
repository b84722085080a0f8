import Foundation
import Testing
import WidgetQuotaModel
import WidgetQuotaSupport
import WidgetQuotaTestSupport

/// Which designs `simulate` and `report` compare, and the recommendation's limits from the flags.
@Suite("Design choice") struct DesignChoiceTests {
    static let scenario = #"""
        {"horizon": {"users": [30], "runs": 1, "days": 3, "sampleUsers": 30},
         "designs": [{"name": "mine", "fetchTriggers": ["appForeground"], "cacheTTLMinutes": 60}]}
        """#

    /// `simulate --format json` on the scenario above with `args`; the report's JSON object.
    static func simulate(_ args: [String]) throws -> (code: ExitCode, err: String, json: [String: Any]) {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let file = try tmp.file(Self.scenario)
        let (code, out, err) = TestSupport.cli(["simulate", "--scenario", file, "--no-sensitivity", "--quiet", "--format", "json"] + args)
        let json = (try? JSONSerialization.jsonObject(with: Data(out.utf8))) as? [String: Any] ?? [:]
        return (code, err, json)
    }

    static func designs(_ json: [String: Any]) -> [String] { (json["method"] as? [String: Any])?["designs"] as? [String] ?? [] }

    @Test("A scenario's own designs and its baseline are compared by default; presets join with --with-presets or --designs")
    func ownDesignsByDefault() throws {
        #expect(Self.designs(try Self.simulate([]).json) == ["cache-bgtask", "mine"])
        #expect(Self.designs(try Self.simulate(["--with-presets"]).json) == DesignPresets.all.map(\.name) + ["mine"])
        #expect(Self.designs(try Self.simulate(["--designs", "mine,direct"]).json) == ["mine", "direct"])
    }

    @Test("--designs with --with-presets, an unknown --max-tier and a share outside 0–1 are usage errors")
    func badChoices() throws {
        let both = try Self.simulate(["--designs", "mine", "--with-presets"])
        #expect(both.code == .usage && both.err.contains("give one"))
        let tier = try Self.simulate(["--max-tier", "tier9"])
        #expect(tier.code == .usage && tier.err.contains("--max-tier: unknown tier \"tier9\""))
        let share = try Self.simulate(["--max-stale-share", "25"])
        #expect(share.code == .usage && share.err.contains("--max-stale-share"))
    }

    @Test("--max-tier and --max-stale-share set the recommendation's limits in report.json")
    func limitsFromFlags() throws {
        let run = try Self.simulate(["--max-tier", "tier1", "--max-stale-share", "0.1"])
        let recommendation = try #require(run.json["recommendation"] as? [String: Any])
        #expect(recommendation["maxTier"] as? String == "tier1")
        #expect(recommendation["maxStaleShare"] as? Double == 0.1)
        #expect(recommendation["ownDesign"] as? String == "mine")
        let defaults = try #require(try Self.simulate([]).json["recommendation"] as? [String: Any])
        #expect(defaults["maxStaleShare"] as? Double == Targets().maxStaleShare)
    }

    @Test("report takes --designs, and its report says back what each compared design does")
    func reportTakesDesigns() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let file = try tmp.file(Self.scenario)
        let folder = tmp.path + "/out"
        let (code, _, err) = TestSupport.cli(["report", "--scenario", file, "--no-logs", "--designs", "mine", "--quiet", "--out", folder])
        #expect(code == .success, "\(err)")
        let md = try String(contentsOfFile: folder + "/report.md", encoding: .utf8)
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder + "/report.json"))) as? [String: Any])
        #expect(Self.designs(json) == ["mine"])
        #expect(md.contains("## Recommendation"))
        #expect(md.contains("| mine (baseline) | Fetched by the app when it is opened"))
    }
}
