import Foundation
import WidgetQuotaSupport

/// Reads one input (a file or standard input) line by line: detects its format, joins
/// multi-line messages and JSON objects, recognises events and hands them to the analyzer.
///
/// Only lines that could matter become Strings: Apple records are scanned as bytes and skipped
/// unless their message holds one of the recogniser's byte patterns.
struct LogFileParser {
    /// The name used in `file:line` references.
    let file: String
    let recognizer: AppleLogRecognizer
    let redactor: SecretRedactor

    private(set) var format: LogFormat?
    private var headerHint: LogFormat?
    /// Lines seen before the format was known that fit none (reported once it is known).
    private var undetected: [(line: Int, problem: String)] = []
    /// Lines that were not blank, preamble or header.
    private(set) var contentLines = 0
    /// True when a `log show` column header or preamble line was read before any record.
    private(set) var sawHeader = false
    /// Lines longer than the reader's buffer, skipped.
    private(set) var overlongLines = 0
    /// Records of a text-style file written in another text style (styles concatenated in one
    /// file), by style: default, syslog, compact. Each is read in its own style.
    private var otherStyleRecords = (standard: 0, syslog: 0, compact: 0, ndjson: 0)
    /// The first few distinct process names among the file's first Apple records (redacted), for
    /// the note when nothing is recognised. Sampling stops after `processSampleLimit` records, so
    /// the per-line cost is bounded and nothing is allocated past the first names.
    private(set) var processesSeen: [String] = []
    private var processBytesSeen: [[UInt8]] = []
    private var processSamples = 0
    static let processSampleLimit = 10_000
    static let maxProcessesSeen = 8

    // Text styles: the entry being built (its first line and continuation lines).
    private var pendingLine: [UInt8] = []
    private var pendingHeader: AppleTextHeader?
    private var pendingNumber = 0
    private var continuation: [UInt8] = []
    static let maxContinuation = 64 * 1_024

    // JSON array style.
    private var depth = 0
    private var inString = false
    private var escaped = false
    private var objectBytes: [UInt8] = []
    private var objectLine = 0
    private var objectOverflow = false
    /// True between the array's `[` and its `]`, and the last line read of the array.
    private var arrayOpen = false
    private var arrayLine = 0

    // Trace CSV.
    private var csvReader: TraceCSVReader
    // Trace NDJSON.
    private var traceReader: TraceNDJSONReader
    /// Process, subsystem and category names repeat on every line: made into Strings once.
    private var names = StringCache()

    /// Lines that fit no format before giving up on a file.
    static let detectionLimit = 50

    init(file: String, recognizer: AppleLogRecognizer, redactor: SecretRedactor, duplicates: DuplicateFilter = DuplicateFilter()) {
        self.file = file
        self.duplicates = duplicates
        self.recognizer = recognizer
        self.redactor = redactor
        traceReader = TraceNDJSONReader(redactor: redactor)
        csvReader = TraceCSVReader(redactor: redactor)
    }

    /// A file that is not a log in any known format.
    func unknownFormat() -> WidgetQuotaError {
        .malformedInput(
            file: file, line: nil,
            problem: "not a log in a known format; expected a WidgetQuota trace (NDJSON or CSV) "
                + "or an Apple `log show` export (--style ndjson, json, default, syslog or compact)")
    }

    // MARK: Lines

    private var duplicates: DuplicateFilter
    private var skippingRepeat = false

