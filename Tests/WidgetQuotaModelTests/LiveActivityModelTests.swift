import Foundation
import Testing
import WidgetQuotaModel
import WidgetQuotaSupport

/// A Live Activity design as a scenario states it: what it needs, and what it refuses.
@Suite("Live Activity designs") struct LiveActivityModelTests {
    static let matchDay =
        #""calendar": {"dayKinds": [{"name": "match day", "weekdays": ["saturday"], "dataChanges": 30, "startHourUTC": 18, "hours": 3}]}"#
    static let backend = #""backend": {"regenerate": "onChange"}"#

    @Test("A Live Activity design with a backend and match days reads back with its defaults")
    func reads() throws {
        let json = #"{\#(Self.matchDay), "designs": [{"name": "la", "source": "s", \#(Self.backend), "liveActivity": {"priority": 5}}]}"#
        let s = try ScenarioLoader.decode(Data(json.utf8), file: "s.json")
        let activity = try #require(s.designs.first?.liveActivity)
        #expect(activity.priority == 5 && !activity.spendsBudget)
        #expect(activity.startShare == LiveActivity().startShare && activity.channel)
        #expect(s.calendar.hasLiveEvents)
        // It survives the scenario's own JSON.
        let again = try ScenarioLoader.decode(Data(ScenarioLoader.encode(s).utf8), file: "again.json")
        #expect(again.designs.first?.liveActivity == activity)
    }

    @Test(
        "Live Activity designs that cannot run are refused, naming the field",
        arguments: [
            (#"{\#(matchDay), "designs": [{"name": "la", "source": "s", "liveActivity": {}}]}"#, "designs[0].liveActivity"),
            (#"{"designs": [{"name": "la", "source": "s", \#(backend), "liveActivity": {}}]}"#, "designs[0].liveActivity"),
            (
                #"{\#(matchDay), "designs": [{"name": "la", "source": "s", \#(backend), "liveActivity": {"priority": 7}}]}"#,
                "designs[0].liveActivity.priority"
            ),
            (
                #"{\#(matchDay), "designs": [{"name": "la", "source": "s", \#(backend), "liveActivity": {"startShare": 1.5}}]}"#,
                "designs[0].liveActivity.startShare"
            ),
            (
                #"{\#(matchDay), "designs": [{"name": "la", "source": "s", \#(backend), "liveActivity": {"startsAt": 1}}]}"#,
                "designs[0].liveActivity"
            ),
            (#"{"platform": {"liveActivityMaxHours": 0}}"#, "platform.liveActivityMaxHours"),
            (
                #"{"calendar": {"startDate": "2027-03-01", "hours": {}, "dayKinds": [{"name": "m", "weekdays": ["saturday"], "startHourUTC": 18, "hours": 3}]}, "designs": [{"name": "la", "source": "s", \#(backend), "liveActivity": {}}]}"#,
                "designs[0].liveActivity"
            ),
        ])
    func refused(json: String, field: String) { expectRefused(json, naming: field) }
}
