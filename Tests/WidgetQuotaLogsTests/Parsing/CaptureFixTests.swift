import Foundation
import Testing
import WidgetQuotaLogs
import WidgetQuotaLogsTestSupport
import WidgetQuotaSupport
import WidgetQuotaTestSupport

/// Defects found by running real `log show` captures, each reproduced by a small fixture under
/// Fixtures/logs/captures.
@Suite("Fixes from real log captures")
struct CaptureFixTests {
    @Test("NSError codes stay readable in the error table while OAuth codes in URLs are redacted")
    func nsErrorCodesAreKept() throws {
        let a = try LogTestSupport.analyze(fixtures: ["captures/nserror-codes.ndjson"])
        let messages = a.topErrors.map(\.message)
        #expect(messages.contains { $0.contains("NSURLErrorDomain Code=-1009 ") }, "\(messages)")
        #expect(messages.contains { $0.contains("NSURLErrorDomain Code=-1001 ") }, "\(messages)")
        #expect(messages.contains { $0.contains("NSCocoaErrorDomain Code=4865 ") }, "\(messages)")
        #expect(messages.contains { $0.contains("CHSErrorDomain Code=1103 ") }, "\(messages)")
        #expect(messages.contains { $0.contains("callback?code=[REDACTED]&state=1") }, "\(messages)")
        #expect(messages.contains { $0.contains("&code=[REDACTED] failed") }, "\(messages)")
        #expect(!messages.joined().contains("OAUTHCODE4242") && !messages.joined().contains("730512"))
    }

    @Test("a process that is no known system daemon and logs a task summary is counted as the app")
    func unidentifiedAppIsCounted() throws {
        let a = try LogTestSupport.analyze(fixtures: ["captures/unidentified-app.ndjson"])
        #expect(a.appProcesses == ["example"])
        #expect(LogTestSupport.total(a, \.apiRequests) == 1)
        #expect(a.otherProcessRequests == 1)
        #expect(a.notes.contains { $0.contains("example") && $0.contains("taken as the app") && $0.contains("--app NAME") })
        // The left-out request is named by its process, not blamed on daemons in general.
        #expect(a.notes.contains { $0.contains("(trustd 1)") && !$0.contains("such as") })
    }

    @Test("a process left out while the app is known is named, with the option to count it")
    func leftOutProcessIsNamed() throws {
        // GeminiApp is the app (it logs BackgroundTasks lines); "helper" logs a request too.
        let text = try String(contentsOfFile: LogTestSupport.fixture("captures/unidentified-app.ndjson"), encoding: .utf8)
        let bgLine =
            #"{"eventMessage":"Received run request for com.example.refresh","processImagePath":"\/x\/GeminiApp","timestamp":"2026-03-03 10:00:02.000000+0100","messageType":"Default"}"#
        let a = try LogTestSupport.analyze(text + bgLine + "\n")
        #expect(a.appProcesses == ["GeminiApp"])
        #expect(a.otherProcessRequests == 2)
        #expect(a.notes.contains { $0.contains("example 1") && $0.contains("If example is your app, pass --app example.") })
    }

    @Test("a recognised export is not flagged as recognising nothing")
    func recognisedExportIsNotFlagged() throws {
        let a = try LogTestSupport.analyze(fixtures: ["apple-default.log"])
        #expect(!a.recognisedNothing)
        #expect(!a.notes.contains { $0.contains("was recognised") })
    }

    @Test("HTTP 101 (a websocket upgrade) and other 1xx statuses are not failed requests")
    func informationalStatusIsNoFailure() throws {
        let a = try LogTestSupport.analyze(fixtures: ["captures/websocket-upgrade.log"])
        #expect(a.appProcesses == ["ChatApp"])
        #expect(LogTestSupport.total(a, \.apiRequests) == 3)
        #expect(LogTestSupport.total(a, \.failedRequests) == 1)  // the 503 only
        #expect(a.apiErrorRate.map { abs($0 - 1.0 / 3.0) < 1e-12 } == true)
    }

    @Test("the `<image`symbol>` prefix of `log show --source` is kept out of the process name")
    func sourcePrefixIsNotTheProcess() throws {
        let a = try LogTestSupport.analyze(fixtures: ["captures/source-prefix.log"])
        #expect(a.extensionProcesses == ["MyWidgetExtension"])
        #expect(a.appProcesses == ["MyApp"])
        #expect(LogTestSupport.total(a, \.getTimeline) == 2)
        // The kernel's line is a system process's again, so it launches nothing.
        #expect(LogTestSupport.total(a, \.bgLaunches) == 1)
    }

