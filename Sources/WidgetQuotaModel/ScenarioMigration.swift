import Foundation

/// A named change of the scenario's shape between releases, which `widget-quota scenario
/// --migrate` applies to a scenario written for an earlier release. Loading never applies one on
/// its own: a key a migration removes is refused with the way forward (see
/// `ScenarioLoader.replacedKeys`), since its old value meant something else.
package struct ScenarioMigration: Sendable, Equatable {
    /// A short name for notes and comments ("getTimeline-from-causes").
    package var name: String
    /// The release whose scenarios no longer hold the keys.
    package var release: String
    /// Dotted paths of the keys the migration removes.
    package var removedKeys: [String]
    /// What the removed keys meant, what replaces them, and what the migrated scenario uses.
    package var explanation: String

    /// Every migration, oldest first.
    package static let all: [ScenarioMigration] = [
        ScenarioMigration(
            name: "getTimeline-from-causes", release: "0.2.0",
            removedKeys: ["platform.getTimelinePerDay", "population.smartStackUplift"],
            explanation:
                "getTimeline calls now come from their causes (the reload policy, the app's reload calls, Smart Stack "
                + "rotation and WidgetKit's own reloads) instead of one rate for every design; the removed values do "
                + "not carry over, and the migrated scenario takes the defaults of platform.systemReloadsPerDay and "
                + "population.smartStackReloadsPerDay (calibrate them again with `widget-quota analyze LOGS --design D "
                + "--emit-scenario FILE`)")
    ]

    /// One migration applied to one scenario: the values it removed, as the file wrote them.
    package struct Applied: Sendable, Equatable {
        package var migration: ScenarioMigration
        /// `path = value` for each removed key.
        package var removed: [String]

        /// "getTimeline-from-causes (since 0.2.0): removed platform.getTimelinePerDay = 28.5. getTimeline …".
        package var sentence: String {
            "\(migration.name) (since \(migration.release)): removed \(removed.joined(separator: ", ")). "
                + migration.explanation + "."
        }
    }

    /// Removes this migration's keys from a parsed scenario tree; nil when it holds none of them.
    func apply(to tree: inout [String: Any]) -> Applied? {
        var removed: [String] = []
        for path in removedKeys {
            let parts = path.split(separator: ".").map(String.init)
            guard parts.count == 2, var section = tree[parts[0]] as? [String: Any], let value = section[parts[1]] else { continue }
            section[parts[1]] = nil
            tree[parts[0]] = section
            removed.append("\(path) = \(Self.text(value))")
        }
        return removed.isEmpty ? nil : Applied(migration: self, removed: removed)
    }

    /// A removed value in JSON, on one line.
    private static func text(_ value: Any) -> String {
        guard JSONSerialization.isValidJSONObject([value]),
            let data = try? JSONSerialization.data(withJSONObject: [value], options: [.sortedKeys, .fragmentsAllowed]),
            let array = String(data: data, encoding: .utf8)
        else { return "\(value)" }
        return String(array.dropFirst().dropLast())
    }
}
