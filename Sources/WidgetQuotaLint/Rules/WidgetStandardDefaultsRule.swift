import Foundation
import WidgetQuotaModel
import WidgetQuotaSwiftSource

/// `widget-standard-defaults`: the widget reads the app's data where it can see it.
///
/// A key the app writes to its own defaults (`UserDefaults.standard.set(_:forKey:)`, or an
/// `@AppStorage("key")` without a `store:`, in a file built only into the app) that a file built
/// only into the widget extension reads from its own (`UserDefaults.standard.string(forKey:)` and
/// the other getters, or an `@AppStorage("key")` without a `store:`) is a finding at the read: the
/// extension has defaults of its own, and the read finds nothing. Keys are compared as written: a
/// string literal's value, or a constant's name (`Keys.quote`).
///
/// A key the extension writes to its own defaults too is its own; `@AppStorage` is not read in
/// a tree that sets `.defaultAppStorage(…)`.
///
/// Not seen: a `UserDefaults.standard` held in a variable first, keys built at run time.
package struct WidgetStandardDefaultsRule: LintRule {
    package static let description = LintRuleDescription(
        .widgetStandardDefaults, title: "The widget reads the app's data from the App Group", severity: .error,
        rationale:
            "A widget extension has its own standard defaults: a key the app writes to UserDefaults.standard is never there, and the widget shows nothing."
    )
    package init() {}

    /// `UserDefaults` getters that take `forKey:`.
    static let getters: Set<String> = [
        "string", "object", "data", "bool", "integer", "double", "float", "array", "dictionary", "stringArray", "url", "value",
    ]

    package func check(_ source: LintSource) -> [Finding] {
        let tree = source.tree
        var written = Set<String>()
        for file in tree.swiftFiles where file.role == .app && file.targets.count <= 1 {
            for call in file.index.calls where call.callee == "UserDefaults.standard.set" {
                if let key = call.arguments.first(where: { $0.label == "forKey" }) { written.insert(Self.key(file.index, key.tokens)) }
            }
            for storage in Self.appStorages(file.index)
            where !storage.hasStore && !file.index.calls.contains(where: { $0.name == "defaultAppStorage" }) {
                written.insert(storage.key)
            }
        }
        written.remove("")
        // Keys the extension writes to its own defaults are its own (a `lastRefresh` both keep).
        for file in tree.swiftFiles where file.role == .widgetExtension {
            for call in file.index.calls where call.callee == "UserDefaults.standard.set" {
                if let key = call.arguments.first(where: { $0.label == "forKey" }) { written.remove(Self.key(file.index, key.tokens)) }
            }
        }
        // `.defaultAppStorage(…)` gives store-less `@AppStorage` another store: not read then.
        let storageMoved = tree.swiftFiles.contains { file in file.index.calls.contains { $0.name == "defaultAppStorage" } }
        guard !written.isEmpty else { return [] }
        var findings = [Finding]()
        for file in tree.swiftFiles where file.role == .widgetExtension && file.targets.count <= 1 {
            let index = file.index
            for call in index.calls where call.callee.hasPrefix("UserDefaults.standard.") && Self.getters.contains(String(call.name)) {
                guard let argument = call.arguments.first(where: { $0.label == "forKey" }) else { continue }
                let key = Self.key(index, argument.tokens)
                guard written.contains(key) else { continue }
                findings.append(read(file.path, call.location, "`UserDefaults.standard.\(call.name)(forKey: \(key))`", key))
            }
            for storage in Self.appStorages(index) where !storage.hasStore && !storageMoved && written.contains(storage.key) {
                findings.append(read(file.path, storage.location, "`@AppStorage(\(storage.key))` without a `store:`", storage.key))
            }
        }
        return findings
    }

    func read(_ path: String, _ location: SourceLocation, _ what: String, _ key: String) -> Finding {
        finding(
            path, location,
            "\(what) in the widget extension reads its own defaults, but the app writes \(key) to the app's: the widget never sees it",
            fix: "Write and read the key in the App Group: `UserDefaults(suiteName: \"group.…\")`, or `@AppStorage(…, store: …)`")
    }

    /// A key as written: a string literal's value, else the expression's text.
    static func key(_ index: SwiftFileIndex, _ range: Range<Int>) -> String {
        let strings = index.stringValues(range)
        return strings.count == 1 && range.count <= 3 ? "\"\(strings[0])\"" : index.text(range).filter { !$0.isWhitespace }
    }

    /// `@AppStorage(key)` and `@AppStorage(key, store: …)` attributes of a file.
    static func appStorages(_ index: SwiftFileIndex) -> [(key: String, hasStore: Bool, location: SourceLocation)] {
        let t = index.tokens
        var out = [(key: String, hasStore: Bool, location: SourceLocation)]()
        var k = 0
        while k + 3 < t.count {
            defer { k += 1 }
            guard t[k].is("@"), t[k + 1].text == "AppStorage", t[k + 2].is("(") else { continue }
            var depth = 0
            var j = k + 2
            var firstEnd: Int?
            var hasStore = false
            while j < t.count {
                if t[j].is("(") || t[j].is("[") { depth += 1 }
                if t[j].is(")") || t[j].is("]") { depth -= 1 }
                if depth == 1 && t[j].is(",") && firstEnd == nil { firstEnd = j }
                if depth == 1 && t[j].text == "store" && j + 1 < t.count && t[j + 1].is(":") { hasStore = true }
                if depth == 0 { break }
                j += 1
            }
            out.append((key(index, (k + 3)..<(firstEnd ?? j)), hasStore, t[k].location))
        }
        return out
    }

    package var examples: [LintRuleExample] {
        [
            LintRuleExample(
                "the app writes the quote to its standard defaults; the widget reads them, and an @AppStorage of the same key",
                files: [
                    "Widget/Info.plist": AppGroupMismatchRule.widgetInfo,
                    "App/Sync.swift": """
                    import Foundation
                    enum Keys { static let quote = "quote" }
                    func save(_ text: String) {
                        UserDefaults.standard.set(text, forKey: Keys.quote)
                        UserDefaults.standard.set(Date(), forKey: "savedAt")
                        UserDefaults(suiteName: "group.quotes")?.set(text, forKey: "shared")
                    }
                    """,
                    "Widget/Provider.swift": """
                    import WidgetKit
                    import SwiftUI
                    struct Provider: TimelineProvider {
                        func getTimeline(in context: Context, completion: @escaping (Timeline<Entry>) -> Void) {
                            let text = UserDefaults.standard.↓string(forKey: Keys.quote) ?? ""
                            let shared = UserDefaults(suiteName: "group.quotes")?.string(forKey: "shared") ?? ""
                            let mine = UserDefaults.standard.bool(forKey: "widgetSeen")
                            completion(Timeline(entries: [Entry(date: .now, text: text + shared, seen: mine)], policy: .never))
                        }
                    }
                    struct SavedView: View {
                        ↓@AppStorage("savedAt") var savedAt: Double = 0
                        @AppStorage("shared", store: UserDefaults(suiteName: "group.quotes")) var shared = ""
                        var body: some View { Text("\\(savedAt)") }
                    }
                    """,
                ]),
            LintRuleExample(
                "the app and the widget share the App Group",
                files: [
                    "Widget/Info.plist": AppGroupMismatchRule.widgetInfo,
                    "App/Sync.swift": """
                    import Foundation
                    func save(_ text: String) { UserDefaults(suiteName: "group.quotes")?.set(text, forKey: "quote") }
                    """,
                    "Widget/Provider.swift": """
                    import Foundation
                    func read() -> String { UserDefaults(suiteName: "group.quotes")?.string(forKey: "quote") ?? "" }
                    """,
                ]),
        ]
    }
}
