import Foundation
import Testing
import WidgetQuotaLogs
import WidgetQuotaLogsTestSupport
import WidgetQuotaModel
import WidgetQuotaStudies
import WidgetQuotaSupport
import WidgetQuotaTestSupport

@Suite("Apple-style traces read back") struct AppleStyleTraceTests {
    @Test("generated noise never counts") func generatedNoiseNeverCounts() throws {
        // nsurlsessiond and dasd lines in every style `trace` writes stay out of the API request count.
        var scenario = Scenario()
        scenario.horizon.days = 3
        scenario.api.outages = []
        for style in [TraceGenerator.Style.ndjson, .json, .default, .syslog, .compact] {
            let g = TraceGenerator(scenario: scenario, design: DesignPresets.cacheBGTask, devices: 1, style: style)
            var text = ""
            g.write(device: 0, header: true) { text += $0 }
            let a = try LogTestSupport.analyze(text)
            let expected = g.events(device: 0).filter { $0.kind == .apiRequest }.count
            #expect(LogTestSupport.total(a, \.apiRequests) == expected, "\(style)")
            #expect(a.malformedLines == 0, "\(style)")
        }
    }
}
