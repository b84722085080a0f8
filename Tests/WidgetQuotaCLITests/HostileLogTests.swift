import Foundation
import Testing
import WidgetQuotaLogs
import WidgetQuotaLogsTestSupport
import WidgetQuotaSupport
import WidgetQuotaTestSupport

/// Hostile log files through `analyze`: the exit code, the message, and what the numbers say.
@Suite("hostile log") struct HostileLogTests {
    static let line =
        #"{"timestamp":"2025-07-27 15:47:10.504275-0400","eventMessage":"[com.apple.chrono:timeline] Request ended for W:systemSmall:(noIntent) - success","processImagePath":"\/private\/var\/containers\/Bundle\/Application\/X\/App.app\/PlugIns\/AppWidgetExtension.appex\/AppWidgetExtension","messageType":"Default","subsystem":"com.apple.chrono","category":"timeline","processID":900}"#

    static func ndjson(_ timestamps: [String]) -> String {
        timestamps.map { line.replacingOccurrences(of: "2025-07-27 15:47:10.504275-0400", with: $0) }.joined(separator: "\n") + "\n"
    }

    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let bytes: [UInt8]
        let extra: [String]
        let code: ExitCode
        let message: String
        var testDescription: String { name }
        init(_ name: String, _ text: String, extra: [String] = [], _ code: ExitCode, _ message: String) {
            self.init(name, Array(text.utf8), extra: extra, code, message)
        }
        init(_ name: String, _ bytes: [UInt8], extra: [String] = [], _ code: ExitCode, _ message: String) {
            self.name = name
            self.bytes = bytes
            self.extra = extra
            self.code = code
            self.message = message
        }
    }

    static let cases: [Case] = [
        Case("empty file", "", .noInput, "the file is empty"),
        Case("binary garbage", [0x00, 0x01, 0x02, 0x67, 0xFF, 0xFE, 0x0A], .dataError, "not a log in a known format"),
        Case(
            "a 10 MB line, strict", line + "\n" + #"{"eventMessage":""# + String(repeating: "x", count: 10_500_000) + "\"}\n" + line + "\n",
            extra: ["--strict"], .dataError, ":2: line longer than 1 MiB"),
        Case("malformed line, strict", line + "\n{\"timestamp\": 12\n", extra: ["--strict"], .dataError, ":2:"),
        Case("unknown option", line, extra: ["--stirct"], .usage, "did you mean --strict?"),
        Case(
            "a trace timestamp without its offset, strict",
            #"{"schemaVersion":1,"timestamp":"2026-09-01T10:00:00","device":"d","event":"getTimeline"}"# + "\n",
            extra: ["--strict"], .dataError, ":1: the timestamp has no UTC offset"),
        Case(
            "an impossible date, strict",
            #"{"schemaVersion":1,"timestamp":"2026-02-31T10:00:00Z","device":"d","event":"getTimeline"}"# + "\n",
            extra: ["--strict"], .dataError, ":1: expected an ISO 8601 timestamp"),
        Case(
            "invalid rules regex", line,
            extra: ["--rules", "RULES:{\"rules\": [{\"event\": \"apiRequest\", \"message\": \"([unclosed\"}]}"],
            .dataError, "rules[0]"),
        Case(
            "rules for an unknown event", line, extra: ["--rules", "RULES:{\"rules\": [{\"event\": \"teleport\", \"message\": \"x\"}]}"],
            .dataError, "teleport"),
        Case("missing rules file", line, extra: ["--rules", "/nonexistent/rules.json"], .noInput, "no such file"),
    ]

    @Test("bad logs get a clear error and its exit code", arguments: cases)
    func badLogsGetAClearErrorAndItsExitCode(_ c: Case) throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let path = try tmp.file("", name: "device.ndjson")
        try Data(c.bytes).write(to: URL(fileURLWithPath: path))
        var extra = c.extra
        for (i, arg) in extra.enumerated() where arg.hasPrefix("RULES:") {
            extra[i] = try tmp.file(String(arg.dropFirst(6)), name: "rules.json")
        }
        let (code, _, err) = TestSupport.cli(["analyze", path] + extra)
        #expect(code == c.code, "\(c.name): exit \(code.rawValue): \(err.prefix(300))")
        #expect(err.contains(c.message), "\(c.name): \(err.prefix(300))")
        #expect(err.count < 4_000)
    }

    /// Without --strict, damage is counted and reported, and the good lines still count.
    @Test(
        "damage is counted not fatal",
        arguments: [
            ("a 10 MB line", line + "\n" + #"{"eventMessage":""# + String(repeating: "x", count: 10_500_000) + "\"}\n" + line + "\n", 1),
            ("an array that never closes", "[{\n\"timestamp\" : \"2025-07-27 15:47:10.504275-0400\",\n\"eventMessage\" : \"hi\",\n", 1),
            ("a cut-off last line", line + "\n" + String(line.prefix(80)), 1),
            ("invalid UTF-8 in a message", line.replacingOccurrences(of: "success", with: "succ\u{FFFD}ss") + "\n", 0),
        ])
    func damageIsCountedNotFatal(name: String, text: String, malformed: Int) throws {
        var text = text
        if name.contains("UTF-8") {
            var bytes = Array(text.utf8)
            if let at = bytes.firstIndex(of: 0xEF) { bytes.replaceSubrange(at..<(at + 3), with: [0xC3, 0x28]) }
            text = String(decoding: bytes, as: UTF8.self)
        }
        var analyzer = LogAnalyzer()
        var source = MemoryByteSource(Array(text.utf8))
        try analyzer.read(source: &source, name: "device.ndjson")
        let a = analyzer.analysis()
        #expect(a.malformedLines == malformed, "\(name): \(a.malformedLines) malformed")
    }

    /// Counts a log may claim (tokens per request) are summed per device-day: a sum past
    /// `Int.max` saturates rather than trapping, in every format that carries them.
    @Test(
        "token counts that sum past Int.max do not crash",
        arguments: [
            (
                "trace.ndjson",
                (1...12).map {
                    #"{"schemaVersion":1,"timestamp":"2026-09-01T10:00:\#(10 + $0).000Z","device":"d","event":"apiRequest","actor":"app","tokens":999999999999999999}"#
                }
                .joined(separator: "\n")
            ),
            (
                "trace.csv",
                TraceFormat.csvHeader + "\n"
                    + (1...12).map {
                        "1,2026-09-01T10:00:\(10 + $0).000Z,d,apiRequest" + String(repeating: ",", count: 8)
                            + "app,,,999999999999999999,"
                    }.joined(separator: "\n")
            ),
            (
                "compact.log",
                (1...2).map { "2026-09-01 10:00:0\($0).000 Df App[1:2] [WidgetQuota] apiRequest actor=app tokens=9223372036854775807" }
                    .joined(separator: "\n")
            ),
        ])
    func tokenSumsSaturate(name: String, text: String) throws {
        let a = try LogTestSupport.analyze(text + "\n", name: name)
        #expect(a.malformedLines == 0, "\(name)")
        #expect(LogTestSupport.total(a, \.appRequests) >= 2, "\(name)")
    }

    /// Instances are counted from the events that render one: a reload call that names only the
    /// kind, or a request that names only the instance, is not another widget on the device.
    @Test("events that name a part of a widget are not more instances") func eventsThatNameAPartOfAWidgetAreNotMoreInstances() throws {
        let lines = [
            #"{"schemaVersion":1,"timestamp":"2026-09-01T10:00:00Z","device":"d","event":"getTimeline","widgetKind":"W","widgetFamily":"systemSmall","instance":0}"#,
            #"{"schemaVersion":1,"timestamp":"2026-09-01T10:00:01Z","device":"d","event":"apiRequest","actor":"extension","instance":0}"#,
            #"{"schemaVersion":1,"timestamp":"2026-09-01T11:00:00Z","device":"d","event":"reloadTimelines","widgetKind":"W"}"#,
            #"{"schemaVersion":1,"timestamp":"2026-09-01T12:00:00Z","device":"d","event":"getTimeline","widgetKind":"W","widgetFamily":"systemSmall","instance":0}"#,
            #"{"schemaVersion":1,"timestamp":"2026-09-01T12:00:01Z","device":"d","event":"cacheHit","instance":0}"#,
        ]
        let a = try LogTestSupport.analyze(lines.joined(separator: "\n") + "\n", name: "trace.ndjson")
        #expect(a.perDevice.map(\.instances) == [1])
    }

    /// A file given twice, or as itself and inside its folder, counts once; an empty file inside
    /// a folder is skipped like any other non-log, and a folder with no log at all is an error.
    @Test("each file counts once and a folder needs one log") func eachFileCountsOnceAndAFolderNeedsOneLog() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let path = try tmp.file(Self.ndjson(["2025-07-27 15:47:10.504275-0400"]), name: "device.ndjson")
        let folder = (path as NSString).deletingLastPathComponent
        try Data().write(to: URL(fileURLWithPath: folder + "/zz-empty.log"))
        let twice = TestSupport.cli([
            "analyze", "--format", "json", path, folder, folder + "/../" + (folder as NSString).lastPathComponent + "/device.ndjson",
        ])
        #expect(twice.code == .success, "\(twice.err)")
        let json = try JSONValue.parse(Data(twice.out.utf8), file: "out.json")
        #expect(json["perDeviceDay"]?["getTimeline"]?["mean"]?.number == 1)
        let notes = json["notes"]?.array?.compactMap(\.string) ?? []
        #expect(notes.filter { $0.contains("which was read already") }.count == 2, "\(notes)")
        #expect(notes.contains { $0.contains("zz-empty.log: the file is empty") }, "\(notes)")

        let empty = (try tmp.file("", name: "only.log") as NSString).deletingLastPathComponent
        let none = TestSupport.cli(["analyze", empty])
        #expect(none.code == .dataError && none.err.contains("the folder holds no log in a known format"), "\(none.err)")
    }

    /// A hard link to a log and a byte-for-byte copy of it in the same folder are the same log:
    /// counted once each, with a note; a file of the same size but other bytes is a log of its own.
    @Test("a hard link or a copy of a log counts once") func hardLinksAndCopiesCountOnce() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let path = try tmp.file(Self.ndjson(["2025-07-27 15:47:10.504275-0400"]), name: "a.ndjson")
        let folder = (path as NSString).deletingLastPathComponent
        let single = TestSupport.cli(["analyze", "--format", "json", path])
        try FileManager.default.linkItem(atPath: path, toPath: folder + "/b-link.ndjson")
        try FileManager.default.copyItem(atPath: path, toPath: folder + "/c-copy.ndjson")
        let run = TestSupport.cli(["analyze", "--format", "json", folder])
        #expect(run.code == .success, "\(run.err)")
        let json = try JSONValue.parse(Data(run.out.utf8), file: "out.json")
        let alone = try JSONValue.parse(Data(single.out.utf8), file: "single.json")
        #expect(json["perDeviceDay"]?["getTimeline"]?["mean"]?.number == alone["perDeviceDay"]?["getTimeline"]?["mean"]?.number)
        #expect(json["devices"]?.number == alone["devices"]?.number)
        let notes = json["notes"]?.array?.compactMap(\.string) ?? []
        #expect(notes.contains { $0.contains("b-link.ndjson: the same file as") }, "\(notes)")
        #expect(notes.contains { $0.contains("c-copy.ndjson: a copy of") && $0.contains("(the same bytes)") }, "\(notes)")
        // The same size, one byte different: read as a log of its own.
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let digit = bytes.lastIndex { $0 >= 0x30 && $0 <= 0x38 }!
        bytes[digit] += 1
        try bytes.write(to: URL(fileURLWithPath: folder + "/d-other.ndjson"))
        let other = TestSupport.cli(["analyze", "--format", "json", folder])
        let otherNotes = try JSONValue.parse(Data(other.out.utf8), file: "o.json")["notes"]?.array?.compactMap(\.string) ?? []
        #expect(!otherNotes.contains { $0.contains("d-other.ndjson") }, "\(otherNotes)")
    }

    /// Terminal escape sequences and other control characters in a log never reach an output:
    /// a device name that clears the screen prints as U+FFFD in Markdown and CSV.
    @Test("control characters never reach an output") func controlCharactersNeverReachAnOutput() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let text =
            #"{"schemaVersion":1,"timestamp":"2026-09-01T10:00:00Z","device":"d\u001b[2J\u001b]0;owned\u0007","event":"fetchError","detail":"x\u001b[31mRED\u0000"}"#
            + "\n"
        let path = try tmp.file(text, name: "esc.ndjson")
        for format in ["markdown", "csv", "json"] {
            let r = TestSupport.cli(["analyze", "--format", format, path])
            #expect(r.code == .success, "\(r.err)")
            let controls = r.out.unicodeScalars.filter {
                ($0.value < 0x20 && $0 != "\n" && $0 != "\r" && $0 != "\t") || ($0.value >= 0x7F && $0.value <= 0x9F)
            }
            #expect(controls.isEmpty, "\(format): \(controls.map(\.value))")
        }
    }

    /// A NUL or an escape inside a widget's or a device's name would count another widget or
    /// device: in every style the line is malformed instead, and the counts stay those of the log
    /// without that line.
    @Test(
        "a control character in a widget's or device's name is a malformed line, not another widget",
        arguments: ["trace", "trace-csv", "ndjson", "json", "default", "syslog", "compact"])
    func controlCharactersInNamesAreMalformed(style: String) throws {
        let trace = TestSupport.cli(["trace", "--design", "direct", "--devices", "1", "--days", "2", "--style", style])
        #expect(trace.code == .success, "\(trace.err)")
        let json = style == "trace" || style == "ndjson" || style == "json"
        let plain = style.hasPrefix("trace") ? (json ? #""widgetKind":"AIMessageWidget""# : ",AIMessageWidget,") : "for AIMessageWidget:"
        for control in json ? [#"\u0000"#, #"\u001b"#, #"\u202e"#] : ["\u{0}", "\u{1b}", "\u{7f}"] {
            let hostile = trace.out.replacingFirst(plain, with: plain.replacingOccurrences(of: "Widget", with: control + "Widget"))
            #expect(hostile != trace.out, "\(style): no widget name to change")
            let clean = try LogTestSupport.analyze(trace.out, name: "d.log")
            let dirty = try LogTestSupport.analyze(hostile, name: "d.log")
            #expect(dirty.malformedLines == clean.malformedLines + 1, "\(style) \(control)")
            #expect(dirty.perDevice.map(\.instances) == clean.perDevice.map(\.instances), "\(style) \(control)")
            #expect(dirty.devices == clean.devices)
        }
        if style.hasPrefix("trace") {
            let device = json ? #""device":"direct-001""# : ",direct-001,"
            let hostile = trace.out.replacingFirst(device, with: device.replacingOccurrences(of: "-", with: json ? #"\u0000-"# : "\u{0}-"))
            let dirty = try LogTestSupport.analyze(hostile, name: "d.log")
            #expect(dirty.devices == 1 && dirty.malformedLines == 1, "\(style)")
        }
    }

    /// Every control and format character a name could carry (C0, DEL, C1, bidi marks, overrides
    /// and isolates, line and paragraph separators, the BOM), in every style: never another widget.
    static let unprintable: [Unicode.Scalar] =
        (Array(0x00...0x1F) + Array(0x7F...0x9F) + [
            0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069, 0x2028, 0x2029, 0xFEFF,
        ]).map { Unicode.Scalar(UInt32($0))! }

    @Test(
        "no control or format character in a widget's name adds a widget, in any style",
        arguments: ["trace", "trace-csv", "ndjson", "json", "default", "syslog", "compact"])
    func noUnprintableNameAddsAWidget(style: String) throws {
        let trace = TestSupport.cli(["trace", "--design", "direct", "--devices", "1", "--days", "2", "--style", style])
        let json = style == "trace" || style == "ndjson" || style == "json"
        let plain = style.hasPrefix("trace") ? (json ? #""widgetKind":"AIMessageWidget""# : ",AIMessageWidget,") : "for AIMessageWidget:"
        let clean = try LogTestSupport.analyze(trace.out, name: "d.log")
        var malformed = 0
        for u in Self.unprintable {
            // A raw line break ends the line in a text style: that is a cut line, not a name.
            if !json && (u == "\n" || u == "\r") { continue }
            let written = json ? String(format: "\\u%04x", u.value) : String(Character(u))
            let hostile = trace.out.replacingFirst(plain, with: plain.replacingOccurrences(of: "Widget", with: written + "Widget"))
            let dirty = try LogTestSupport.analyze(hostile, name: "d.log")
            #expect(dirty.perDevice.map(\.instances) == clean.perDevice.map(\.instances), "\(style) U+\(String(u.value, radix: 16))")
            #expect(dirty.devices == clean.devices, "\(style) U+\(String(u.value, radix: 16))")
            if dirty.malformedLines > clean.malformedLines { malformed += 1 }
        }
        // Most characters keep the line's shape, so it is read and reported as malformed.
        #expect(malformed * 10 >= Self.unprintable.count * 8, "\(style): \(malformed) of \(Self.unprintable.count) malformed")
    }

    @Test("exact duplicate lines count once") func exactDuplicateLinesCountOnce() throws {
        let once = try analyze(Self.ndjson(["2025-07-27 15:47:10.504275-0400", "2025-07-27 16:47:10.504275-0400"]))
        let twice = try analyze(
            Self.ndjson([
                "2025-07-27 15:47:10.504275-0400", "2025-07-27 16:47:10.504275-0400",
                "2025-07-27 15:47:10.504275-0400",
            ]))
        #expect(once.perDeviceDay.getTimeline.mean == 2)
        #expect(twice.perDeviceDay.getTimeline.mean == 2)
        #expect(twice.duplicateLines == 1)
        #expect(twice.notes.contains { $0.contains("counted once") })
    }

    /// A source that can be read again and counts how often it is.
    final class CountingSource: RereadableByteSource, @unchecked Sendable {
        var inner: MemoryByteSource
        var rereads = 0
        init(_ text: String) { inner = MemoryByteSource(text, maxRead: 97) }
        func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int { try inner.read(into: buffer) }
        var canReread: Bool { true }
        var position: Int { inner.position }
        func reread(at offset: Int, into buffer: UnsafeMutableRawBufferPointer) -> Int {
            rereads += 1
            return inner.reread(at: offset, into: buffer)
        }
    }

    @Test("the analyzer confirms repeats by reading a source again when it can, a block at a time")
    func analyzerRereadsWhenItCan() throws {
        let day = (0..<200).map { String(format: "2025-07-27 %02d:%02d:%02d.504275-0400", 8 + $0 / 60, $0 % 60, $0 % 7) }
        var source = CountingSource(Self.ndjson(day + day))
        var analyzer = LogAnalyzer()
        try analyzer.read(source: &source, name: "device.ndjson")
        #expect(analyzer.analysis().duplicateLines == 200)
        #expect(source.rereads >= 1 && source.rereads <= 2, "\(source.rereads) reads for 200 repeats in one block")
    }

    @Test("a file read again to confirm repeats counts them as a pipe that keeps copies does")
    func rereadingAFileAgreesWithCopies() throws {
        let day = (0..<40).map { String(format: "2025-07-27 %02d:%02d:10.504275-0400", 8 + $0 / 6, $0 % 6 * 10) }
        // A byte-order mark, a copied line, and the export pasted again after it.
        let text = "\u{FEFF}" + Self.ndjson(day + [day[3]] + day)
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let path = try tmp.file(text, name: "reread.ndjson")
        var fromFile = LogAnalyzer()
        try fromFile.read(path: path)
        var fromPipe = LogAnalyzer()
        var pipe = ForwardOnlyByteSource(inner: MemoryByteSource(Array(text.utf8), maxRead: 97))
        try fromPipe.read(source: &pipe, name: path)
        let (a, b) = (fromFile.analysis(), fromPipe.analysis())
        #expect(a.duplicateLines == 41 && b.duplicateLines == 41)
        #expect(a.perDeviceDay.getTimeline.mean == 40 && b.perDeviceDay.getTimeline.mean == 40)
        #expect(a.linesRecognised == b.linesRecognised)
    }

    @Test("standard input that is a file already partly read finds its repeats where they are")
    func partlyReadFileFindsRepeats() throws {
        let day = (0..<10).map { String(format: "2025-07-27 %02d:00:10.504275-0400", 8 + $0) }
        let skipped = "not part of the export\n"
        let text = skipped + Self.ndjson(day + day)
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let path = try tmp.file(text, name: "stdin.ndjson")
        let fd = open(path, O_RDONLY)
        try #require(fd >= 0)
        defer { close(fd) }
        try #require(lseek(fd, off_t(skipped.utf8.count), SEEK_SET) == off_t(skipped.utf8.count))
        var source = FileDescriptorSource(descriptor: fd, name: "stdin")
        #expect(source.canReread)
        var analyzer = LogAnalyzer()
        try analyzer.read(source: &source, name: "stdin")
        let a = analyzer.analysis()
        #expect(a.duplicateLines == 10)
        #expect(a.perDeviceDay.getTimeline.mean == 10)
    }

    @Test("a log show --style json export reads as its ndjson twin; an object over 1 MiB is skipped, not fatal")
    func jsonArrayStyle() throws {
        // Braces, brackets, quotes and backslashes inside a string must not end the object.
        let tricky = Self.line.replacingOccurrences(of: #""processID":900}"#, with: #""processID":900,"note":"{ \"}\" [ \\ } ]"}"#)
        let stamps = ["2025-07-27 09:00:00.000000-0400", "2025-07-27 10:00:00.000000-0400", "2025-07-28 09:30:00.000000-0400"]
        let lines = stamps.map { tricky.replacingOccurrences(of: "2025-07-27 15:47:10.504275-0400", with: $0) }
        let pretty = try lines.map { line -> String in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
            return String(
                decoding: try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys]), as: UTF8.self)
        }
        let huge =
            "{\n" + (0..<1_100).map { "  \"pad\($0)\" : \"\(String(repeating: "x", count: 1_000))\"" }.joined(separator: ",\n") + "\n}"
        let ndjson = try analyze(lines.joined(separator: "\n") + "\n")
        let array = try analyze("[" + pretty.joined(separator: ",") + "]\n")
        let withHuge = try analyze("[" + pretty[0] + "," + huge + "," + pretty[1...].joined(separator: ",") + "]\n")
        #expect(ndjson.malformedLines == 0 && array.malformedLines == 0)
        for a in [array, withHuge] {
            #expect(a.deviceDays == ndjson.deviceDays)
            #expect(a.perDeviceDay.getTimeline.mean == ndjson.perDeviceDay.getTimeline.mean)
        }
        #expect(ndjson.perDeviceDay.getTimeline.mean == 1.5)
        #expect(withHuge.malformedLines == 1)
        #expect(withHuge.malformedExamples.contains { $0.contains("JSON object longer than 1 MiB") })
    }

    @Test("out of order timestamps count the same") func outOfOrderTimestampsCountTheSame() throws {
        let ordered = try analyze(
            Self.ndjson([
                "2025-07-27 09:00:00.000000-0400", "2025-07-27 10:00:00.000000-0400",
                "2025-07-28 09:00:00.000000-0400",
            ]))
        let shuffled = try analyze(
            Self.ndjson([
                "2025-07-28 09:00:00.000000-0400", "2025-07-27 10:00:00.000000-0400",
                "2025-07-27 09:00:00.000000-0400",
            ]))
        #expect(ordered.deviceDays == 2 && shuffled.deviceDays == 2)
        #expect(ordered.perDeviceDay.getTimeline.mean == shuffled.perDeviceDay.getTimeline.mean)
    }

    @Test("a stray future timestamp adds one day not years") func aStrayFutureTimestampAddsOneDayNotYears() throws {
        let a = try analyze(
            Self.ndjson([
                "2025-07-27 09:00:00.000000-0400", "2025-07-28 09:00:00.000000-0400",
                "2099-12-31 23:00:00.000000-0400",
            ]))
        #expect(a.deviceDays == 3)
        #expect(a.notes.contains { $0.contains("not counted as device-days") })
        let ancient = try analyze(Self.ndjson(["2025-07-27 09:00:00.000000-0400", "1970-01-01 00:00:00.000000-0400"]))
        #expect(ancient.deviceDays == 1)
        #expect(ancient.malformedLines == 1)
    }

    func analyze(_ text: String) throws -> LogAnalysis {
        var analyzer = LogAnalyzer()
        var source = MemoryByteSource(Array(text.utf8))
        try analyzer.read(source: &source, name: "device.ndjson")
        return analyzer.analysis()
    }
}

extension String {
    fileprivate func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let r = range(of: target) else { return self }
        return replacingCharacters(in: r, with: replacement)
    }
}
