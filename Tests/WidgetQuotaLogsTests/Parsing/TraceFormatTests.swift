import Testing
import WidgetQuotaLogs
import WidgetQuotaLogsTestSupport
import WidgetQuotaModel
import WidgetQuotaTestSupport

@Suite("Trace format")
struct TraceFormatTests {
    @Test("ndjson fixture") func ndjsonFixture() throws {
        let a = try LogTestSupport.analyze(fixtures: ["trace.ndjson"])
        #expect(a.devices == 2)
        #expect(a.malformedLines == 2)
        #expect(a.malformedExamples[0].hasSuffix(":7: unknown event type; expected one of \(LogEventKind.allNames)"))
        #expect(a.malformedExamples[1].hasSuffix(":8: unsupported schemaVersion 2; this version reads 1"))
        // phone-a: 23:30 +09:00 and 14:30Z fall on the same local calendar day (2026-09-01), the request on the next.
        let phoneA = try #require(a.measurements.first { $0.device == "phone-a" })
        #expect(phoneA.days.map(\.getTimeline) == [2, 0])
        #expect(phoneA.days.map(\.extensionRequests) == [0, 1])
        #expect(phoneA.smartStack == true)
        let phoneB = try #require(a.measurements.first { $0.device == "phone-b" })
        #expect(phoneB.days.map(\.lowPowerMode) == [true, true, false])
        #expect(phoneB.days.map(\.getTimelineSystem) == [0, 0, 0])  // the policy reload is not system-initiated
        #expect(LogTestSupport.total(a, \.failedRequests) == 1)
    }

    @Test("csv fixture") func csvFixture() throws {
        let a = try LogTestSupport.analyze(fixtures: ["trace.csv"])
        #expect(a.files.map(\.format) == ["trace-csv"])
        #expect(a.malformedLines == 1)
        #expect(a.malformedExamples[0].hasSuffix(":5: expected an ISO 8601 timestamp such as 2026-09-01T07:12:03.120-04:00"))
        #expect(a.topErrors.first?.message == "Fetch error: \"quoted\", token=[REDACTED], Zeitüberschreitung")
        #expect(a.measurements[0].instances == 2)
    }

}
