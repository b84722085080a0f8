import Testing
import WidgetQuotaLogs
import WidgetQuotaLogsTestSupport
import WidgetQuotaModel
import WidgetQuotaTestSupport

/// Every Apple style holds the same story (see Fixtures/logs): the extension ends timeline
/// requests, chronod reports a reload outcome, the app runs a background task and makes
/// requests, and system daemons make requests that must not count.
@Suite("Apple log fixtures")
struct AppleLogFixtureTests {
    struct Expectation: Sendable, CustomStringConvertible {
        let file: String
        let format: String
        let getTimeline: Int
        let appRequests: Int
        let bgLaunches: Int
        let malformed: Int
        var description: String { file }
    }

    // The counts follow from each fixture's lines, listed in its generator comments and README.
    static let cases: [Expectation] = [
        .init(file: "apple.ndjson", format: "ndjson", getTimeline: 2, appRequests: 1, bgLaunches: 1, malformed: 0),
        .init(file: "apple-crlf-truncated.ndjson", format: "ndjson", getTimeline: 2, appRequests: 1, bgLaunches: 1, malformed: 2),
        .init(file: "apple.json", format: "json", getTimeline: 2, appRequests: 1, bgLaunches: 1, malformed: 0),
        .init(file: "apple-default.log", format: "default", getTimeline: 1, appRequests: 1, bgLaunches: 2, malformed: 0),
        .init(file: "apple-syslog.log", format: "syslog", getTimeline: 1, appRequests: 1, bgLaunches: 1, malformed: 1),
        .init(file: "apple-compact.log", format: "compact", getTimeline: 2, appRequests: 0, bgLaunches: 1, malformed: 0),
    ]

    @Test("reads each style", arguments: cases)
    func readsStyle(_ c: Expectation) throws {
        let a = try LogTestSupport.analyze(fixtures: [c.file])
        #expect(a.files.map(\.format) == [c.format])
        #expect(a.devices == 1)
        #expect(LogTestSupport.total(a, \.getTimeline) == c.getTimeline)
        #expect(LogTestSupport.total(a, \.appRequests) == c.appRequests)
        #expect(LogTestSupport.total(a, \.bgLaunches) == c.bgLaunches)
        #expect(a.malformedLines == c.malformed)
        #expect(a.malformedExamples.count == c.malformed)
        #expect(a.extensionProcesses == ["GeminiAppWidgetExtension"])
    }

    @Test(
        "chronod's reload outcome is not a getTimeline",
        arguments: ["apple.ndjson", "apple-default.log", "apple-syslog.log", "apple-compact.log"])
    func reloadOutcomeIsSeparate(file: String) throws {
        let a = try LogTestSupport.analyze(fixtures: [file])
        #expect(LogTestSupport.total(a, \.reloadOutcomes) == 1)
        #expect(LogTestSupport.total(a, \.getTimeline) == a.measurements.flatMap(\.days).reduce(0) { $0 + $1.getTimelineSystem })
    }

    @Test("system daemons' requests never count", arguments: ["apple.ndjson", "apple-default.log", "apple-syslog.log"])
    func daemonsExcluded(file: String) throws {
        let a = try LogTestSupport.analyze(fixtures: [file])
        #expect(a.otherProcessRequests == 1)
        #expect(a.appProcesses == ["GeminiApp"])
    }

    @Test("ndjson and JSON agree") func ndjsonAndJSONAgree() throws {
        let ndjson = try LogTestSupport.analyze(fixtures: ["apple.ndjson"])
        let json = try LogTestSupport.analyze(fixtures: ["apple.json"])
        #expect(ndjson.measurements.map(\.days) == json.measurements.map(\.days))
        #expect(ndjson.linesRecognised == json.linesRecognised)
    }

    @Test("cut off last line is counted not fatal") func cutOffLastLineIsCountedNotFatal() throws {
        let a = try LogTestSupport.analyze(fixtures: ["apple-crlf-truncated.ndjson"])
        #expect(a.malformedExamples.contains { $0.hasSuffix(":12: unterminated string (the line is cut off)") })
        #expect(a.malformedExamples.contains { $0.contains(":4: ") })
    }

    @Test("multi line message stays one record") func multiLineMessageStaysOneRecord() throws {
        // The default-style fetch error spans three lines; its continuation lines are not malformed.
        let a = try LogTestSupport.analyze(fixtures: ["apple-default.log"])
        #expect(LogTestSupport.total(a, \.fetchErrors) == 1)
        #expect(a.malformedLines == 0)
        #expect(a.topErrors.first?.message == "Fetch error: The request timed out.")
    }

    @Test("non ASCII and unicode escapes survive") func nonASCIIAndUnicodeEscapesSurvive() throws {
        let a = try LogTestSupport.analyze(fixtures: ["apple.ndjson"])
        #expect(a.topErrors.contains { $0.message.contains("Zeitüberschreitung 時間切れ") })
        #expect(LogTestSupport.total(a, \.bgSubmitFailures) == 1)
    }

    @Test("compact timestamps are device local") func compactTimestampsAreDeviceLocal() throws {
        let a = try LogTestSupport.analyze(fixtures: ["apple-compact.log"])
        #expect(a.deviceDays == 2)
        #expect(a.notes.contains { $0.contains("no UTC offset") })
    }

    @Test("overrides choose the processes") func overridesChooseTheProcesses() throws {
        var options = LogAnalyzer.Options()
        options.appProcesses = ["nsurlsessiond"]
        let a = try LogTestSupport.analyze(fixtures: ["apple.ndjson"], options: options)
        #expect(a.appProcesses == ["nsurlsessiond"])
        #expect(LogTestSupport.total(a, \.appRequests) == 1)
        #expect(a.otherProcessRequests == 1)
    }

}
