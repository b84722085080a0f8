import Foundation
import Testing
import WidgetQuotaLogs
import WidgetQuotaLogsTestSupport
import WidgetQuotaModel
import WidgetQuotaTestSupport

/// The checklist rules `analyze` checks in logs: exact findings on small fixtures of each breach,
/// none on a clean log.
@Suite("checklist in logs")
struct ChecklistWitnessTests {
    /// Analyses a fixture under `logs/checklist/`, named as the file so findings point at it.
    static func findings(_ name: String, design: Design? = nil) throws -> [Finding] {
        var options = LogAnalyzer.Options()
        options.claimedDesign = design
        let text = try Fixtures.text("logs/checklist/" + name)
        return try LogTestSupport.analyze(text, name: name, options: options).findings
    }

    @Test("reloads without a fetch and after a failed fetch are reload-misuse") func reloadMisuse() throws {
        let f = try Self.findings("reload-misuse.log")
        #expect(f.map(\.rule) == [.reloadMisuse, .reloadMisuse])
        // Six reload calls over two successful fetches; the first reload with no fetch before it is line 8.
        #expect(f[0].location == .init(file: "reload-misuse.log", line: 8))
        #expect(f[0].severity == .warning)
        #expect(f[0].message.hasPrefix("3.0 reload calls per successful fetch on device reload-misuse.log"))
        #expect(f[0].message.contains("(6 reload calls, 2 successful fetches; 4 with no successful fetch"))
        // Line 14 reloads 30 s after the failure on line 13; line 16 reloads 2 minutes after one: another refresh.
        #expect(f[1].location == .init(file: "reload-misuse.log", line: 14))
        #expect(f[1].message.hasPrefix("1 reload call within 60 s after a failed fetch"))
        #expect(f[1].message.contains("(of 2 failed fetches"))
    }

    @Test("requests from the extension are graded by the design claimed") func widgetNetworkCall() throws {
        let cache = DesignPresets.cacheBGTask
        let direct = DesignPresets.direct
        let cases: [(Design?, FindingSeverity)] = [(nil, .note), (cache, .error), (direct, .warning)]
        for (design, severity) in cases {
            let f = try Self.findings("widget-network.log", design: design).filter { $0.rule == .widgetNetworkCall }
            #expect(f.count == 1)
            #expect(f.first?.severity == severity, "design \(design?.name ?? "none")")
            #expect(f.first?.location == .init(file: "widget-network.log", line: 4))
            #expect(
                f.first?.message.hasPrefix("4 API requests from the widget extension on device widget-network.log (4.0 per device-day")
                    == true)
        }
        let claimed = try Self.findings("widget-network.log", design: cache).first { $0.rule == .widgetNetworkCall }
        #expect(claimed?.message.hasSuffix("(4.0 per device-day; cache-bgtask says the widget does not fetch)") == true)
    }

    @Test("an extension request right after a snapshot is snapshot-network") func snapshotNetwork() throws {
        let f = try Self.findings("widget-network.log")
        // Line 7 follows the snapshot on line 6 by 1.8 s; line 12 follows a getTimeline (line 11), not a snapshot.
        let snapshot = f.filter { $0.rule == .snapshotNetwork }
        #expect(snapshot.count == 1)
        #expect(snapshot.first?.location == .init(file: "widget-network.log", line: 7))
        #expect(snapshot.first?.severity == .error)
        #expect(snapshot.first?.message.hasPrefix("1 API request from the widget extension within 10 s of a snapshot") == true)
        #expect(snapshot.first?.message.contains("(2 snapshots and placeholders") == true)
        // The app's one reload follows its successful fetch: no reload finding.
        #expect(!f.contains { $0.rule == .reloadMisuse })
        #expect(f.map(\.rule) == [.widgetNetworkCall, .snapshotNetwork], "sorted by line")
    }

    @Test("trace records without a process name are checked by actor") func traceFormat() throws {
        func record(_ time: String, _ event: String, _ extra: String = "") -> String {
            "{\"schemaVersion\":1,\"timestamp\":\"2026-09-01T\(time).000Z\",\"device\":\"phone-a\",\"event\":\"\(event)\"\(extra)}\n"
        }
        let text =
            record("08:00:00", "apiRequest", ",\"actor\":\"background\",\"outcome\":\"failure\"")
            + record("08:00:20", "reloadAllTimelines")
            + record("09:00:00", "getSnapshot", ",\"widgetKind\":\"W\",\"widgetFamily\":\"systemSmall\"")
            + record("09:00:03", "apiRequest", ",\"actor\":\"extension\",\"outcome\":\"success\"")
            // The app's reload is not licensed by the extension's fetch.
            + record("09:30:00", "reloadAllTimelines")
        let f = try LogTestSupport.analyze(text, name: "t.ndjson").findings
        #expect(f.map(\.rule) == [.reloadMisuse, .reloadMisuse, .widgetNetworkCall, .snapshotNetwork])
        #expect(f.map { $0.location.line } == [2, 2, 4, 4])
        #expect(f[0].message.hasPrefix("1 reload call within 60 s after a failed fetch on device phone-a"))
        #expect(f[1].message.hasPrefix("2 reload calls and no successful fetch on device phone-a (1 failed fetch;"))
    }

}
