import Foundation
import WidgetQuotaSupport

/// The hours when the data a widget shows can change: a stock exchange's trading session, a
/// shop's opening hours. They are kept in a named time zone, so a session that opens at 9:30 in
/// New York opens at 14:30 UTC in winter and 13:30 UTC in summer; holidays are closed.
///
/// With `ScenarioCalendar.hours` set, data changes fall in these hours only, a backend schedule
/// marked `onlyWhenOpen` runs in them only, and freshness is also measured over the glances that
/// fall in them (`freshness.openHours`).
public struct OpenHours: Codable, Sendable, Equatable {
    /// An IANA time zone name (`America/New_York`, `Europe/London`).
    public var timeZone: String = "America/New_York"
    /// Local opening time, `HH:MM`.
    public var open: String = "09:30"
    /// Local closing time, `HH:MM`, after the opening time.
    public var close: String = "16:00"
    /// The weekdays it opens.
    public var weekdays: [Weekday] = [.monday, .tuesday, .wednesday, .thursday, .friday]
    /// Dates it stays closed (`YYYY-MM-DD`, local).
    public var holidays: [String] = []

    /// New York's stock exchanges' regular session (9:30–16:00, weekdays, no holiday) unless given.
    public init(
        timeZone: String = "America/New_York", open: String = "09:30", close: String = "16:00",
        weekdays: [Weekday] = [.monday, .tuesday, .wednesday, .thursday, .friday], holidays: [String] = []
    ) {
        self.timeZone = timeZone
        self.open = open
        self.close = close
        self.weekdays = weekdays
        self.holidays = holidays
    }

    public init(from decoder: Decoder) throws {
        let d = OpenHours()
        let c = try decoder.container(keyedBy: CodingKeys.self)
        timeZone = try c.value(.timeZone, or: d.timeZone)
        open = try c.value(.open, or: d.open)
        close = try c.value(.close, or: d.close)
        weekdays = try c.value(.weekdays, or: d.weekdays)
        holidays = try c.value(.holidays, or: d.holidays)
    }

    /// Minutes after local midnight of an `HH:MM` time (nil unless two-digit hours 00–23 and minutes 00–59).
    package static func minutes(ofClock text: String) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isASCII) }),
            let h = Int(parts[0]), let m = Int(parts[1]), (0..<24).contains(h), (0..<60).contains(m)
        else { return nil }
        return h * 60 + m
    }

    /// One open session: its calendar day (1-based) and its bounds in seconds from UTC midnight of day 1.
    package struct Session: Sendable, Equatable {
        package var day: Int
        package var start: Double
        package var end: Double
    }

    /// The sessions of the days `days` after `firstDate` (0: `firstDate` itself), in time order.
    /// Nil when a field does not read (the validator names it).
    package func sessions(firstDate: CalendarDate, days: Range<Int>) -> [Session]? {
        guard let zone = TimeZone(identifier: timeZone), let openMinute = Self.minutes(ofClock: open),
            let closeMinute = Self.minutes(ofClock: close), closeMinute > openMinute
        else { return nil }
        let closed = Set(holidays.compactMap(CalendarDate.init(text:)))
        var local = Calendar(identifier: .gregorian)
        local.timeZone = zone
        let origin = firstDate.utcMidnight
        var result: [Session] = []
        for day in days {
            let date = firstDate.adding(days: day)
            guard weekdays.contains(date.weekday), !closed.contains(date) else { continue }
            func instant(_ minute: Int) -> Double? {
                let components = DateComponents(
                    year: date.year, month: date.month, day: date.day, hour: minute / 60, minute: minute % 60)
                return local.date(from: components).map { $0.timeIntervalSince1970 - origin }
            }
            guard let start = instant(openMinute), let end = instant(closeMinute), end > start else { continue }
            result.append(Session(day: day + 1, start: start, end: end))
        }
        return result
    }
}

/// A day of the Gregorian calendar, as `YYYY-MM-DD`.
package struct CalendarDate: Sendable, Hashable, Comparable {
    package let year: Int
    package let month: Int
    package let day: Int

    /// The date `text` names (nil unless `YYYY-MM-DD` of a real day between 1900 and 2999).
    package init?(text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy { ("0"..."9").contains($0) } }),
            let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]), (1900...2999).contains(y), (1...12).contains(m),
            d >= 1, d <= CivilDays.daysInMonth(year: y, month: m)
        else { return nil }
        (year, month, day) = (y, m, d)
    }

    private init(daysFromEpoch z: Int) { (year, month, day) = CivilDays.date(days: z) }

    /// Days since 1970-01-01.
    var daysFromEpoch: Int { CivilDays.days(year: year, month: month, day: day) }

    /// The date `n` days later (earlier when negative).
    package func adding(days n: Int) -> CalendarDate { CalendarDate(daysFromEpoch: daysFromEpoch + n) }

    /// Its weekday.
    package var weekday: Weekday {
        // 1970-01-01 was a Thursday.
        Weekday.allCases[((daysFromEpoch + 3) % 7 + 7) % 7]
    }

    /// Seconds from 1970-01-01 00:00 UTC to its UTC midnight.
    package var utcMidnight: Double { Double(daysFromEpoch) * 86_400 }

    /// `YYYY-MM-DD`.
    package var text: String {
        func pad(_ n: Int, _ width: Int) -> String { String(repeating: "0", count: max(0, width - String(n).count)) + String(n) }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }

    package static func < (a: CalendarDate, b: CalendarDate) -> Bool { a.daysFromEpoch < b.daysFromEpoch }
}

extension Scenario {
    /// The hours of each key group (`content.groups`; one group, the calendar's hours, without
    /// them): nil for a group whose data changes at any hour.
    package var groupHours: [OpenHours?] {
        guard let groups = content.groups, !groups.isEmpty else { return [calendar.hours] }
        return groups.map(\.hours)
    }

    /// The multiplier of `api.dataChangesPerDay` for each key group's keys (one group, 1, without them).
    package var groupChangeFactors: [Double] {
        guard let groups = content.groups, !groups.isEmpty else { return [1] }
        return groups.map(\.changeFactor)
    }

    /// True when some keys' data changes in open hours only (`calendar.hours`, or a group's).
    package var hasOpenHours: Bool { groupHours.contains { $0 != nil } }
}