    mutating func consume(_ line: LineView, into sink: inout some LogRecordSink) throws {
        if line.isOverlong {
            overlongLines += 1
            try flushPending(into: &sink)
            try sink.malformed(
                file: file, line: line.number,
                problem: "line longer than \(LineReader.defaultBufferSize / 1_048_576) MiB; skipped to the next line")
            return
        }
        var b = line.bytes
        var offset = line.offset
        if line.number == 1, b.count >= 3, b[0] == 0xEF, b[1] == 0xBB, b[2] == 0xBF {
            b = UnsafeBufferPointer(rebasing: b[3...])
            offset += 3
        }
        // A bad byte would change what the line says (a widget's name, "success"), so the line
        // is malformed: left out, except inside a pretty-printed JSON export, where leaving out
        // a line would break the object around it (there it is reported and read).
        // (Before the format is known, a file of binary garbage is "not a log", said as such.)
        if format != nil, let column = UTF8Validation.firstInvalidColumn(b) {
            try sink.malformed(
                file: file, line: line.number,
                problem: "invalid UTF-8 (byte \(String(format: "0x%02X", b[column - 1])) at column \(column))"
                    + (format == .appleJSON ? "" : "; the line is left out"))
            if format != .appleJSON { return }
        }
        guard let format else { return try detect(b, line: line, into: &sink) }
        // Exact repeats of timestamped lines are counted once (pretty JSON repeats lines legitimately).
        if format != .appleJSON, let first = b.first, first == 0x7B || (first >= 0x30 && first <= 0x39) || format == .traceCSV,
            !ByteSearch.isBlank(b)
        {
            if duplicates.isRepeat(b, at: offset) {
                sink.duplicateLines += 1
                skippingRepeat = true
                return
            }
            skippingRepeat = false
        } else if skippingRepeat, format.textStyle != nil {
            return  // a continuation line of a repeated record
        }
        switch format {
        case .traceNDJSON:
            guard !ByteSearch.isBlank(b) else { return }
            contentLines += 1
            try traceJSON(b, line: line.number, into: &sink)
        case .traceCSV:
            guard !ByteSearch.isBlank(b) else { return }
            contentLines += 1
            try traceCSV(b, line: line.number, into: &sink)
        case .appleNDJSON:
            guard !ByteSearch.isBlank(b) else { return }
            if LogFormat.isPreamble(b) { return }
            contentLines += 1
            try appleJSONObject(b, line: line.number, into: &sink)
        case .appleJSON:
            if depth == 0 && LogFormat.isPreamble(b) { return }
            try jsonArray(b, line: line.number, into: &sink)
        case .appleDefault, .appleSyslog, .appleCompact:
            try text(b, line: line, style: format.textStyle!, into: &sink)
        }
    }

    /// Called after the last line.
    mutating func finish(into sink: inout some LogRecordSink) throws {
        if format == nil {
            if contentLines > 0 { throw unknownFormat() }
            return
        }
        try flushPending(into: &sink)
        if let format, let note = otherStyleNote(fileStyle: format) { sink.note(note) }
        if depth > 0 {
            try sink.malformed(file: file, line: objectLine, problem: "JSON object not closed; expected '}' (the export is cut off)")
            depth = 0
        } else if arrayOpen {
            try sink.malformed(
                file: file, line: arrayLine, problem: "JSON array not closed; expected ']' after the last object (the export is cut off)")
        }
        arrayOpen = false
    }

    // MARK: Detection

    private mutating func detect(_ b: UnsafeBufferPointer<UInt8>, line: LineView, into sink: inout some LogRecordSink) throws {
        if ByteSearch.isBlank(b) { return }
        // Records separated by a bare CR (classic Mac line endings) read as one long line: a
        // timestamped text record, or a JSON object (NDJSON), right after a CR.
        if let cr = b.firstIndex(of: 0x0D), cr + 1 < b.count,
            b[cr + 1] == UInt8(ascii: "{") || LogTimestamp.parse(UnsafeBufferPointer(rebasing: b[(cr + 1)...])) != nil
        {
            throw WidgetQuotaError.malformedInput(
                file: file, line: nil,
                problem: "records are separated by CR-only line endings; expected LF or CRLF (convert with: tr '\\r' '\\n')")
        }
        if let style = LogFormat.styleOfHeader(b) {
            headerHint = style
            sawHeader = true
            return
        }
        if LogFormat.isPreamble(b) {
            sawHeader = true
            return
        }
        contentLines += 1
        var found: LogFormat?
        switch b[0] {
        case UInt8(ascii: "["):
            found = .appleJSON
        case UInt8(ascii: "{"):
            var keys = Set<String>()
            if JSONObjectScanner.scan(b, { key, _ in keys.insert(ByteSearch.string(b, key)) }) == nil {
                if keys.contains("eventMessage") || keys.contains("processImagePath") || keys.contains("messageType")
                    || (keys.contains("count") && keys.contains("finished"))
                {
                    found = .appleNDJSON
                } else if keys.contains("schemaVersion") && keys.contains("event") {
                    found = .traceNDJSON
                }
            }
        default:
            if ByteSearch.hasPrefix(b, Array("schemaVersion,".utf8)) {
                found = .traceCSV
            } else if LogTimestamp.parse(b) != nil {
                found = headerHint ?? LogFormat.styleOfRecord(b)
            }
        }
        guard let found else {
            undetected.append((line.number, "not a line of any known log format"))
            if undetected.count >= LogFileParser.detectionLimit { throw unknownFormat() }
            return
        }
        format = found
        contentLines -= 1
        for u in undetected { try sink.malformed(file: file, line: u.line, problem: u.problem) }
        undetected.removeAll()
        if found == .appleCompact { sink.note("Compact-style timestamps carry no UTC offset; they are taken as the device's local time.") }
        try consume(line, into: &sink)
    }

