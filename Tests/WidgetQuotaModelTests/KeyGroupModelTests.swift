import Foundation
import Testing
import WidgetQuotaModel
import WidgetQuotaSupport

/// Key groups (`content.groups`): stocks in New York's session beside crypto at every hour.
@Suite("key groups") struct KeyGroupModelTests {
    @Test(
        "The groups interleave through the popularity ranks: every run of keys from the top holds each group's share, to a key",
        arguments: [[2_700, 300], [1, 99], [50, 30, 20], [1, 1, 1, 1]])
    func interleaved(sizes: [Int]) {
        var content = SharedContent()
        content.keys = sizes.reduce(0, +)
        content.groups = sizes.enumerated().map { .init(name: "g\($0.offset)", keys: $0.element) }
        let groups = content.keyGroups
        #expect(groups.count == content.keys)
        var counts = [Int](repeating: 0, count: sizes.count)
        for (rank, g) in groups.enumerated() {
            counts[g] += 1
            for (h, size) in sizes.enumerated() {
                let share = Double(size) * Double(rank + 1) / Double(content.keys)
                #expect(abs(Double(counts[h]) - share) <= 1, "group \(h) holds \(counts[h]) of the top \(rank + 1)")
            }
        }
        #expect(counts == sizes)
    }

    @Test(
        "More or fewer keys keep each group's share of them, at least one each, adding up to the keys",
        arguments: [(6_000, [5_400, 600]), (1_500, [1_350, 150]), (7, [6, 1]), (2, [1, 1])])
    func resized(count: Int, sizes: [Int]) {
        var content = SharedContent()
        content.keys = 3_000
        content.keysPerUser = 5
        content.groups = [.init(name: "stocks", keys: 2_700, hours: OpenHours()), .init(name: "crypto", keys: 300)]
        let resized = content.withKeys(count)
        #expect(resized.keys == count && resized.groups?.map(\.keys) == sizes)
        #expect(resized.groups?.map(\.hours) == [OpenHours(), nil])
        #expect(resized.keysPerUser == min(5, count))
    }

    @Test("Without groups every key is in the first, and the calendar's hours are the only ones")
    func noGroups() {
        var s = Scenario()
        s.content.keys = 10
        s.calendar.hours = OpenHours()
        #expect(s.content.keyGroups == [Int](repeating: 0, count: 10))
        #expect(s.groupHours == [OpenHours()])
        #expect(s.hasOpenHours)
        s.calendar.hours = nil
        #expect(!s.hasOpenHours)
    }

    @Test("A scenario with stocks and crypto reads, each group with its hours or none")
    func decodes() throws {
        let json = #"""
            {"calendar": {"startDate": "2027-03-01"},
             "content": {"keys": 3000, "keysPerUser": 5, "groups": [
                {"name": "stocks", "keys": 2700, "hours": {"timeZone": "America/New_York"}},
                {"name": "crypto", "keys": 300}]},
             "designs": [{"name": "poll", "source": "s", "backend": {"regenerate": "every(1)", "onlyWhenOpen": true}}]}
            """#
        let s = try ScenarioLoader.decode(Data(json.utf8), file: "s.json")
        #expect(s.content.groups?.map(\.name) == ["stocks", "crypto"])
        #expect(s.groupHours == [OpenHours(), nil])
        #expect(s.hasOpenHours)
        #expect(s.groupChangeFactors == [1, 1])
    }

    @Test("Without content.keys, the keys are the groups'; a group's dataChanges multiplies the changes of its keys")
    func keysFromGroups() throws {
        let json = #"""
            {"content": {"groups": [{"name": "stocks", "keys": 2700}, {"name": "crypto", "keys": 300, "dataChanges": 3.7}]}}
            """#
        let s = try ScenarioLoader.decode(Data(json.utf8), file: "s.json")
        #expect(s.content.keys == 3_000)
        #expect(s.groupChangeFactors == [1, 3.7])
    }

    static let groups = #""groups": [{"name": "stocks", "keys": 2, "hours": {}}, {"name": "crypto", "keys": 1}]"#

    @Test(
        "Key groups that do not add up, repeat a name, stand beside calendar.hours or cannot be placed are refused, naming the field",
        arguments: [
            (#"{"calendar": {"startDate": "2027-03-01"}, "content": {"keys": 4, "# + groups + "}}", "content.groups"),
            (#"{"calendar": {"startDate": "2027-03-01", "hours": {}}, "content": {"keys": 3, "# + groups + "}}", "calendar.hours"),
            (#"{"content": {"keys": 3, "# + groups + "}}", "content.groups[0].hours"),
            (
                #"{"calendar": {"startDate": "2027-03-01"}, "content": {"keys": 2, "groups": [{"name": "a", "keys": 1}, {"name": "a", "keys": 1}]}}"#,
                "content.groups[1].name"
            ),
            (
                #"{"calendar": {"startDate": "2027-03-01"}, "content": {"keys": 2, "groups": [{"name": "a", "keys": 2, "hours": {"timeZone": "Wall Street"}}]}}"#,
                "content.groups[0].hours.timeZone"
            ),
            (#"{"content": {"keys": 1, "groups": [{"name": "a", "keys": 0}, {"name": "b", "keys": 1}]}}"#, "content.groups[0].keys"),
            (
                #"{"content": {"keys": 5, "groups": [{"name": "a", "keys": 1}, {"name": "b", "keys": 1}, {"name": "c", "keys": 1}, {"name": "d", "keys": 1}, {"name": "e", "keys": 1}]}}"#,
                "content.groups"
            ),
            (#"{"content": {"keys": 1, "groups": []}}"#, "content.groups"),
            (
                #"{"content": {"groups": [{"name": "a", "keys": 1, "dataChanges": -1}, {"name": "b", "keys": 1}]}}"#,
                "content.groups[0].dataChanges"
            ),
            (
                #"{"calendar": {"dayKinds": [{"name": "match", "weekdays": ["saturday"], "startHourUTC": 15, "hours": 2}]}, "content": {"groups": [{"name": "a", "keys": 1}, {"name": "b", "keys": 1}]}, "designs": [{"name": "la", "source": "s", "backend": {"regenerate": "onChange"}, "liveActivity": {}}]}"#,
                "designs[0].liveActivity"
            ),
            (
                #"{"content": {"keys": 2, "groups": [{"name": "a", "keys": 1}, {"name": "b", "keys": 1}]}, "designs": [{"name": "poll", "source": "s", "policyFollowsHours": true}]}"#,
                "designs[0].policyFollowsHours"
            ),
        ])
    func refused(json: String, field: String) { expectRefused(json, naming: field) }
}
