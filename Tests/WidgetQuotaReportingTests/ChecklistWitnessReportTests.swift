import Foundation
import Testing
import WidgetQuotaLogs
import WidgetQuotaLogsTestSupport
import WidgetQuotaModel
import WidgetQuotaReporting
import WidgetQuotaSupport
import WidgetQuotaTestSupport

@Suite("checklist findings in the log report") struct ChecklistWitnessReportTests {
    @Test("a clean cache log breaches no rule") func cleanLogHasNoFindings() throws {
        var options = LogAnalyzer.Options()
        options.claimedDesign = DesignPresets.cacheBGTask
        let analysis = try LogTestSupport.analyze(try Fixtures.text("logs/checklist/clean.log"), name: "clean.log", options: options)
        // The log is not empty of what the rules look at: three fetches, a failure and three reloads.
        #expect(LogTestSupport.total(analysis, \.reloadCalls) == 3)
        #expect(LogTestSupport.total(analysis, \.failedRequests) == 1)
        #expect(analysis.findings.isEmpty)
        #expect(analysis.rulesChecked == [.widgetNetworkCall, .snapshotNetwork, .reloadMisuse])
        let markdown = LogReport(analysis).markdown()
        #expect(markdown.contains("Checklist: 3 rules checked in the logs"))
        #expect(markdown.contains("none breached"))
        #expect(!markdown.contains("## Checklist"))
    }

    @Test("the JSON holds findings with lint's keys") func jsonKeys() throws {
        let analysis = try LogTestSupport.analyze(try Fixtures.text("logs/checklist/reload-misuse.log"), name: "reload-misuse.log")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(LogReport(analysis).json().utf8)) as? [String: Any])
        let findings = try #require(json["findings"] as? [[String: Any]])
        #expect(findings.count == 2)
        #expect(Set(findings[0].keys) == ["rule", "severity", "file", "line", "column", "message", "fix"])
        #expect(findings[0]["column"] is NSNull, "logs have no column: null, the key still there")
        #expect(findings[0]["rule"] as? String == "reload-misuse")
        #expect(findings[0]["line"] as? Int == 8)
        #expect(json["rulesChecked"] as? [String] == ["widget-network-call", "snapshot-network", "reload-misuse"])
        let markdown = LogReport(analysis).markdown()
        #expect(markdown.contains("## Checklist"))
        #expect(markdown.contains("| warning | `reload-misuse` | `reload-misuse.log:8` | 3.0 reload calls per successful fetch"))
    }
}