    // MARK: WidgetQuota trace

    private mutating func traceJSON(_ b: UnsafeBufferPointer<UInt8>, line: Int, into sink: inout some LogRecordSink) throws {
        var f = TraceFields()
        if let p = traceReader.read(b, into: &f) { return try sink.malformed(file: file, line: line, problem: p.text) }
        try record(&f, line: line, into: &sink)
    }

    private mutating func traceCSV(_ b: UnsafeBufferPointer<UInt8>, line: Int, into sink: inout some LogRecordSink) throws {
        var f = TraceFields()
        switch csvReader.read(b, into: &f) {
        case .header: return
        case .malformed(let p): try sink.malformed(file: file, line: line, problem: p.text)
        case .record: try record(&f, line: line, into: &sink)
        }
    }

    /// Hands a trace record's event to the analyzer, or says what the record lacks.
    private func record(_ f: inout TraceFields, line: Int, into sink: inout some LogRecordSink) throws {
        if let p = f.validate() { return try sink.malformed(file: file, line: line, problem: p.text) }
        try deliver(f.draft, line: line, into: &sink)
    }

    /// Hands a recognised event to the sink, unless a name in it (device, widget kind or family)
    /// is not one line of printable text: a NUL or an escape in a name would count another device
    /// or widget, so the line is reported as malformed instead.
    private func deliver(_ e: LogEvent, line: Int, into sink: inout some LogRecordSink) throws {
        if let problem = Self.unprintable(e.device, "device") ?? Self.unprintable(e.widgetKind, "widget kind")
            ?? Self.unprintable(e.widgetFamily, "widget family")
        {
            return try sink.malformed(file: file, line: line, problem: problem)
        }
        sink.record(e, fileDevice: file, line: line)
    }

    private static func unprintable(_ name: String?, _ label: String) -> String? {
        guard let name, let u = PrintableText.firstUnprintableInName(name) else { return nil }
        return "the \(label) holds the control or format character \(PrintableText.codePoint(u)); expected a name of printable text"
    }

    // MARK: Apple JSON styles

