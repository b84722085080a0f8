import Foundation
import WidgetQuotaSupport

/// Days that are not alike: kinds of days that recur by weekday (match days, weekends) and one-off
/// events (a final), each multiplying app opens, glances and data changes.
///
/// Day 1 is the first reported day. Factors apply to each user's local day of that number; the
/// data changes of a day with `startHourUTC` and `hours` fall in that window of the UTC day
/// (a match's goals happen at the same moment for every fan, wherever they live).
public struct ScenarioCalendar: Codable, Sendable, Equatable {
    /// The weekday of day 1.
    public var firstWeekday: Weekday = .monday
    /// Kinds of days that recur by weekday; a day of several kinds takes every kind's factors.
    public var dayKinds: [DayKind] = []
    /// One-off days; an event's factors multiply its day kind's.
    public var events: [CalendarEvent] = []
    /// The date of day 1 (`YYYY-MM-DD`), which `hours` needs to place its holidays and daylight
    /// saving; it sets `firstWeekday` when that is not given.
    public var startDate: String?
    /// The hours when the data can change (a trading session); nil: any time.
    public var hours: OpenHours?

    /// Every day ordinary, day 1 a Monday.
    public init() {}

    public init(from decoder: Decoder) throws {
        let d = ScenarioCalendar()
        let c = try decoder.container(keyedBy: CodingKeys.self)
        firstWeekday = try c.value(.firstWeekday, or: d.firstWeekday)
        dayKinds = try c.value(.dayKinds, or: d.dayKinds)
        events = try c.value(.events, or: d.events)
        startDate = try c.decodeIfPresent(String.self, forKey: .startDate)
        hours = try c.decodeIfPresent(OpenHours.self, forKey: .hours)
        if !c.contains(.firstWeekday), let date = firstDate { firstWeekday = date.weekday }
    }

    /// The date of day 1, when `startDate` reads as one.
    package var firstDate: CalendarDate? { startDate.flatMap(CalendarDate.init(text:)) }

    /// The open sessions of calendar days `days` (1-based; day 1 is `startDate`), each with its
    /// day and its bounds in seconds from UTC midnight of day 1; nil without `hours` or a date.
    package func sessions(days: ClosedRange<Int>) -> [OpenHours.Session]? { sessions(of: hours, days: days) }

    /// The open sessions of `hours` (a key group's) over calendar days `days`, as `sessions(days:)`.
    package func sessions(of hours: OpenHours?, days: ClosedRange<Int>) -> [OpenHours.Session]? {
        guard let hours, let firstDate else { return nil }
        return hours.sessions(firstDate: firstDate, days: (days.lowerBound - 1)..<days.upperBound)
    }

    /// True when every day is alike: no kind or event changes a factor or sets a window.
    public var isUniform: Bool {
        (dayKinds.map(\.factors) + events.map(\.factors)).allSatisfy { $0 == DayFactors() }
    }

    /// True when some day kind or event sets the window of its data changes: a live event (a
    /// match) that a Live Activity follows.
    public var hasLiveEvents: Bool {
        (dayKinds.map(\.factors) + events.map(\.factors)).contains { $0.changeWindow != nil }
    }

    /// The weekday of day `day` (1-based; days before day 1, such as the warm-up, count back).
    package func weekday(ofDay day: Int) -> Weekday {
        let index = ((firstWeekday.index + day - 1) % 7 + 7) % 7
        return Weekday.allCases[index]
    }

    /// The factors of day `day` (1-based; warm-up days are ≤ 0): its kinds' and its events' multiplied.
    package func factors(ofDay day: Int) -> DayFactors {
        let weekday = weekday(ofDay: day)
        var f = DayFactors()
        for kind in dayKinds where kind.weekdays.contains(weekday) { f = f.combined(with: kind.factors) }
        for event in events where event.day == day { f = f.combined(with: event.factors) }
        return f
    }
}

/// Multipliers of one day's activity (1: an ordinary day), and the UTC window its data changes fall in.
public struct DayFactors: Codable, Sendable, Equatable {
    /// The multiplier of app opens.
    public var appOpens: Double = 1
    /// The multiplier of glances at the widget.
    public var glances: Double = 1
    /// The multiplier of changes to the data the widget shows.
    public var dataChanges: Double = 1
    /// The UTC hour from which the day's data changes happen, for `hours` hours (nil: all day).
    public var startHourUTC: Double?
    /// The length of that window in hours (nil: to the end of the UTC day).
    public var hours: Double?