    @Test(
        "the source prefix is its own field in every text style",
        arguments: [
            (
                "2026-03-06 10:00:00.000000+0100 0x1 Default 0x0 902 0    <WidgetKit`sub_1920A2790> MyWidgetExtension: (WidgetKit) hello",
                AppleTextHeader.Style.standard
            ),
            ("2026-03-06 10:00:00.000000+0100  localhost <WidgetKit`sub_1920A2790> MyWidgetExtension[902]: hello", .syslog),
            ("2026-03-06 10:00:00.000 Df <WidgetKit`sub_1920A2790> MyWidgetExtension[902:2d3c4] hello", .compact),
        ])
    func sourcePrefixInEveryStyle(line: String, style: AppleTextHeader.Style) throws {
        let bytes = Array(line.utf8)
        try bytes.withUnsafeBufferPointer { b in
            let header = try AppleTextHeader.parse(b, style: style).get()
            #expect(ByteSearch.string(b, header.process) == "MyWidgetExtension")
            #expect(header.source.map { ByteSearch.string(b, $0) } == "WidgetKit`sub_1920A2790")
            #expect(ByteSearch.string(b, header.message..<b.count) == "hello")
        }
        // Without the prefix there is no source, and a `<private>` process stays whole.
        let plain = Array("2026-03-06 10:00:00.000 Df <private>[902:2d3c4] hello".utf8)
        try plain.withUnsafeBufferPointer { b in
            let header = try AppleTextHeader.parse(b, style: .compact).get()
            #expect(header.source == nil)
            #expect(ByteSearch.string(b, header.process) == "<private>")
        }
    }

