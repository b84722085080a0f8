import Foundation
import Testing
import WidgetQuotaModel
import WidgetQuotaSupport

@Suite("open hours in the model") struct OpenHoursModelTests {
    @Test("A session in New York opens at 14:30 UTC in winter and 13:30 UTC after the clocks go forward")
    func daylightSaving() throws {
        var calendar = ScenarioCalendar()
        calendar.startDate = "2027-03-12"
        calendar.hours = OpenHours()
        // Friday 12, (weekend), Monday 15 March 2027; US daylight saving began on Sunday 14 March.
        let sessions = try #require(calendar.sessions(days: 1...4))
        #expect(sessions.map(\.day) == [1, 4])
        #expect(sessions[0].start == 14.5 * 3_600 && sessions[0].end == 21 * 3_600)
        #expect(sessions[1].start == 3 * 86_400 + 13.5 * 3_600 && sessions[1].end == 3 * 86_400 + 20 * 3_600)
    }

    @Test("Holidays and weekdays other than the session's are closed")
    func holidaysClose() throws {
        var calendar = ScenarioCalendar()
        calendar.startDate = "2027-12-20"
        calendar.hours = OpenHours(timeZone: "Europe/London", open: "08:00", close: "16:30", holidays: ["2027-12-24"])
        let days = try #require(calendar.sessions(days: 1...14)).map(\.day)
        // 20–23 Dec, then 27–31 Dec (25–26 a weekend), 24 Dec a holiday; 3 Jan 2028 is day 15.
        #expect(days == [1, 2, 3, 4, 8, 9, 10, 11, 12])
    }

    @Test(
        "Dates read as the calendar has them",
        arguments: [
            ("2027-03-01", Weekday.monday), ("2028-02-29", .tuesday), ("2000-01-01", .saturday), ("2026-12-05", .saturday),
        ])
    func dates(text: String, weekday: Weekday) throws {
        let date = try #require(CalendarDate(text: text))
        #expect(date.text == text)
        var calendar = ScenarioCalendar()
        calendar.startDate = text
        let decoded = try JSONDecoder().decode(ScenarioCalendar.self, from: Data("{\"startDate\": \"\(text)\"}".utf8))
        #expect(decoded.firstWeekday == weekday, "the start date sets the weekday of day 1")
    }

    @Test(
        "Dates and clock times that do not exist are refused",
        arguments: ["2027-02-29", "2027-13-01", "27-03-01", "2027-3-1", "2027-03-01T00:00", "", "٢٠٢٧-٠٣-٠١"])
    func badDates(text: String) { #expect(CalendarDate(text: text) == nil) }

    @Test(
        "Scenarios with open hours that cannot be placed are refused, naming the field",
        arguments: [
            (#"{"calendar": {"hours": {}}}"#, "calendar.hours"),
            (#"{"calendar": {"startDate": "2027-03-01", "hours": {"timeZone": "Wall Street"}}}"#, "calendar.hours.timeZone"),
            (#"{"calendar": {"startDate": "2027-03-01", "hours": {"open": "16:00", "close": "09:30"}}}"#, "calendar.hours.close"),
            (#"{"calendar": {"startDate": "2027-03-01", "hours": {"open": "9:30"}}}"#, "calendar.hours.open"),
            (#"{"calendar": {"startDate": "2027-03-01", "hours": {"holidays": ["2027-04-31"]}}}"#, "calendar.hours.holidays[0]"),
            (#"{"calendar": {"startDate": "2027-03-01", "firstWeekday": "friday"}}"#, "calendar.firstWeekday"),
            (#"{"calendar": {"startDate": "1 March 2027"}}"#, "calendar.startDate"),
            (
                #"{"designs": [{"name": "poll", "source": "s", "backend": {"regenerate": "every(1)", "onlyWhenOpen": true}}]}"#,
                "designs[0].backend.onlyWhenOpen"
            ),
        ])
    func refused(json: String, field: String) { expectRefused(json, naming: field) }

    @Test(
        "A misspelt time zone is answered with the nearest name; one far from any, with examples",
        arguments: [
            ("Europe/Londn", "did you mean \"Europe/London\"?"), ("america/new_york", "did you mean \"America/New_York\"?"),
            ("Wall Street", "America/New_York or Europe/London"),
        ])
    func timeZoneSuggestion(zone: String, message: String) {
        let json = #"{"calendar": {"startDate": "2027-03-01", "hours": {"timeZone": "\#(zone)"}}}"#
        expectRefused(json, naming: "calendar.hours.timeZone")
        expectRefused(json, naming: message)
    }
}