    private mutating func appleJSONObject(_ b: UnsafeBufferPointer<UInt8>, line: Int, into sink: inout some LogRecordSink) throws {
        var ts: JSONValueRef?
        var message: JSONValueRef?
        var image: JSONValueRef?
        var subsystem: JSONValueRef?
        var category: JSONValueRef?
        var type: JSONValueRef?
        var trailer = false
        let problem = JSONObjectScanner.scan(b) { key, value in
            switch key.count {
            case 9:
                if JSONObjectScanner.keyEquals(b, key, "timestamp") {
                    ts = value
                } else if JSONObjectScanner.keyEquals(b, key, "subsystem") {
                    subsystem = value
                }
            case 12: if JSONObjectScanner.keyEquals(b, key, "eventMessage") { message = value }
            case 16: if JSONObjectScanner.keyEquals(b, key, "processImagePath") { image = value }
            case 8:
                if JSONObjectScanner.keyEquals(b, key, "category") {
                    category = value
                } else if JSONObjectScanner.keyEquals(b, key, "finished") {
                    trailer = true
                }
            case 11: if JSONObjectScanner.keyEquals(b, key, "messageType") { type = value }
            default: break
            }
        }
        if let problem { return try sink.malformed(file: file, line: line, problem: problem) }
        if processSamples < LogFileParser.processSampleLimit, let image, image.kind == .string {
            var range = image.range
            if let slash = range.last(where: { b[$0] == 0x2F }) { range = (slash + 1)..<range.upperBound }
            sawProcess(UnsafeBufferPointer(rebasing: b[range]))
        }
        guard let ts, ts.kind == .string else {
            if trailer { return }  // {"count":N,"finished":1}
            return try sink.malformed(file: file, line: line, problem: "expected a \"timestamp\" in the log record")
        }
        let tsBytes = UnsafeBufferPointer(rebasing: b[ts.range])
        guard let (time, end) = LogTimestamp.parse(tsBytes), end == tsBytes.count else {
            return try sink.malformed(file: file, line: line, problem: "expected a timestamp such as 2025-07-27 15:47:10.504275-0400")
        }
        guard let message, message.kind == .string else { return }
        guard recognizer.isCandidate(UnsafeBufferPointer(rebasing: b[message.range])) else { return }
        guard let decoded = JSONObjectScanner.decodeString(b, message.range, hasEscapes: message.hasEscapes) else {
            return try sink.malformed(file: file, line: line, problem: "invalid escape in \"eventMessage\"; expected JSON string escapes")
        }
        func name(_ v: JSONValueRef?, lastComponent: Bool = false) -> String {
            guard let v, v.kind == .string else { return "" }
            var range = v.range
            if lastComponent, let slash = range.last(where: { b[$0] == 0x2F }) { range = (slash + 1)..<range.upperBound }
            let bytes = UnsafeBufferPointer(rebasing: b[range])
            if let cached = names.lookup(bytes) { return cached }
            // Names reach the report (the widget extension's process), so they are redacted too.
            let decoded = redactor.redact(JSONObjectScanner.decodeString(b, range, hasEscapes: bytes.contains(0x5C)) ?? "")
            names.insert(bytes, decoded)
            return decoded
        }
        let entry = AppleLogEntry(
            time: time, process: name(image, lastComponent: true), subsystem: name(subsystem),
            category: name(category), messageType: name(type), message: redactor.redact(decoded))
        if time.utcOffsetSeconds == nil { sink.note("Some timestamps carry no UTC offset; they are taken as the device's local time.") }
        if let e = recognizer.recognise(entry) { try deliver(e, line: line, into: &sink) }
    }

    /// `log show --style json`: objects span many lines; collect each, then scan it like an NDJSON line.
    private mutating func jsonArray(_ b: UnsafeBufferPointer<UInt8>, line: Int, into sink: inout some LogRecordSink) throws {
        var stray = false
        let n = b.count
        if !ByteSearch.isBlank(b) { arrayLine = line }
        var i = 0
        while i < n {
            if depth > 0 {
                // Inside an object: scan to its end or the line's with the state in locals, then
                // keep the bytes scanned in one append.
                let start = i
                var (d, inString, escaped) = (depth, self.inString, self.escaped)
                var ended = false
                while i < n {
                    let c = b[i]
                    i += 1
                    if inString {
                        if escaped { escaped = false } else if c == 0x5C { escaped = true } else if c == 0x22 { inString = false }
                        continue
                    }
                    if c == 0x22 {
                        inString = true
                    } else if c == 0x7B {
                        d += 1
                    } else if c == 0x7D {
                        d -= 1
                        if d == 0 {
                            ended = true
                            break
                        }
                    }
                }
                (depth, self.inString, self.escaped) = (d, inString, escaped)
                keep(UnsafeBufferPointer(rebasing: b[start..<i]))
                if ended { try completeObject(into: &sink) }
                continue
            }
            let c = b[i]
            i += 1
            switch c {
            case 0x7B:  // {
                depth = 1
                objectBytes.removeAll(keepingCapacity: true)
                objectBytes.append(c)
                objectLine = line
                objectOverflow = false
                contentLines += 1
            case 0x5B: arrayOpen = true
            case 0x5D: arrayOpen = false
            case 0x2C, 0x20, 0x09, 0x0D: break  // , and white space between objects
            default: stray = true
            }
        }
        if depth > 0 && !objectOverflow { objectBytes.append(0x0A) }
        if stray { try sink.malformed(file: file, line: line, problem: "unexpected text between JSON objects; expected '{', ',' or ']'") }
    }

