import Foundation
import Testing
import WidgetQuotaLogs
import WidgetQuotaLogsTestSupport
import WidgetQuotaModel
import WidgetQuotaStudies
import WidgetQuotaSupport
import WidgetQuotaTestSupport

@Suite("trace format written by the generator") struct TraceFormatRoundTripTests {
    @Test("NDJSON and CSV carry the same records", arguments: [DesignPresets.direct, DesignPresets.cacheBGTask])
    func ndjsonEqualsCSV(design: Design) throws {
        var scenario = Scenario()
        scenario.horizon.days = 4
        scenario.api.outages = []
        var texts = [String]()
        for style in [TraceGenerator.Style.trace, .traceCSV] {
            let g = TraceGenerator(scenario: scenario, design: design, devices: 3, style: style)
            var text = ""
            for i in 0..<3 { g.write(device: i, header: i == 0) { text += $0 } }
            texts.append(text)
        }
        let a = try LogTestSupport.analyze(texts[0])
        let b = try LogTestSupport.analyze(texts[1])
        #expect(a.measurements.map(\.days) == b.measurements.map(\.days))
        #expect(a.linesRecognised == b.linesRecognised)
        #expect(a.malformedLines == 0 && b.malformedLines == 0)
    }
}
