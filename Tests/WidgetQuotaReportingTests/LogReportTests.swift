import Foundation
import Testing
import WidgetQuotaLogs
import WidgetQuotaLogsTestSupport
import WidgetQuotaReporting
import WidgetQuotaTestSupport

/// What the log analysis report says about itself.
@Suite("log report") struct LogReportTests {
    /// Logs of two apps are summed as if they were one: the report says so, and one app's do not.
    @Test("mixed apps are named") func mixedAppsAreNamed() throws {
        let text = try String(contentsOfFile: LogTestSupport.fixture("apple-default.log"), encoding: .utf8)
        var analyzer = LogAnalyzer(options: .init())
        var one = MemoryByteSource(text, maxRead: .max)
        try analyzer.read(source: &one, name: "gemini.log")
        let single = LogReport(analyzer.analysis()).markdown()
        #expect(!single.contains("Mixed apps"))
        #expect(single.contains("--emit-scenario measured.json"), "says how a projection would use the figures")

        var other = MemoryByteSource(text.replacingOccurrences(of: "GeminiApp", with: "WeatherApp"), maxRead: .max)
        try analyzer.read(source: &other, name: "weather.log")
        let mixed = LogReport(analyzer.analysis()).markdown()
        #expect(mixed.contains("**Mixed apps.** These logs come from more than one app (GeminiApp, WeatherApp)"))
    }
}