    /// Adds bytes of the object being read, up to 1 MiB in all; past that the object overflows.
    private mutating func keep(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard !objectOverflow else { return }
        let room = max(LineReader.defaultBufferSize - objectBytes.count, 0)
        objectBytes.append(contentsOf: bytes.prefix(room))
        if bytes.count > room { objectOverflow = true }
    }

    private mutating func completeObject(into sink: inout some LogRecordSink) throws {
        if objectOverflow {
            return try sink.malformed(file: file, line: objectLine, problem: "JSON object longer than 1 MiB; skipped")
        }
        let bytes = objectBytes
        try bytes.withUnsafeBufferPointer { try appleJSONObject($0, line: objectLine, into: &sink) }
    }

    // MARK: Apple text styles

    private mutating func text(
        _ b: UnsafeBufferPointer<UInt8>, line: LineView, style: AppleTextHeader.Style, into sink: inout some LogRecordSink
    ) throws {
        let start = b.count >= 19 && b[0] &- 0x30 < 10 ? LogTimestamp.parse(b) : nil
        guard let (time, afterTime) = start else {
            if LogFormat.isPreamble(b) { return }
            // An NDJSON record after text ones (`log show --style ndjson` appended to a text
            // export) is a change of style, not a continuation of the last text record.
            if b.first == UInt8(ascii: "{"), ByteSearch.contains(b, LogFileParser.timestampKey) {
                try flushPending(into: &sink)
                contentLines += 1
                otherStyleRecords.ndjson += 1
                return try appleJSONObject(b, line: line.number, into: &sink)
            }
            if pendingHeader != nil {
                // The file ends inside the record's message: what it would count is unknown.
                if line.isUnterminated { return try dropCutRecord(at: pendingNumber, into: &sink) }
                if continuation.count < LogFileParser.maxContinuation {
                    continuation.append(0x0A)
                    continuation.append(contentsOf: b.prefix(LogFileParser.maxContinuation - continuation.count))
                }
                return
            }
            if ByteSearch.isBlank(b) { return }
            contentLines += 1
            return try sink.malformed(
                file: file, line: line.number,
                problem: "expected a line starting with a timestamp such as 2025-07-27 15:47:10.504275-0400"
                    + (line.isUnterminated ? " (the line is cut off)" : ""))
        }
        try flushPending(into: &sink)
        contentLines += 1
        // Styles concatenated in one file: a record that looks like another style and parses in
        // it is read in it, whichever style came first.
        var parsed: Result<AppleTextHeader, LineProblem>?
        let own = LogFileParser.recordStyle(b, time: time, afterTime: afterTime)
        if own != style, case .success(let header) = AppleTextHeader.parse(b, style: own) {
            parsed = .success(header)
            switch own {
            case .standard: otherStyleRecords.standard += 1
            case .syslog: otherStyleRecords.syslog += 1
            case .compact: otherStyleRecords.compact += 1
            }
        }
        switch parsed ?? AppleTextHeader.parse(b, style: style) {
        case .failure(let p):
            try sink.malformed(file: file, line: line.number, problem: p.text + (line.isUnterminated ? " (the line is cut off)" : ""))
        case .success(let header):
            // A last record without its line break may be cut anywhere in its message ("Request
            // ended for AIMessageWid", "- s"): it is reported and left out, never counted.
            if line.isUnterminated { return try dropCutRecord(at: line.number, into: &sink) }
            pendingLine.removeAll(keepingCapacity: true)
            pendingLine.append(contentsOf: b)
            pendingHeader = header
            pendingNumber = line.number
            continuation.removeAll(keepingCapacity: true)
        }
    }

    /// Leaves out the record that starts on line `number`, which the file's end cuts off.
    private mutating func dropCutRecord(at number: Int, into sink: inout some LogRecordSink) throws {
        pendingHeader = nil
        continuation.removeAll(keepingCapacity: true)
        try sink.malformed(
            file: file, line: number,
            problem: "the last record is cut off (the file ends inside it, without a line break), so it is left out")
    }