    /// Factors of an ordinary day unless given.
    public init(appOpens: Double = 1, glances: Double = 1, dataChanges: Double = 1, startHourUTC: Double? = nil, hours: Double? = nil) {
        self.appOpens = appOpens
        self.glances = glances
        self.dataChanges = dataChanges
        self.startHourUTC = startHourUTC
        self.hours = hours
    }

    /// Both factors applied: products, and `other`'s window where it gives one.
    func combined(with other: DayFactors) -> DayFactors {
        DayFactors(
            appOpens: appOpens * other.appOpens, glances: glances * other.glances, dataChanges: dataChanges * other.dataChanges,
            startHourUTC: other.startHourUTC ?? startHourUTC, hours: other.startHourUTC != nil ? other.hours : hours)
    }

    /// The UTC window of the day's data changes, in hours from UTC midnight (nil: all day).
    public var changeWindow: (start: Double, hours: Double)? {
        guard let start = startHourUTC else { return nil }
        return (start, hours ?? (24 - start))
    }
}

/// A kind of day that recurs on some weekdays (a match day, a weekend).
public struct DayKind: Codable, Sendable, Equatable {
    /// The kind's name, as reports show it.
    public var name: String
    /// The weekdays it falls on.
    public var weekdays: [Weekday]
    /// Its activity multipliers.
    public var factors: DayFactors

    /// A kind of day named `name` on `weekdays`.
    public init(name: String, weekdays: [Weekday], factors: DayFactors) {
        self.name = name
        self.weekdays = weekdays
        self.factors = factors
    }

    enum CodingKeys: String, CodingKey { case name, weekdays, appOpens, glances, dataChanges, startHourUTC, hours }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decode(String.self, forKey: .name)
        weekdays = try c.decode([Weekday].self, forKey: .weekdays)
        factors = try DayFactors(fieldsOf: c)
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encode(weekdays, forKey: .weekdays)
        try factors.encodeFields(into: &c)
    }
}

/// A one-off day (a final, a launch): its factors, and a name the report asks about it by.
public struct CalendarEvent: Codable, Sendable, Equatable {
    /// The event's name, as reports show it.
    public var name: String
    /// The day it falls on (1-based, within the horizon).
    public var day: Int
    /// Its activity multipliers, on top of its day kind's.
    public var factors: DayFactors

    /// An event named `name` on day `day`.
    public init(name: String, day: Int, factors: DayFactors) {
        self.name = name
        self.day = day
        self.factors = factors
    }

    enum CodingKeys: String, CodingKey { case name, day, appOpens, glances, dataChanges, startHourUTC, hours }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decode(String.self, forKey: .name)
        day = try c.decode(Int.self, forKey: .day)
        factors = try DayFactors(fieldsOf: c)
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encode(day, forKey: .day)
        try factors.encodeFields(into: &c)
    }
}

extension DayFactors {
    /// Reads the factors from the fields of the day kind or event that holds them (1 where absent).
    init<K: CodingKey>(fieldsOf c: KeyedDecodingContainer<K>) throws {
        func key(_ name: String) -> K? { K(stringValue: name) }
        func factor(_ name: String) throws -> Double {
            guard let k = key(name) else { return 1 }
            return try c.decodeIfPresent(Double.self, forKey: k) ?? 1
        }
        func optional(_ name: String) throws -> Double? {
            guard let k = key(name) else { return nil }
            return try c.decodeIfPresent(Double.self, forKey: k)
        }
        self.init(
            appOpens: try factor("appOpens"), glances: try factor("glances"), dataChanges: try factor("dataChanges"),
            startHourUTC: try optional("startHourUTC"), hours: try optional("hours"))
    }

    /// Writes the factors as fields of the day kind or event that holds them.
    func encodeFields<K: CodingKey>(into c: inout KeyedEncodingContainer<K>) throws {
        guard let appOpensKey = K(stringValue: "appOpens"), let glancesKey = K(stringValue: "glances"),
            let changesKey = K(stringValue: "dataChanges"), let startKey = K(stringValue: "startHourUTC"),
            let hoursKey = K(stringValue: "hours")
        else { return }
        try c.encode(appOpens, forKey: appOpensKey)
        try c.encode(glances, forKey: glancesKey)
        try c.encode(dataChanges, forKey: changesKey)
        try c.encode(startHourUTC, forKey: startKey)
        try c.encode(hours, forKey: hoursKey)
    }
}

/// A day of the week.
public enum Weekday: String, Codable, Sendable, CaseIterable {
    /// The days in order, Monday first; the raw values are the scenario file's words.
    case monday, tuesday, wednesday, thursday, friday, saturday, sunday

    public init(from decoder: Decoder) throws { self = try ScenarioEnum.decode(decoder) }

    var index: Int { Weekday.allCases.firstIndex(of: self) ?? 0 }
}
