import Foundation
import Testing
import WidgetQuotaLogs
import WidgetQuotaSupport

/// Trace NDJSON lines in the writer's key order take a fast path; every other spelling of the
/// same object is read by the general scanner. Both must give the same fields.
@Suite("Trace NDJSON reader")
struct TraceNDJSONReaderTests {
    /// Lines as `TraceFormat.ndjsonLine` writes them, covering every field.
    static var canonicalLines: [String] {
        let t = LogTimestamp.parse("2026-09-01T07:12:03.120-04:00")!
        var get = LogEvent(kind: .getTimeline, time: t)
        get.widgetKind = "AIMessageWidget"
        get.widgetFamily = "systemSmall"
        get.instance = 2
        get.origin = .policy
        get.smartStack = true
        get.lowPowerMode = false
        get.outcome = .success
        var api = LogEvent(kind: .apiRequest, time: t)
        api.actor = .background
        api.outcome = .failure
        api.durationMs = 1_500
        api.tokens = 72
        api.detail = "GET https://example.com/v1?key=AIzaSyA1234567890abcdefghijklmnop timed out, \"quoted\"\n"
        var low = LogEvent(kind: .lowPowerMode, time: t)
        low.lowPowerMode = true
        low.smartStack = false
        var odd = LogEvent(kind: .cacheHit, time: t)
        odd.widgetKind = ""
        odd.durationMs = 1.5
        odd.instance = 0
        return [get, api, low, odd, LogEvent(kind: .appForeground, time: t)].map {
            TraceFormat.ndjsonLine($0, device: "phone \"7\" token=abc")
        }
            + [TraceFormat.ndjsonLine(get, device: "plain-device")]
    }

    static func fields(_ line: String) -> String {
        var reader = TraceNDJSONReader(redactor: SecretRedactor())
        var bytes = Array(line.utf8)
        return bytes.withUnsafeMutableBufferPointer { b in
            var f = TraceFields()
            if let p = reader.read(UnsafeBufferPointer(b), into: &f) { return "problem: \(p.text)" }
            return String(describing: f)
        }
    }

    /// The members of a canonical line, in order, as `"key":value` texts.
    static func members(_ line: String) throws -> [String] {
        let object = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let keys = TraceFormat.columns.filter { object[$0] != nil }
        return try keys.map { key in
            let value = try JSONSerialization.data(withJSONObject: object[key]!, options: [.fragmentsAllowed])
            return "\"\(key)\":" + String(decoding: value, as: UTF8.self)
        }
    }

    @Test(
        "the same members in another order, with white space or an unknown key, give the same fields",
        arguments: canonicalLines)
    func otherSpellingsAgree(line: String) throws {
        let expected = Self.fields(line)
        #expect(!expected.hasPrefix("problem"))
        let parts = try Self.members(line)
        let joined: String = parts.joined(separator: ",")
        let reversed: String = parts.reversed().joined(separator: ",")
        let rotated: String = Array(parts.dropFirst(2) + parts.prefix(2)).joined(separator: ",")
        let spaced: String = parts.joined(separator: " , ")
        let spellings: [String] = [
            "{\(reversed)}",
            "{\(rotated)}",
            "{ \(spaced) }",
            "{\(joined)}  ",
            "{\"newField\":{\"a\":[1,\"}\"]},\(joined)}",
            "{\(joined),\"zzz\":null}",
        ]
        for spelling in spellings { #expect(Self.fields(spelling) == expected, "\(spelling)") }
    }

    @Test("lines the fast path must hand over are read as before")
    func handedOver() {
        let cases: [(String, String)] = [
            // A repeated key: the last one counts, as the scanner always did.
            (
                #"{"schemaVersion":1,"timestamp":"2026-09-01T07:12:03.120-04:00","device":"d","event":"cacheHit","event":"cacheStale"}"#,
                #"{"schemaVersion":1,"timestamp":"2026-09-01T07:12:03.120-04:00","device":"d","event":"cacheStale"}"#
            ),
            // An escaped device name.
            (
                #"{"schemaVersion":1,"timestamp":"2026-09-01T07:12:03.120-04:00","device":"d\u0031","event":"cacheHit"}"#,
                #"{"schemaVersion":1,"timestamp":"2026-09-01T07:12:03.120-04:00","device":"d1","event":"cacheHit"}"#
            ),
        ]
        for (line, same) in cases { #expect(Self.fields(line) == Self.fields(same), "\(line)") }
        // Broken lines report what the scanner reports.
        for (line, problem) in [
            (#"{"schemaVersion":1,"timestamp":"2026"#, "unterminated string (the line is cut off)"),
            (#"{"schemaVersion":1,"smartStack":maybe}"#, "expected a JSON value"),
            (#"{"schemaVersion":1}x"#, "unexpected text after the JSON object"),
        ] {
            #expect(Self.fields(line) == "problem: \(problem)", "\(line)")
        }
    }

    @Test("the eight-bytes-at-a-time string scan finds the closing quote and escapes like a byte loop")
    func stringScanAgreesWithByteLoop() {
        var state: UInt64 = 3
        let alphabet: [UInt8] = Array("ab\"\\x".utf8)
        for _ in 0..<5_000 {
            state = RandomStream.mix(state &+ 0x9E37_79B9_7F4A_7C15)
            let count = Int(state % 40)
            var bits = state
            var bytes: [UInt8] = []
            for k in 0..<count {
                if k % 20 == 0 { bits = RandomStream.mix(bits) }
                // Mostly letters, so quotes and backslashes land at every offset of a word.
                bytes.append(bits % 5 == 0 ? alphabet[Int(bits / 5 % 5)] : alphabet[Int(bits % 2)])
                bits /= 7
            }
            // The reference: step over escapes one byte at a time.
            var i = 0
            var escaped = false
            var expected: (Int, Bool)?
            while i < count {
                if bytes[i] == 0x22 {
                    expected = (i, escaped)
                    break
                }
                if bytes[i] == 0x5C {
                    escaped = true
                    i += 2
                } else {
                    i += 1
                }
            }
            let found = bytes.withUnsafeBufferPointer { JSONObjectScanner.string($0, from: 0) }
            #expect(found?.end == expected?.0 && found?.escaped == expected?.1, "\(String(decoding: bytes, as: UTF8.self))")
        }
    }
}