    /// The key every Apple NDJSON record has.
    static let timestampKey = Array(#""timestamp""#.utf8)

    /// The text style a record's columns look like: a `0x` thread id after the timestamp is the
    /// default style, a type of at most two letters after a timestamp without UTC offset is
    /// compact, anything else (a host name) is syslog.
    static func recordStyle(_ b: UnsafeBufferPointer<UInt8>, time: LogTimestamp, afterTime: Int) -> AppleTextHeader.Style {
        var i = afterTime
        while i < b.count, b[i] == 0x20 || b[i] == 0x09 { i += 1 }
        var j = i
        while j < b.count, b[j] != 0x20, b[j] != 0x09 { j += 1 }
        if j - i > 2, b[i] == 0x30, b[i + 1] == 0x78 { return .standard }
        if time.utcOffsetSeconds == nil, j > i, j - i <= 2 { return .compact }
        return .syslog
    }

    /// The note on records in another style than the file's, with their counts.
    private func otherStyleNote(fileStyle: LogFormat) -> String? {
        let counts = [
            ("default", otherStyleRecords.standard), ("syslog", otherStyleRecords.syslog), ("compact", otherStyleRecords.compact),
            ("ndjson", otherStyleRecords.ndjson),
        ]
        .filter { $0.1 > 0 }
        guard !counts.isEmpty else { return nil }
        let list = counts.map { "\($0.1) in \($0.0) style" }.joined(separator: " and ")
        return "\(file) mixes log show styles: it starts in \(fileStyle.rawValue) style, and \(list) "
            + "\(counts.count == 1 && counts[0].1 == 1 ? "was" : "were") read in their own style."
    }

    private mutating func flushPending(into sink: inout some LogRecordSink) throws {
        guard let header = pendingHeader else { return }
        pendingHeader = nil
        if !continuation.isEmpty { pendingLine.append(contentsOf: continuation) }
        if processSamples < LogFileParser.processSampleLimit {
            let r = header.process
            let line = pendingLine
            line.withUnsafeBufferPointer { sawProcess(UnsafeBufferPointer(rebasing: $0[r])) }
        }
        var names = self.names
        defer { self.names = names }
        let event: LogEvent? = pendingLine.withUnsafeBufferPointer { b in
            let message = UnsafeBufferPointer(rebasing: b[min(header.message, b.count)...])
            guard recognizer.isCandidate(message) else { return nil }
            func text(_ r: Range<Int>?) -> String {
                guard let r else { return "" }
                let bytes = UnsafeBufferPointer(rebasing: b[r])
                if let cached = names.lookup(bytes) { return cached }
                let s = redactor.redact(ByteSearch.string(bytes))  // names reach the report too
                names.insert(bytes, s)
                return s
            }
            var msg = ByteSearch.string(message)
            while msg.hasSuffix("\n") { msg.removeLast() }
            let entry = AppleLogEntry(
                time: header.time, process: text(header.process), subsystem: text(header.subsystem),
                category: text(header.category), messageType: text(header.messageType),
                message: redactor.redact(msg), source: header.source.map { redactor.redact(ByteSearch.string(b, $0)) } ?? "")
            return recognizer.recognise(entry)
        }
        if let event { try deliver(event, line: pendingNumber, into: &sink) }
    }
}

extension LogFileParser {
    /// Counts one sampled record and keeps its process name if it is one of the first new ones.
    fileprivate mutating func sawProcess(_ name: UnsafeBufferPointer<UInt8>) {
        processSamples += 1
        guard processesSeen.count < LogFileParser.maxProcessesSeen, !name.isEmpty else { return }
        for seen in processBytesSeen where ByteSearch.equal(name, seen) { return }
        processBytesSeen.append(Array(name))
        let decoded = ByteSearch.string(name).replacingOccurrences(of: "\\", with: "")
        processesSeen.append(redactor.redact(decoded))
    }
}

/// A few Strings made from bytes that repeat (process and subsystem names), so each is built once.
struct StringCache {
    private var entries: [(bytes: [UInt8], string: String)] = []
    static let capacity = 64

    func lookup(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        for entry in entries where ByteSearch.equal(bytes, entry.bytes) { return entry.string }
        return nil
    }

    mutating func insert(_ bytes: UnsafeBufferPointer<UInt8>, _ string: String) {
        if entries.count >= StringCache.capacity { entries.removeFirst() }
        entries.append((Array(bytes), string))
    }
}