    /// A file that ends inside its last record (a copy cut short) must not count what is left
    /// of it: cut in the widget's name it would add an instance, cut in "- success" an error.
    @Test(
        "a last record cut off is reported and left out, in every text style",
        arguments: ["apple-default.log", "apple-syslog.log", "apple-compact.log"])
    func cutLastRecord(fixture: String) throws {
        let text = try String(contentsOfFile: LogTestSupport.fixture(fixture), encoding: .utf8)
        #expect(text.hasSuffix("\n"))
        let whole = try LogTestSupport.analyze(text, name: fixture)
        // Without the last record at all, for comparison.
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        let last = String(lines.removeLast())
        let without = try LogTestSupport.analyze(lines.joined(separator: "\n") + "\n", name: fixture)
        for cut in [last.dropLast(5), last.dropLast(0)] {
            let a = try LogTestSupport.analyze(lines.joined(separator: "\n") + "\n" + cut, name: fixture)
            #expect(a.malformedLines == whole.malformedLines + 1, "\(fixture)")
            #expect(a.malformedExamples.contains { $0.contains("the last record is cut off") }, "\(a.malformedExamples)")
            #expect(a.linesRecognised == without.linesRecognised, "\(fixture)")
            #expect(a.perDevice.map(\.instances) == without.perDevice.map(\.instances))
            var strict = LogAnalyzer.Options()
            strict.strict = true
            #expect(throws: WidgetQuotaError.self) {
                _ = try LogTestSupport.analyze(lines.joined(separator: "\n") + "\n" + cut, name: fixture, options: strict)
            }
        }
    }

    /// One bad byte in a widget's name made a second instance; one in "success" made a failure.
    /// The line is now malformed: counted with its file:line and left out (`--strict` stops).
    @Test("invalid UTF-8 is reported with file and line, and the line left out")
    func invalidUTF8() throws {
        let text = try String(contentsOfFile: LogTestSupport.fixture("apple-default.log"), encoding: .utf8)
        let whole = try LogTestSupport.analyze(text, name: "a.log")
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { Array($0.utf8) }
        let index = try #require(lines.lastIndex { String(decoding: $0, as: UTF8.self).contains("Request ended for") })
        let name = Array("Widget:".utf8)
        let at = try #require((0...(lines[index].count - name.count)).first { Array(lines[index][$0..<($0 + name.count)]) == name })
        lines[index].insert(0xFF, at: at)
        var bytes = [UInt8]()
        for (k, line) in lines.enumerated() { bytes += line + (k < lines.count - 1 ? [0x0A] : []) }
        var source = MemoryByteSource(bytes)
        var analyzer = LogAnalyzer()
        try analyzer.read(source: &source, name: "a.log")
        let a = analyzer.analysis()
        #expect(a.malformedLines == whole.malformedLines + 1)
        #expect(
            a.malformedExamples.contains { $0.hasPrefix("a.log:\(index + 1): invalid UTF-8 (byte 0xFF at column") },
            "\(a.malformedExamples)")
        #expect(a.perDevice.map(\.instances) == whole.perDevice.map(\.instances))
        #expect(LogTestSupport.total(a, { $0.getTimeline }) == LogTestSupport.total(whole, { $0.getTimeline }) - 1)
        var strict = LogAnalyzer(
            options: {
                var o = LogAnalyzer.Options()
                o.strict = true
                return o
            }())
        var again = MemoryByteSource(bytes)
        #expect(throws: WidgetQuotaError.self) { try strict.read(source: &again, name: "a.log") }
    }

    /// A `--style ndjson` export appended to a default-style one: every NDJSON line is a record
    /// of its own, not a continuation of the last text record (which turned a request into a
    /// getTimeline and lost the rest).
    @Test("NDJSON records after text ones are a change of style, each counted")
    func ndjsonAfterText() throws {
        let text = try String(contentsOfFile: LogTestSupport.fixture("apple-default.log"), encoding: .utf8)
        let ndjson = try String(contentsOfFile: LogTestSupport.fixture("apple.ndjson"), encoding: .utf8)
        let apart = [try LogTestSupport.analyze(text, name: "a.log"), try LogTestSupport.analyze(ndjson, name: "a.log")]
        let together = try LogTestSupport.analyze(text + ndjson, name: "a.log")
        let fields: [(DeviceDay) -> Int] = [{ $0.getTimeline }, { $0.apiRequests }, { $0.extensionRequests }, { $0.appRequests }]
        for field in fields {
            #expect(LogTestSupport.total(together, field) == apart.reduce(0) { $0 + LogTestSupport.total($1, field) })
        }
        #expect(together.linesRecognised == apart.reduce(0) { $0 + $1.linesRecognised })
        #expect(together.notes.contains { $0.contains("in ndjson style were read in their own style") }, "\(together.notes)")
    }

    @Test("a file that is one line of 2 MB without a line break says so")
    func overlongOnlyLineIsNamed() throws {
        let text = String(repeating: "x", count: 2_000_000)
        #expect {
            _ = try LogTestSupport.analyze(text, name: "long.log")
        } throws: { error in
            "\(error)".contains("its only content is a line longer than 1 MiB without a line break")
                && !"\(error)".contains("blank or header")
        }
    }

    @Test("a cut-off last line in syslog style says it is cut off, as JSON and NDJSON do")
    func cutOffSyslogLineSaysSo() throws {
        let a = try LogTestSupport.analyze(fixtures: ["captures/cut-off-syslog.log"])
        #expect(
            a.malformedExamples.contains {
                $0.hasSuffix("cut-off-syslog.log:4: expected a host name after the timestamp (the line is cut off)")
            })
        // A complete line with the same damage is not called cut off.
        let whole = try LogTestSupport.analyze(
            "2025-07-27 15:47:10.504275-0400  localhost chronod[112]: x\n2025-07-27 18:02:09.000001-0400 \n2025-07-27 18:02:10.000001-0400  h p[1]: y\n"
        )
        #expect(whole.malformedExamples == ["input:2: expected a host name after the timestamp"])
    }

    @Test(
        "styles concatenated in one file are read record by record, in either order, with one note",
        arguments: [
            ("captures/mixed-syslog-then-compact.log", "syslog", "2 in compact style were read"),
            ("captures/mixed-compact-then-others.log", "compact", "1 in default style and 1 in syslog style were read"),
        ])
    func concatenatedStyles(fixture: String, fileStyle: String, counted: String) throws {
        let a = try LogTestSupport.analyze(fixtures: [fixture])
        #expect(a.files.map(\.format) == [fileStyle])
        #expect(a.malformedLines == 0)
        #expect(LogTestSupport.total(a, \.bgLaunches) == 4)
        #expect(a.notes.filter { $0.contains("mixes log show styles") }.count == 1)
        #expect(a.notes.contains { $0.contains("starts in \(fileStyle) style, and \(counted) in their own style.") })
    }

    @Test("a file in one style gets no mixed-styles note")
    func singleStyleHasNoMixedNote() throws {
        for file in ["apple-default.log", "apple-syslog.log", "apple-compact.log"] {
            let a = try LogTestSupport.analyze(fixtures: [file])
            #expect(!a.notes.contains { $0.contains("mixes log show styles") }, "\(file)")
        }
    }
}
