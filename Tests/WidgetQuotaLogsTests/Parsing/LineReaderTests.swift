import Testing
import WidgetQuotaLogs

@Suite("Line reader")
struct LineReaderTests {
    private func lines(_ text: String, bufferSize: Int, maxRead: Int = .max) throws -> [(String, Bool, Bool)] {
        var source = MemoryByteSource(text, maxRead: maxRead)
        var result = [(String, Bool, Bool)]()
        try LineReader(bufferSize: bufferSize).forEachLine(in: &source) { line in
            result.append((String(decoding: line.bytes, as: UTF8.self), line.isOverlong, line.isUnterminated))
        }
        return result
    }

    @Test("splits lines at every chunk boundary", arguments: [1, 2, 3, 7, 64])
    func chunkBoundaries(maxRead: Int) throws {
        let text = "alpha\r\nbeta\n\ngamma\r\nδέλτα\nlast"
        let got = try lines(text, bufferSize: 32, maxRead: maxRead)
        #expect(got.map(\.0) == ["alpha", "beta", "", "gamma", "δέλτα", "last"])
        #expect(got.map(\.2) == [false, false, false, false, false, true])
    }

    @Test("line longer than buffer is reported and skipped") func lineLongerThanBufferIsReportedAndSkipped() throws {
        let long = String(repeating: "x", count: 100)
        let got = try lines("short\n\(long)\nafter\n\(long)", bufferSize: 16, maxRead: 5)
        #expect(got.map(\.0) == ["short", "", "after", ""])
        #expect(got.map(\.1) == [false, true, false, true])
    }

    @Test("many lines through one small buffer") func manyLinesThroughOneSmallBuffer() throws {
        // 20,000 lines through a 64-byte buffer: the buffer never grows, every line arrives intact.
        var text = ""
        for i in 0..<20_000 { text += "line \(i)\n" }
        var count = 0
        var source = MemoryByteSource(text, maxRead: 1_000)
        let bytes = try LineReader(bufferSize: 64).forEachLine(in: &source) { line in
            #expect(String(decoding: line.bytes, as: UTF8.self) == "line \(count)")
            count += 1
        }
        #expect(count == 20_000)
        #expect(bytes == text.utf8.count)
    }

    @Test(
        "every line's offset finds its bytes in the input, across chunks and skipped long lines",
        arguments: [1, 3, 7, 64])
    func offsetsPointAtTheLine(maxRead: Int) throws {
        let long = String(repeating: "x", count: 40)
        let text = "alpha\r\nbeta\n\n\(long)\ngamma\r\nδέλτα\n\(long)\(long)\nlast"
        let input = Array(text.utf8)
        var source = MemoryByteSource(input, maxRead: maxRead)
        var seen = 0
        try LineReader(bufferSize: 32).forEachLine(in: &source) { line in
            seen += 1
            guard !line.isOverlong else { return }
            #expect(Array(input[line.offset..<(line.offset + line.bytes.count)]) == Array(line.bytes), "line \(line.number)")
            #expect(line.offset == 0 || input[line.offset - 1] == 0x0A, "line \(line.number) starts after a line break")
        }
        #expect(seen == 8)
    }

    @Test("invalid UTF 8 is repaired not fatal") func invalidUTF8IsRepairedNotFatal() throws {
        var source = MemoryByteSource([0x61, 0xFF, 0xFE, 0x62, 0x0A])
        var got = [String]()
        try LineReader(bufferSize: 16).forEachLine(in: &source) { got.append(String(decoding: $0.bytes, as: UTF8.self)) }
        #expect(got == ["a\u{FFFD}\u{FFFD}b"])
    }
}

@Suite("Timestamps")
struct LogTimestampTests {
    @Test(
        "parses every shape",
        arguments: [
            ("2025-07-27 15:47:10.504275-0400", -14_400),
            ("2026-09-14T11:18:19.799+02:00", 7_200),
            ("2026-09-14T11:18:19Z", 0),
            ("2026-09-14 11:18:19.799+0530", 19_800),
        ])
    func offsets(text: String, offset: Int) {
        let ts = LogTimestamp.parse(text)
        #expect(ts?.utcOffsetSeconds == offset)
    }

    @Test("compact has no offset and counts local days") func compactHasNoOffsetAndCountsLocalDays() throws {
        let ts = try #require(LogTimestamp.parse("2026-09-14 23:59:59.999"))
        #expect(ts.utcOffsetSeconds == nil)
        #expect(LogTimestamp.dateText(day: ts.localDay) == "2026-09-14")
    }

    @Test("same instant different local days") func sameInstantDifferentLocalDays() throws {
        // 23:30 in Tokyo and 14:30 UTC are the same instant, but on the devices' own calendars.
        let tokyo = try #require(LogTimestamp.parse("2026-09-01T23:30:00.000+09:00"))
        let utc = try #require(LogTimestamp.parse("2026-09-01T14:30:00.000Z"))
        #expect(tokyo.utcSeconds == utc.utcSeconds)
        let ny = try #require(LogTimestamp.parse("2026-09-01T22:30:00.000-04:00"))
        #expect(LogTimestamp.dateText(day: ny.localDay) == "2026-09-01")
        #expect(ny.utcSeconds! > tokyo.utcSeconds!)
    }

    /// A time stays on the day it prints: a leap second, or more fraction digits than a
    /// microsecond, must not carry it into the next day.
    @Test(
        "stays on its printed day",
        arguments: [
            "2026-12-31T23:59:60Z", "2026-12-31T23:59:59.99999999999999999999Z",
            "2026-12-31 23:59:59.9999999", "2024-02-29 12:00:00",
        ])
    func staysOnItsDay(text: String) throws {
        let ts = try #require(LogTimestamp.parse(text))
        #expect(LogTimestamp.dateText(day: ts.localDay) == String(text.prefix(10)))
    }

    @Test(
        "rejects what is not a timestamp",
        arguments: [
            "2026-13-01 00:00:00", "2026-09-14", "not a time", "2026-09-14 25:00:00",
            "2026-02-31T10:00:00Z", "2026-02-29 10:00:00", "2026-04-31 10:00:00",
            "2100-02-29 10:00:00",
        ])
    func rejects(text: String) {
        #expect(LogTimestamp.parse(text) == nil)
    }

    @Test("round trips through ISO") func roundTripsThroughISO() throws {
        let ts = try #require(LogTimestamp.parse("2026-09-01T07:12:03.120-04:00"))
        #expect(ts.iso8601() == "2026-09-01T07:12:03.120-04:00")
    }
}
