import WidgetQuotaSupport

/// A point in time as a device logged it: the wall-clock time it printed and, when the log
/// says so, its offset from UTC.
///
/// Days are counted in the device's own local time (the wall clock printed), so a device-day is
/// the same whether or not the offset is known. Parsed from bytes without Foundation, because
/// every line of a large export carries one.
package struct LogTimestamp: Sendable, Equatable {
    /// Seconds since 1970-01-01 00:00 of the printed wall clock (not UTC).
    package var localSeconds: Double
    /// Offset from UTC in seconds when the timestamp carried one (`-0400`, `+02:00`, `Z`).
    package var utcOffsetSeconds: Int?

    package init(localSeconds: Double, utcOffsetSeconds: Int?) {
        self.localSeconds = localSeconds
        self.utcOffsetSeconds = utcOffsetSeconds
    }

    /// The device-local day: days since 1970-01-01.
    package var localDay: Int { Int((localSeconds / .secondsPerDay).rounded(.down)) }

    /// Seconds since the epoch in UTC, when the offset is known.
    package var utcSeconds: Double? { utcOffsetSeconds.map { localSeconds - Double($0) } }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    package static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        CivilDays.days(year: year, month: month, day: day)
    }

    /// The civil date of a day number.
    package static func civil(fromDays z: Int) -> (year: Int, month: Int, day: Int) { CivilDays.date(days: z) }

    /// Days in `month` (1–12) of `year`, leap years included.
    static func daysInMonth(year: Int, month: Int) -> Int { CivilDays.daysInMonth(year: year, month: month) }

    /// `2026-09-14` for a day number.
    package static func dateText(day: Int) -> String {
        let c = civil(fromDays: day)
        return "\(c.year)-\(c.month < 10 ? "0" : "")\(c.month)-\(c.day < 10 ? "0" : "")\(c.day)"
    }

    /// Parses a timestamp at the start of `bytes[from...]`: `2025-07-27 15:47:10.504275-0400`,
    /// `2026-09-14 11:18:19.799`, `2026-09-14T11:18:19.799+02:00`, `...Z`.
    /// Returns the timestamp and the index just past it, or nil.
    package static func parse(_ bytes: UnsafeBufferPointer<UInt8>, from: Int = 0) -> (LogTimestamp, end: Int)? {
        let n = bytes.count
        guard let (year, month, day, hour, minute, second, end) = fixedDateAndTime(bytes, from) ?? dateAndTime(bytes, from),
            month >= 1, month <= 12, day >= 1,
            // Logs come from iOS devices: a year outside this range is a corrupt line, not a date.
            year >= 2000, year <= 2100,
            day <= daysInMonth(year: year, month: month),  // 2026-02-31 is not March 3rd
            hour < TimeUnits.hoursPerDay, minute < TimeUnits.minutesPerHour, second < 61
        else { return nil }
        var i = end
        var fraction = 0.0
        if i < n, bytes[i] == 0x2E || bytes[i] == 0x2C {
            i += 1
            var scale = 0.1
            let start = i
            while i < n, bytes[i] &- 0x30 < 10 {
                if i - start < 9 { fraction += Double(bytes[i] &- 0x30) * scale }  // nanoseconds at most
                scale *= 0.1
                i += 1
            }
            guard i > start else { return nil }
            // Digits past a microsecond must not round a time into the next second (or day).
            fraction = min(fraction, 0.999_999)
        }
        // A leap second (23:59:60) is the last moment of its minute, not the next minute's first.
        let wholeSecond = min(second, 59)
        if second == 60 { fraction = 0.999_999 }
        var offset: Int?
        if i < n {
            let c = bytes[i]
            if c == 0x5A {  // Z
                offset = 0
                i += 1
            } else if c == 0x2B || c == 0x2D {  // + or -
                var cursor = DigitCursor(bytes: bytes, at: i + 1)
                if let hh = cursor.digits(2) {
                    _ = cursor.expect(0x3A)
                    if let mm = cursor.digits(2), hh <= 14, mm < TimeUnits.minutesPerHour {
                        offset = (c == 0x2D ? -1 : 1) * (hh * TimeUnits.secondsPerHour + mm * TimeUnits.secondsPerMinute)
                        i = cursor.at
                    }
                }
            }
        }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds =
            Double(days * TimeUnits.secondsPerDay + hour * TimeUnits.secondsPerHour + minute * TimeUnits.secondsPerMinute + wholeSecond)
            + fraction
        return (LogTimestamp(localSeconds: seconds, utcOffsetSeconds: offset), i)
    }

    /// A date and wall-clock time as printed, not yet checked for range.
    package typealias DateAndTime = (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, end: Int)

    /// `yyyy-mm-dd hh:mm:ss` (or with `T`) at `from`, the digits and separators read at their
    /// fixed places; nil when the bytes differ from that layout anywhere (then `dateAndTime`
    /// reads them, and comes to the same answer for every text this one reads).
    @inline(__always)
    package static func fixedDateAndTime(_ bytes: UnsafeBufferPointer<UInt8>, _ from: Int) -> DateAndTime? {
        guard bytes.count - from >= 19, let base = bytes.baseAddress else { return nil }
        let p = base + from
        @inline(__always) func two(_ k: Int) -> Int? {
            let a = p[k] &- 0x30
            let b = p[k + 1] &- 0x30
            guard a < 10, b < 10 else { return nil }
            return Int(a) * 10 + Int(b)
        }
        guard let century = two(0), let years = two(2), p[4] == 0x2D, let month = two(5), p[7] == 0x2D, let day = two(8),
            p[10] == 0x20 || p[10] == 0x54, let hour = two(11), p[13] == 0x3A, let minute = two(14), p[16] == 0x3A,
            let second = two(17)
        else { return nil }
        return (century * 100 + years, month, day, hour, minute, second, from + 19)
    }

    /// The date and time at `from`, digit by digit; nil when the layout is not that of a timestamp.
    package static func dateAndTime(_ bytes: UnsafeBufferPointer<UInt8>, _ from: Int) -> DateAndTime? {
        var c = DigitCursor(bytes: bytes, at: from)
        guard let year = c.digits(4), c.expect(0x2D), let month = c.digits(2), c.expect(0x2D), let day = c.digits(2),
            c.expect(0x20) || c.expect(0x54),  // ' ' or 'T'
            let hour = c.digits(2), c.expect(0x3A), let minute = c.digits(2), c.expect(0x3A), let second = c.digits(2)
        else { return nil }
        return (year, month, day, hour, minute, second, c.at)
    }

    /// Reads digits and separators, moving past what it reads.
    private struct DigitCursor {
        let bytes: UnsafeBufferPointer<UInt8>
        var at: Int

        /// The number `count` digits spell, or nil (and no move) when they are not all digits.
        mutating func digits(_ count: Int) -> Int? {
            guard at + count <= bytes.count else { return nil }
            var v = 0
            for k in 0..<count {
                let c = bytes[at + k] &- 0x30
                guard c < 10 else { return nil }
                v = v * 10 + Int(c)
            }
            at += count
            return v
        }

        /// True, moving past it, when the next byte is `byte`.
        mutating func expect(_ byte: UInt8) -> Bool {
            guard at < bytes.count, bytes[at] == byte else { return false }
            at += 1
            return true
        }
    }

    /// Parses a whole string as a timestamp (trailing bytes are an error).
    package static func parse(_ text: String) -> LogTimestamp? {
        var copy = text
        return copy.withUTF8 { bytes in
            guard let (ts, end) = parse(bytes), end == bytes.count else { return nil }
            return ts
        }
    }

    /// ISO 8601 with milliseconds and offset: `2026-09-01T07:12:03.120-04:00`.
    package func iso8601() -> String {
        wallClock(dateSeparator: "T", fractionDigits: 3) + LogTimestamp.offsetText(utcOffsetSeconds ?? 0, colon: true)
    }

    /// The wall clock: `2026-09-01 07:12:03.120456` (with the given separator and fraction digits).
    package func wallClock(dateSeparator: String = " ", fractionDigits: Int) -> String {
        let totalMicros = Int64((localSeconds * 1_000_000).rounded(.down))
        let dayMicros: Int64 = 86_400_000_000
        var day = totalMicros / dayMicros
        var rest = totalMicros % dayMicros
        if rest < 0 {
            rest += dayMicros
            day -= 1
        }
        let secondsOfDay = Int(rest / 1_000_000)
        let micros = Int(rest % 1_000_000)
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        var text =
            LogTimestamp.dateText(day: Int(day)) + dateSeparator
            + two(secondsOfDay / TimeUnits.secondsPerHour) + ":" + two(secondsOfDay / TimeUnits.secondsPerMinute % TimeUnits.minutesPerHour)
            + ":" + two(secondsOfDay % TimeUnits.secondsPerMinute)
        if fractionDigits > 0 {
            var digits = String(micros)
            digits = String(repeating: "0", count: 6 - digits.count) + digits
            text += "." + digits.prefix(fractionDigits)
        }
        return text
    }

    /// `-0400` or `-04:00`.
    package static func offsetText(_ seconds: Int, colon: Bool) -> String {
        let sign = seconds < 0 ? "-" : "+"
        let a = abs(seconds)
        let h = a / TimeUnits.secondsPerHour
        let m = a / TimeUnits.secondsPerMinute % TimeUnits.minutesPerHour
        return sign + (h < 10 ? "0" : "") + "\(h)" + (colon ? ":" : "") + (m < 10 ? "0" : "") + "\(m)"
    }
}
