import Foundation
import Testing
import WidgetQuotaLogs

/// The byte-level trace CSV path must agree with the String-based one it replaced.
@Suite("Parsing fast paths")
struct ParseFastPathTests {
    static let lines = [
        "", "a", ",", "a,", ",a", "a,,b", "\"\"", "\"a,b\",c", "\"a\"\"b\",c", "\"\"\"\"", "x,\"y\"", "x,\"y\",",
        "\"unclosed", "\"a\"b,c", "a\"b,c", "'x,'", "é,ü,\"ö\"\"\"", "1,2026-09-01T00:00:00.000-08:00,d,apiRequest,,,,,,,,,,,,",
    ]

    @Test("CSVLine.cells gives split's cells and failures", arguments: lines)
    func cellsMatchSplit(_ line: String) {
        var bytes = Array(line.utf8)
        bytes.withUnsafeMutableBufferPointer { m in
            let b = UnsafeBufferPointer(m)
            var cells: [CSVLine.Cell] = []
            let ok = CSVLine.cells(b, into: &cells)
            let split = CSVLine.split(b)
            #expect(ok == (split != nil))
            if let split { #expect(cells.map { CSVLine.string(b, $0) } == split) }
        }
    }

    @Test("typed CSV fields from bytes agree with TraceFields.set")
    func setFastAgreesWithSet() {
        let cases: [(TraceFields.Field, String, [String])] = [
            (.schemaVersion, "schemaVersion", ["1", "01", "2", "123456789012345678"]),
            (.instance, "instance", ["0", "7", "007"]),
            (.tokens, "tokens", ["0", "72", "999999999999999999"]),
            (.durationMs, "durationMs", ["0", "1500", "999999999999999"]),
            (.smartStack, "smartStack", ["true", "false"]),
            (.lowPowerMode, "lowPowerMode", ["true", "false"]),
            (.state, "state", ["on", "off"]),
            (.origin, "origin", ["system", "policy", "reloadCall", "queued"]),
            (.actor, "actor", ["app", "extension", "background"]),
            (.outcome, "outcome", ["success", "failure"]),
            (.event, "event", LogEventKind.allCases.map(\.rawValue)),
            (.timestamp, "timestamp", ["2026-09-01T07:12:03.120-04:00", "2026-09-01T07:12:03Z"]),
        ]
        let redactor = SecretRedactor()
        for (field, name, values) in cases {
            #expect(TraceFields.Field(name: name) == field)
            for value in values {
                var fast = TraceFields()
                var slow = TraceFields()
                slow.set(name, value, redactor: redactor)
                var bytes = Array(value.utf8)
                let ok = bytes.withUnsafeMutableBufferPointer { fast.setFast(field, UnsafeBufferPointer($0)) }
                #expect(ok, "\(name)=\(value)")
                #expect(String(describing: fast) == String(describing: slow), "\(name)=\(value)")
            }
        }
        // Spellings the fast path leaves to `set`.
        for (field, value) in [
            (TraceFields.Field.durationMs, "1.5"), (.tokens, "+5"), (.instance, "-1"), (.smartStack, "True"),
            (.event, "bogus"), (.timestamp, "bad"), (.schemaVersion, "1234567890123456789"),
        ] {
            var f = TraceFields()
            var bytes = Array(value.utf8)
            #expect(!bytes.withUnsafeMutableBufferPointer { f.setFast(field, UnsafeBufferPointer($0)) }, "\(value)")
        }
    }

    @Test("ByteTable finds every name, also among names sharing a hint slot, and nothing else")
    func byteTableMatchesExactly() {
        // More names than hint slots, so some slots hold several.
        let all = LogEventKind.allCases.map(\.rawValue) + TraceFormat.columns + (0..<80).map { "n\($0)x" } + ["a", "ab", "ba"]
        let names = all.enumerated().filter { !all[..<$0.offset].contains($0.element) }.map(\.element)
        let table = ByteTable(names.enumerated().map { ($1, $0) })
        for (index, name) in names.enumerated() {
            var bytes = Array(name.utf8)
            #expect(bytes.withUnsafeMutableBufferPointer { table.match(UnsafeBufferPointer($0)) } == index, "\(name)")
            for miss in [name + "s", String(name.dropLast()), name.uppercased(), "x" + name.dropFirst()] where !names.contains(miss) {
                bytes = Array(miss.utf8)
                #expect(bytes.withUnsafeMutableBufferPointer { table.match(UnsafeBufferPointer($0)) } == nil, "\(miss)")
            }
        }
    }

    @Test("timestamps at fixed places read the same as digit by digit")
    func fixedTimestampLayoutAgrees() {
        // Valid timestamps, then each byte of them replaced by bytes that break or bend the layout.
        let texts = ["2026-09-01T07:12:03.120-04:00", "2025-07-27 15:47:10.504275-0400", "1999-12-31 23:59:60Z", "2026-13-45T25:61:99"]
        let replacements: [UInt8] = Array("0 9T:-/.x".utf8) + [0x2F, 0x3A, 0xFF]
        var checked = 0
        for text in texts {
            let original = Array(text.utf8)
            for at in -1..<original.count {
                for r in (at < 0 ? [0] : replacements) {
                    var bytes = original
                    if at >= 0 { bytes[at] = r }
                    for length in [bytes.count, 19, 18] where length <= bytes.count {
                        let prefix = Array(bytes.prefix(length))
                        prefix.withUnsafeBufferPointer { b in
                            let fixed = LogTimestamp.fixedDateAndTime(b, 0)
                            let general = LogTimestamp.dateAndTime(b, 0)
                            if let fixed {
                                #expect(general.map { "\($0)" } == "\(fixed)", "\(String(decoding: prefix, as: UTF8.self))")
                                checked += 1
                            }
                        }
                    }
                }
            }
        }
        #expect(checked > 100)
    }
}
