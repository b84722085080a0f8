/// The input formats `analyze` reads; detected from the first lines of each file.
package enum LogFormat: String, Sendable, Codable, CaseIterable {
    /// WidgetQuota trace, one JSON object per line.
    case traceNDJSON = "trace-ndjson"
    /// WidgetQuota trace, CSV with a header line.
    case traceCSV = "trace-csv"
    /// `log show --style ndjson`: one object per line, a `{"count":N,"finished":1}` trailer.
    case appleNDJSON = "ndjson"
    /// `log show --style json`: a pretty-printed array, possibly after preamble lines.
    case appleJSON = "json"
    /// `log show` default style: `Timestamp Thread Type Activity PID TTL` columns.
    case appleDefault = "default"
    /// `log show --style syslog`: `timestamp host process[pid]: message`.
    case appleSyslog = "syslog"
    /// `log show --style compact`: `timestamp Ty process[pid:tid] message`, no UTC offset.
    case appleCompact = "compact"

    /// The text style, for the three text formats.
    var textStyle: AppleTextHeader.Style? {
        switch self {
        case .appleDefault: return .standard
        case .appleSyslog: return .syslog
        case .appleCompact: return .compact
        default: return nil
        }
    }

    /// Lines `log show` prints before the records; never data, never malformed.
    static let preambles: [[UInt8]] = [
        "Filtering the log data", "Skipping info and debug messages", "Skipping debug messages", "Timestamp ",
        "Timestamp\t", "Log      - Default", "Getting the log", "---",
    ].map { Array($0.utf8) }

    /// True for a preamble or column-header line.
    static func isPreamble(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        preambles.contains { ByteSearch.hasPrefix(b, $0) }
    }

    /// The text style a column-header line announces (`Timestamp  Thread  Type ...`).
    static func styleOfHeader(_ b: UnsafeBufferPointer<UInt8>) -> LogFormat? {
        guard ByteSearch.hasPrefix(b, Array("Timestamp".utf8)) else { return nil }
        if ByteSearch.contains(b, Array("Thread".utf8)) { return .appleDefault }
        if ByteSearch.contains(b, Array("Process[PID:TID]".utf8)) || ByteSearch.contains(b, Array(" Ty ".utf8)) { return .appleCompact }
        if ByteSearch.contains(b, Array("(process)[PID]".utf8)) { return .appleSyslog }
        return nil
    }

    /// The text style of a line that starts with a timestamp, judged from what follows it.
    static func styleOfRecord(_ b: UnsafeBufferPointer<UInt8>) -> LogFormat? {
        guard let (ts, end) = LogTimestamp.parse(b) else { return nil }
        var i = end
        while i < b.count, b[i] == 0x20 { i += 1 }
        var j = i
        while j < b.count, b[j] != 0x20 { j += 1 }
        if j - i > 2, b[i] == 0x30, b[i + 1] == 0x78 { return .appleDefault }  // 0x thread id
        if ts.utcOffsetSeconds == nil, j - i <= 2 { return .appleCompact }
        if ByteSearch.contains(b, [0x5D, 0x3A]) { return .appleSyslog }  // "]:"
        return nil
    }
}
