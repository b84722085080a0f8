/// A point in time as a device logged it: the wall-clock time it printed and, when the log
/// says so, its offset from UTC.
///
/// Days are counted in the device's own local time (the wall clock printed), so a device-day is
/// the same whether or not the offset is known. Parsed from bytes without Foundation, because
/// every line of a large export carries one.
public struct LogTimestamp: Sendable, Equatable {
    /// Seconds since 1970-01-01 00:00 of the printed wall clock (not UTC).
    public var localSeconds: Double
    /// Offset from UTC in seconds when the timestamp carried one (`-0400`, `+02:00`, `Z`).
    public var utcOffsetSeconds: Int?

    public init(localSeconds: Double, utcOffsetSeconds: Int?) {
        self.localSeconds = localSeconds
        self.utcOffsetSeconds = utcOffsetSeconds
    }

    /// The device-local day: days since 1970-01-01.
    public var localDay: Int { Int((localSeconds / 86_400).rounded(.down)) }

    /// Seconds since the epoch in UTC, when the offset is known.
    public var utcSeconds: Double? { utcOffsetSeconds.map { localSeconds - Double($0) } }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    public static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The civil date of a day number.
    public static func civil(fromDays z0: Int) -> (year: Int, month: Int, day: Int) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    /// `2026-09-14` for a day number.
    public static func dateText(day: Int) -> String {
        let c = civil(fromDays: day)
        return "\(c.year)-\(c.month < 10 ? "0" : "")\(c.month)-\(c.day < 10 ? "0" : "")\(c.day)"
    }

    /// Parses a timestamp at the start of `bytes[from...]`: `2025-07-27 15:47:10.504275-0400`,
    /// `2026-09-14 11:18:19.799`, `2026-09-14T11:18:19.799+02:00`, `...Z`.
    /// Returns the timestamp and the index just past it, or nil.
    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>, from: Int = 0) -> (LogTimestamp, end: Int)? {
        let n = bytes.count
        var i = from
        @inline(__always) func digits(_ count: Int) -> Int? {
            guard i + count <= n else { return nil }
            var v = 0
            for k in 0..<count {
                let c = bytes[i + k] &- 0x30
                guard c < 10 else { return nil }
                v = v * 10 + Int(c)
            }
            i += count
            return v
        }
        @inline(__always) func expect(_ byte: UInt8) -> Bool {
            guard i < n, bytes[i] == byte else { return false }
            i += 1
            return true
        }
        guard let year = digits(4), expect(0x2D), let month = digits(2), expect(0x2D), let day = digits(2),
              month >= 1, month <= 12, day >= 1, day <= 31 else { return nil }
        guard i < n, bytes[i] == 0x20 || bytes[i] == 0x54 else { return nil }   // ' ' or 'T'
        i += 1
        guard let hour = digits(2), expect(0x3A), let minute = digits(2), expect(0x3A), let second = digits(2),
              hour < 24, minute < 60, second < 61 else { return nil }
        var fraction = 0.0
        if i < n, bytes[i] == 0x2E || bytes[i] == 0x2C {
            i += 1
            var scale = 0.1
            let start = i
            while i < n, bytes[i] &- 0x30 < 10 {
                fraction += Double(bytes[i] &- 0x30) * scale
                scale *= 0.1
                i += 1
            }
            guard i > start else { return nil }
        }
        var offset: Int?
        if i < n {
            let c = bytes[i]
            if c == 0x5A {   // Z
                offset = 0
                i += 1
            } else if c == 0x2B || c == 0x2D {   // + or -
                let save = i
                i += 1
                if let hh = digits(2) {
                    _ = expect(0x3A)
                    if let mm = digits(2), hh <= 14, mm < 60 {
                        offset = (c == 0x2D ? -1 : 1) * (hh * 3_600 + mm * 60)
                    } else {
                        i = save
                    }
                } else {
                    i = save
                }
            }
        }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = Double(days * 86_400 + hour * 3_600 + minute * 60 + second) + fraction
        return (LogTimestamp(localSeconds: seconds, utcOffsetSeconds: offset), i)
    }

    /// Parses a whole string as a timestamp (trailing bytes are an error).
    public static func parse(_ text: String) -> LogTimestamp? {
        var copy = text
        return copy.withUTF8 { bytes in
            guard let (ts, end) = parse(bytes), end == bytes.count else { return nil }
            return ts
        }
    }

    /// ISO 8601 with milliseconds and offset: `2026-09-01T07:12:03.120-04:00`.
    public func iso8601() -> String {
        wallClock(dateSeparator: "T", fractionDigits: 3) + LogTimestamp.offsetText(utcOffsetSeconds ?? 0, colon: true)
    }

    /// The wall clock: `2026-09-01 07:12:03.120456` (with the given separator and fraction digits).
    public func wallClock(dateSeparator: String = " ", fractionDigits: Int) -> String {
        let totalMicros = Int64((localSeconds * 1_000_000).rounded(.down))
        let dayMicros: Int64 = 86_400_000_000
        var day = totalMicros / dayMicros
        var rest = totalMicros % dayMicros
        if rest < 0 { rest += dayMicros; day -= 1 }
        let secondsOfDay = Int(rest / 1_000_000)
        let micros = Int(rest % 1_000_000)
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        var text = LogTimestamp.dateText(day: Int(day)) + dateSeparator
            + two(secondsOfDay / 3_600) + ":" + two(secondsOfDay / 60 % 60) + ":" + two(secondsOfDay % 60)
        if fractionDigits > 0 {
            var digits = String(micros)
            digits = String(repeating: "0", count: 6 - digits.count) + digits
            text += "." + digits.prefix(fractionDigits)
        }
        return text
    }

    /// `-0400` or `-04:00`.
    public static func offsetText(_ seconds: Int, colon: Bool) -> String {
        let sign = seconds < 0 ? "-" : "+"
        let a = abs(seconds)
        let h = a / 3_600, m = a / 60 % 60
        return sign + (h < 10 ? "0" : "") + "\(h)" + (colon ? ":" : "") + (m < 10 ? "0" : "") + "\(m)"
    }
}
