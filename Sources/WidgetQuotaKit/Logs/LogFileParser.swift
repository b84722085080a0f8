import Foundation

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

    // Trace CSV.
    private var csvColumns: [String]?
    /// The field each column sets, the first column's name as bytes, the cells of the current line.
    private var csvFields: [TraceFields.Field] = []
    private var csvFirstColumn: [UInt8] = []
    private var csvCells: [CSVLine.Cell] = []
    /// Per column, the last text cell's bytes and the (redacted) value they gave.
    private var csvLast: [(bytes: [UInt8], text: String?)] = []

    // Trace NDJSON.
    private var traceReader: TraceNDJSONReader
    /// Process, subsystem and category names repeat on every line: made into Strings once.
    private var names = StringCache()

    /// Lines that fit no format before giving up on a file.
    static let detectionLimit = 50

    init(file: String, recognizer: AppleLogRecognizer, redactor: SecretRedactor) {
        self.file = file
        self.recognizer = recognizer
        self.redactor = redactor
        traceReader = TraceNDJSONReader(redactor: redactor)
    }

    /// A file that is not a log in any known format.
    func unknownFormat() -> WidgetQuotaError {
        .malformedInput(file: file, line: nil, problem: "not a log in a known format; expected a WidgetQuota trace (NDJSON or CSV) "
                        + "or an Apple `log show` export (--style ndjson, json, default, syslog or compact)")
    }

    // MARK: Lines

    private var duplicates = DuplicateFilter()
    private var skippingRepeat = false

    mutating func consume(_ line: LineView, into sink: inout LogAnalyzer) throws {
        if line.isOverlong {
            try flushPending(into: &sink)
            try sink.malformed(file: file, line: line.number, problem: "line longer than \(LineReader.defaultBufferSize / 1_048_576) MiB; skipped to the next line")
            return
        }
        var b = line.bytes
        if line.number == 1, b.count >= 3, b[0] == 0xEF, b[1] == 0xBB, b[2] == 0xBF {
            b = UnsafeBufferPointer(rebasing: b[3...])
        }
        guard let format else { return try detect(b, line: line, into: &sink) }
        // Exact repeats of timestamped lines are counted once (pretty JSON repeats lines legitimately).
        if format != .appleJSON, let first = b.first, first == 0x7B || (first >= 0x30 && first <= 0x39) || format == .traceCSV,
           !ByteSearch.isBlank(b) {
            if duplicates.isRepeat(b) {
                sink.duplicateLines += 1
                skippingRepeat = true
                return
            }
            skippingRepeat = false
        } else if skippingRepeat, format.textStyle != nil {
            return   // a continuation line of a repeated record
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
    mutating func finish(into sink: inout LogAnalyzer) throws {
        if format == nil {
            if contentLines > 0 { throw unknownFormat() }
            return
        }
        try flushPending(into: &sink)
        if depth > 0 {
            try sink.malformed(file: file, line: objectLine, problem: "JSON object not closed; expected '}' (the export is cut off)")
            depth = 0
        }
    }

    // MARK: Detection

    private mutating func detect(_ b: UnsafeBufferPointer<UInt8>, line: LineView, into sink: inout LogAnalyzer) throws {
        if ByteSearch.isBlank(b) { return }
        if let style = LogFormat.styleOfHeader(b) { headerHint = style; return }
        if LogFormat.isPreamble(b) { return }
        contentLines += 1
        var found: LogFormat?
        switch b[0] {
        case UInt8(ascii: "["):
            found = .appleJSON
        case UInt8(ascii: "{"):
            var keys = Set<String>()
            if JSONObjectScanner.scan(b, { key, _ in keys.insert(ByteSearch.string(b, key)) }) == nil {
                if keys.contains("eventMessage") || keys.contains("processImagePath") || keys.contains("messageType")
                    || (keys.contains("count") && keys.contains("finished")) {
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

    private mutating func traceJSON(_ b: UnsafeBufferPointer<UInt8>, line: Int, into sink: inout LogAnalyzer) throws {
        switch traceReader.fields(b).flatMap({ $0.validated() }) {
        case .success(let e): sink.record(e, fileDevice: file)
        case .failure(let p): try sink.malformed(file: file, line: line, problem: p.text)
        }
    }

    private mutating func traceCSV(_ b: UnsafeBufferPointer<UInt8>, line: Int, into sink: inout LogAnalyzer) throws {
        guard let columns = csvColumns else {
            guard let cells = CSVLine.split(b) else {
                return try sink.malformed(file: file, line: line, problem: "unbalanced quotes; expected RFC 4180 CSV on one line")
            }
            guard cells.first == "schemaVersion" else {
                return try sink.malformed(file: file, line: line, problem: "expected the header line \(TraceFormat.csvHeader)")
            }
            csvColumns = cells
            csvFields = cells.map(TraceFields.Field.init(name:))
            csvFirstColumn = Array(cells[0].utf8)
            csvLast = Array(repeating: ([], nil), count: cells.count)
            return
        }
        var cells = csvCells
        csvCells = []
        defer { csvCells = cells }
        guard CSVLine.cells(b, into: &cells) else {
            return try sink.malformed(file: file, line: line, problem: "unbalanced quotes; expected RFC 4180 CSV on one line")
        }
        // A repeated header (files joined with cat). Only a first cell that could equal the first
        // column name (its bytes, quoted or not ASCII) needs the exact String comparison.
        if cells.count == columns.count, let first = cells.first,
           first.quoted || ByteSearch.equal(UnsafeBufferPointer(rebasing: b[first.start..<first.end]), csvFirstColumn)
            || !ByteSearch.isASCII(UnsafeBufferPointer(rebasing: b[first.start..<first.end])) {
            if let strings = CSVLine.split(b), strings == columns { return }
        }
        guard cells.count == columns.count else {
            return try sink.malformed(file: file, line: line, problem: "expected \(columns.count) columns like the header, found \(cells.count)")
        }
        var f = TraceFields()
        for index in 0..<cells.count {
            let field = csvFields[index]
            if field == .unknown { continue }
            let cell = cells[index]
            if cell.start == cell.end { continue }   // empty: TraceFields.set ignores it
            if cell.doubled {
                f.set(columns[index], CSVLine.unprotected(CSVLine.string(b, cell)), redactor: redactor)
                continue
            }
            let v = UnsafeBufferPointer(rebasing: b[cell.start..<cell.end])
            if field.isText {
                // Same bytes, same String: redacted once per distinct value of the column.
                if ByteSearch.equal(v, csvLast[index].bytes) {
                    if let text = csvLast[index].text { f.setText(field, text) }
                    continue
                }
                let text = CSVLine.unprotected(ByteSearch.string(v))
                let value = text.isEmpty ? nil : redactor.redact(text)
                csvLast[index] = (Array(v), value)
                if let value { f.setText(field, value) }
                continue
            }
            // Typed fields: the common spellings from bytes; anything else (a protected
            // apostrophe, signs, fractions, bad values) goes through the String path, unchanged.
            if v[0] == 0x27 || !f.setFast(field, v) {
                f.set(columns[index], CSVLine.unprotected(ByteSearch.string(v)), redactor: redactor)
            }
        }
        switch f.validated() {
        case .success(let e): sink.record(e, fileDevice: file)
        case .failure(let p): try sink.malformed(file: file, line: line, problem: p.text)
        }
    }

    // MARK: Apple JSON styles

    private mutating func appleJSONObject(_ b: UnsafeBufferPointer<UInt8>, line: Int, into sink: inout LogAnalyzer) throws {
        var ts: JSONValueRef?, message: JSONValueRef?, image: JSONValueRef?, subsystem: JSONValueRef?
        var category: JSONValueRef?, type: JSONValueRef?
        var trailer = false
        let problem = JSONObjectScanner.scan(b) { key, value in
            switch key.count {
            case 9: if JSONObjectScanner.keyEquals(b, key, "timestamp") { ts = value }
                else if JSONObjectScanner.keyEquals(b, key, "subsystem") { subsystem = value }
            case 12: if JSONObjectScanner.keyEquals(b, key, "eventMessage") { message = value }
            case 16: if JSONObjectScanner.keyEquals(b, key, "processImagePath") { image = value }
            case 8: if JSONObjectScanner.keyEquals(b, key, "category") { category = value }
                else if JSONObjectScanner.keyEquals(b, key, "finished") { trailer = true }
            case 11: if JSONObjectScanner.keyEquals(b, key, "messageType") { type = value }
            default: break
            }
        }
        if let problem { return try sink.malformed(file: file, line: line, problem: problem) }
        guard let ts, ts.kind == .string else {
            if trailer { return }   // {"count":N,"finished":1}
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
            let decoded = JSONObjectScanner.decodeString(b, range, hasEscapes: bytes.contains(0x5C)) ?? ""
            names.insert(bytes, decoded)
            return decoded
        }
        let entry = AppleLogEntry(time: time, process: name(image, lastComponent: true), subsystem: name(subsystem),
                                  category: name(category), messageType: name(type), message: redactor.redact(decoded))
        if time.utcOffsetSeconds == nil { sink.note("Some timestamps carry no UTC offset; they are taken as the device's local time.") }
        if let e = recognizer.recognise(entry) { sink.record(e, fileDevice: file) }
    }

    /// `log show --style json`: objects span many lines; collect each, then scan it like an NDJSON line.
    private mutating func jsonArray(_ b: UnsafeBufferPointer<UInt8>, line: Int, into sink: inout LogAnalyzer) throws {
        var stray = false
        for c in b {
            if depth > 0 {
                if !objectOverflow {
                    if objectBytes.count < LineReader.defaultBufferSize { objectBytes.append(c) } else { objectOverflow = true }
                }
                if inString {
                    if escaped { escaped = false } else if c == 0x5C { escaped = true } else if c == 0x22 { inString = false }
                    continue
                }
                if c == 0x22 { inString = true } else if c == 0x7B { depth += 1 } else if c == 0x7D {
                    depth -= 1
                    if depth == 0 { try completeObject(into: &sink) }
                }
                continue
            }
            switch c {
            case 0x7B:   // {
                depth = 1
                objectBytes.removeAll(keepingCapacity: true)
                objectBytes.append(c)
                objectLine = line
                objectOverflow = false
                contentLines += 1
            case 0x5B, 0x5D, 0x2C, 0x20, 0x09, 0x0D: break   // [ ] , white space between objects
            default: stray = true
            }
        }
        if depth > 0 && !objectOverflow { objectBytes.append(0x0A) }
        if stray { try sink.malformed(file: file, line: line, problem: "unexpected text between JSON objects; expected '{', ',' or ']'") }
    }

    private mutating func completeObject(into sink: inout LogAnalyzer) throws {
        if objectOverflow {
            return try sink.malformed(file: file, line: objectLine, problem: "JSON object longer than 1 MiB; skipped")
        }
        let bytes = objectBytes
        try bytes.withUnsafeBufferPointer { try appleJSONObject($0, line: objectLine, into: &sink) }
    }

    // MARK: Apple text styles

    private mutating func text(_ b: UnsafeBufferPointer<UInt8>, line: LineView, style: AppleTextHeader.Style, into sink: inout LogAnalyzer) throws {
        let startsRecord = b.count >= 19 && b[0] &- 0x30 < 10 && LogTimestamp.parse(b) != nil
        if !startsRecord {
            if LogFormat.isPreamble(b) { return }
            if pendingHeader != nil {
                if continuation.count < LogFileParser.maxContinuation {
                    continuation.append(0x0A)
                    continuation.append(contentsOf: b.prefix(LogFileParser.maxContinuation - continuation.count))
                }
                return
            }
            if ByteSearch.isBlank(b) { return }
            contentLines += 1
            return try sink.malformed(file: file, line: line.number, problem: "expected a line starting with a timestamp such as 2025-07-27 15:47:10.504275-0400")
        }
        try flushPending(into: &sink)
        contentLines += 1
        switch AppleTextHeader.parse(b, style: style) {
        case .failure(let p):
            try sink.malformed(file: file, line: line.number, problem: p.text)
        case .success(let header):
            pendingLine.removeAll(keepingCapacity: true)
            pendingLine.append(contentsOf: b)
            pendingHeader = header
            pendingNumber = line.number
            continuation.removeAll(keepingCapacity: true)
        }
    }

    private mutating func flushPending(into sink: inout LogAnalyzer) throws {
        guard let header = pendingHeader else { return }
        pendingHeader = nil
        if !continuation.isEmpty { pendingLine.append(contentsOf: continuation) }
        var names = self.names
        defer { self.names = names }
        let event: LogEvent? = pendingLine.withUnsafeBufferPointer { b in
            let message = UnsafeBufferPointer(rebasing: b[min(header.message, b.count)...])
            guard recognizer.isCandidate(message) else { return nil }
            func text(_ r: Range<Int>?) -> String {
                guard let r else { return "" }
                let bytes = UnsafeBufferPointer(rebasing: b[r])
                if let cached = names.lookup(bytes) { return cached }
                let s = ByteSearch.string(bytes)
                names.insert(bytes, s)
                return s
            }
            var msg = ByteSearch.string(message)
            while msg.hasSuffix("\n") { msg.removeLast() }
            let entry = AppleLogEntry(time: header.time, process: text(header.process), subsystem: text(header.subsystem),
                                      category: text(header.category), messageType: text(header.messageType),
                                      message: redactor.redact(msg))
            return recognizer.recognise(entry)
        }
        if let event { sink.record(event, fileDevice: file) }
    }
}

/// Splits one RFC 4180 CSV line into cells.
enum CSVLine {
    /// Where one cell is in a line: for a quoted cell the bytes between the quotes.
    struct Cell {
        var start: Int
        var end: Int
        var quoted: Bool
        /// True when a quoted cell contains a doubled quote (its text needs unescaping).
        var doubled: Bool
    }

    /// The cells of `b` as byte ranges, with exactly `split`'s rules; false when a quoted cell
    /// is not closed on this line (or text follows its closing quote).
    static func cells(_ b: UnsafeBufferPointer<UInt8>, into cells: inout [Cell]) -> Bool {
        cells.removeAll(keepingCapacity: true)
        var i = 0
        let n = b.count
        while true {
            if i < n, b[i] == 0x22 {
                i += 1
                let start = i
                var doubled = false
                var closed = false
                while i < n {
                    if b[i] == 0x22 {
                        if i + 1 < n, b[i + 1] == 0x22 { doubled = true; i += 2; continue }
                        closed = true
                        break
                    }
                    i += 1
                }
                guard closed else { return false }
                let end = i
                i += 1
                guard i == n || b[i] == 0x2C else { return false }
                cells.append(Cell(start: start, end: end, quoted: true, doubled: doubled))
            } else {
                let start = i
                while i < n, b[i] != 0x2C { i += 1 }
                cells.append(Cell(start: start, end: i, quoted: false, doubled: false))
            }
            if i >= n { break }
            i += 1   // the comma
            if i == n { cells.append(Cell(start: n, end: n, quoted: false, doubled: false)); break }
        }
        return true
    }

    /// The text of `cell` (doubled quotes made single), as `split` gives it.
    static func string(_ b: UnsafeBufferPointer<UInt8>, _ cell: Cell) -> String {
        guard cell.doubled else { return ByteSearch.string(b, cell.start..<cell.end) }
        var bytes = [UInt8]()
        bytes.reserveCapacity(cell.end - cell.start)
        var i = cell.start
        while i < cell.end {
            bytes.append(b[i])
            i += b[i] == 0x22 ? 2 : 1
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A leading apostrophe protects text from spreadsheets (CSVWriter); it is not data.
    static func unprotected(_ cell: String) -> String {
        cell.hasPrefix("'") ? String(cell.dropFirst()) : cell
    }

    /// The cells, or nil when a quoted cell is not closed on this line.
    static func split(_ b: UnsafeBufferPointer<UInt8>) -> [String]? {
        var cells = [String]()
        var i = 0
        let n = b.count
        while true {
            if i < n, b[i] == 0x22 {
                var bytes = [UInt8]()
                i += 1
                var closed = false
                while i < n {
                    if b[i] == 0x22 {
                        if i + 1 < n, b[i + 1] == 0x22 { bytes.append(0x22); i += 2; continue }
                        closed = true
                        i += 1
                        break
                    }
                    bytes.append(b[i])
                    i += 1
                }
                guard closed, i == n || b[i] == 0x2C else { return nil }
                cells.append(String(decoding: bytes, as: UTF8.self))
            } else {
                let start = i
                while i < n, b[i] != 0x2C { i += 1 }
                cells.append(ByteSearch.string(b, start..<i))
            }
            if i >= n { break }
            i += 1   // the comma
            if i == n { cells.append(""); break }
        }
        return cells
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
