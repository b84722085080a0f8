import Testing
import WidgetQuotaLogs
import WidgetQuotaSupport

/// Trace CSV lines without quotes are split while they are read; lines with quotes go through
/// `CSVLine` first. The same cells must give the same fields, problems and headers either way.
@Suite("Trace CSV reader")
struct TraceCSVReaderTests {
    static let header = TraceFormat.csvHeader

    /// What `TraceCSVReader` makes of `line` after the header.
    static func read(_ line: String, header: String = header) -> String {
        var reader = TraceCSVReader(redactor: SecretRedactor())
        for text in [header, line] {
            var bytes = Array(text.utf8)
            let result: String = bytes.withUnsafeMutableBufferPointer { b in
                var f = TraceFields()
                switch reader.read(UnsafeBufferPointer(b), into: &f) {
                case .header: return "header"
                case .record: return String(describing: f)
                case .malformed(let p): return "problem: \(p.text)"
                }
            }
            if text == line { return result }
        }
        return "unreachable"
    }

    /// `line` with every cell quoted: the same cells, read by the general path.
    static func quoted(_ line: String) -> String {
        line.split(separator: ",", omittingEmptySubsequences: false).map { "\"\($0)\"" }.joined(separator: ",")
    }

    static let lines = [
        "1,2026-09-01T07:35:09.413+00:00,direct-poll-15m-001,getTimeline,AIMessageWidget,systemSmall,0,queued,true,false,,,success,,,",
        "1,2026-09-01T07:35:09.413+00:00,phone token=abc,apiRequest,,,,,true,false,,extension,failure,1500,72,timed out key=AIzaSyA1234567890abcdefghijklmnop",
        "1,2026-09-01T00:00:00.000+00:00,d,lowPowerMode,,,,,true,false,off,,,,,",
        "1,2026-09-01T00:00:00.000+00:00,d,lowPowerMode,,,,,,,,,,,,",
        "1,2026-09-01T00:00:00Z,d,cacheHit,,,-1,sideways,maybe,,,,,1.5,+5,",
        "1,2026-09-01T00:00:00Z,d,cacheHit,'=x,'y,'3,,'true,,,,,'15,,'=HYPERLINK()",
        "2,2026-09-01T00:00:00Z,d,cacheHit,,,,,,,,,,,,",
        "1,not a time,d,bogus,,,,,,,,,,,,",
        "1,2026-09-01T00:00:00Z,é,cacheHit,,,,,,,,,,,,",
        "1,2026-09-01T00:00:00Z,d,cacheHit",
        "1,2026-09-01T00:00:00Z,d,cacheHit,,,,,,,,,,,,,,",
    ]

    @Test("a line reads the same with and without quotes around its cells", arguments: lines)
    func unquotedAgreesWithQuoted(line: String) {
        let fast = Self.read(line)
        #expect(fast == Self.read(Self.quoted(line)), "\(line)")
    }

    @Test("the header again is skipped, however its first cell is spelled")
    func repeatedHeader() {
        #expect(Self.read(Self.header) == "header")
        #expect(Self.read(Self.quoted(Self.header)) == "header")
        // Same first cell, other columns: a record with a bad schemaVersion, as before.
        #expect(Self.read("schemaVersion,2026-09-01T00:00:00Z,d,cacheHit,,,,,,,,,,,,").contains("schemaVersion: expected a whole number"))
    }

    @Test("columns in another order set the same fields")
    func columnOrder() {
        let reordered = "schemaVersion,event,device,timestamp,outcome"
        #expect(
            Self.read("1,cacheHit,d,2026-09-01T00:00:00Z,success", header: reordered)
                == Self.read("1,2026-09-01T00:00:00Z,d,cacheHit,,,,,,,,,success,,,"))
    }
}
