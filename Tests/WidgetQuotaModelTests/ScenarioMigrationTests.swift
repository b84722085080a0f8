import Foundation
import Testing
import WidgetQuotaModel
import WidgetQuotaSupport

@Suite("scenario migrations") struct ScenarioMigrationTests {
    static func file(_ json: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("migrate-\(UUID().uuidString).json").path
        try Data(json.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test(
        "a scenario of 0.1.0 is refused as it is, and migrates to the same scenario without the replaced keys",
        arguments: [
            #"{"platform": {"getTimelinePerDay": 28.5, "reloadBudgetMin": 30}, "horizon": {"days": 14}}"#,
            #"{"population": {"smartStackUplift": {"distribution": "uniform", "min": 1, "max": 2}}, "horizon": {"days": 14}}"#,
        ])
    func migratesReplacedKeys(json: String) throws {
        let path = try Self.file(json)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: WidgetQuotaError.self) { try ScenarioLoader.load(path: path) }

        let (scenario, applied) = try ScenarioLoader.migrate(path: path)
        #expect(applied.map(\.migration.name) == ["getTimeline-from-causes"])
        #expect(applied[0].removed.count == 1)
        #expect(applied[0].sentence.contains("getTimeline-from-causes (since 0.2.0): removed "))
        // Everything else is read as written: the migrated scenario equals the file without the key.
        var tree = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        for key in ["platform", "population"] {
            var section = tree[key] as? [String: Any]
            section?["getTimelinePerDay"] = nil
            section?["smartStackUplift"] = nil
            tree[key] = section
        }
        let expected = try ScenarioLoader.decode(try JSONSerialization.data(withJSONObject: tree))
        #expect(scenario == expected)
        #expect(scenario.horizon.days == 14)
    }

    @Test("a current scenario migrates to itself with nothing applied; an invalid one is still refused")
    func currentScenario() throws {
        let current = try Self.file(#"{"horizon": {"days": 7}}"#)
        let invalid = try Self.file(#"{"platform": {"getTimelinePerDay": 28.5}, "horizon": {"dayz": 7}}"#)
        defer { for p in [current, invalid] { try? FileManager.default.removeItem(atPath: p) } }
        let (scenario, applied) = try ScenarioLoader.migrate(path: current)
        #expect(applied.isEmpty)
        #expect(scenario == (try ScenarioLoader.load(path: current)))
        #expect(throws: WidgetQuotaError.self) { try ScenarioLoader.migrate(path: invalid) }
    }

    @Test("every key a migration removes is one the loader refuses with the way to migrate")
    func migrationsCoverReplacedKeys() {
        let removed = Set(ScenarioMigration.all.flatMap(\.removedKeys))
        #expect(removed == Set(ScenarioLoader.replacedKeyPaths))
        for key in removed {
            let path = key.split(separator: ".")
            let json = #"{"\#(path[0])": {"\#(path[1])": 1}}"#
            #expect(throws: WidgetQuotaError.self) { try ScenarioLoader.decode(Data(json.utf8)) }
            do { _ = try ScenarioLoader.decode(Data(json.utf8)) } catch {
                #expect("\(error)".contains("scenario --migrate"))
            }
        }
    }
}
