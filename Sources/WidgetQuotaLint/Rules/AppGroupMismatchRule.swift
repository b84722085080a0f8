import Foundation
import WidgetQuotaModel
import WidgetQuotaSwiftSource

/// `app-group-mismatch`: the widget extension shares an App Group with the app, and the code names
/// only App Groups its target holds.
///
/// - Every App Group id of the extension's entitlements is among the app's (reported at the
///   extension's entitlements line that holds the id). The app may hold more groups (for other
///   extensions): an app-only id is reported only when the extension has no App Group at all.
/// - An App Group on one side and none on the other (no entitlements file, or no
///   `com.apple.security.application-groups`) is reported at the first id of the side that has them.
/// - Every suite name given to `UserDefaults(suiteName:)` or
///   `containerURL(forSecurityApplicationGroupIdentifier:)` as a string literal, or as a `let`
///   constant holding one (in the same file, else the only such constant of the tree), is an App
///   Group of each target that builds the file (reported at the call).
///
/// A suite name that does not start with `group.` is the app's own defaults domain, not an App
/// Group. An id written with a build setting (`$(GROUP_ID_PREFIX).bookmarks`) matches any id it
/// could expand to: build settings are not evaluated.
///
/// Not seen: names built at run time (`"group." + bundleID`), and a tree without any
/// entitlements file (a few files linted on their own) is not checked.
package struct AppGroupMismatchRule: LintRule {
    package static let description = LintRuleDescription(
        .appGroupMismatch, title: "App Group identifiers match between app and widget", severity: .error,
        rationale: "A widget that reads another App Group than the app writes finds no cache and shows nothing, or calls the API itself.")
    package init() {}

    static let entitlementKey = "com.apple.security.application-groups"

    package func check(_ source: LintSource) -> [Finding] {
        let tree = source.tree
        var findings = [Finding]()
        let app = tree.app
        let widget = tree.widgetExtension
        let appGroups = app?.appGroups ?? []
        let widgetGroups = widget?.appGroups ?? []
        if let app, let widget {
            findings += entitlementFindings(tree, app: app, widget: widget, appGroups: appGroups, widgetGroups: widgetGroups)
        }
        guard tree.targets.contains(where: { $0.entitlementsPath != nil }) else { return findings }
        for file in tree.swiftFiles {
            let index = file.index
            for call in index.calls where isSuiteCall(call) {
                guard let argument = call.arguments.first, let name = index.appGroupRuleString(argument.tokens, tree: tree) else {
                    continue
                }
                // A suite that is not an App Group id (`UserDefaults(suiteName: "Tests")`) is
                // the app's own defaults domain.
                guard name.hasPrefix("group.") else { continue }
                let owners = owningTargets(of: file, in: tree)
                let missing = owners.filter { !Self.holds($0.appGroups, name) }
                guard !missing.isEmpty else { continue }
                let what = missing.map { "\($0.role == .widgetExtension ? "the extension" : "the app") (\(describe($0)))" }
                    .joined(separator: " and ")
                findings.append(
                    finding(
                        file.path, call.location,
                        "`\(call.name)` names the App Group `\(name)`, which is not in the entitlements of \(what)",
                        fix: "use an App Group id both targets' entitlements hold, or add `\(name)` to them"))
            }
        }
        return findings
    }

    func entitlementFindings(
        _ tree: AppSourceTree, app: AppSourceTarget, widget: AppSourceTarget, appGroups: [String], widgetGroups: [String]
    ) -> [Finding] {
        var findings = [Finding]()
        if appGroups.isEmpty && widgetGroups.isEmpty { return [] }
        if widgetGroups.isEmpty, let first = appGroups.first {
            let file = app.entitlementsPath ?? app.infoPlistPath ?? ""
            let location = tree.appGroupRuleLocation(of: first, in: file)
            findings.append(
                finding(
                    file, location,
                    "the app has the App Group `\(first)` but the widget extension has \(noGroups(widget)): it cannot read the app's cache",
                    fix: "give the widget extension the App Groups capability with `\(first)`"))
            return findings
        }
        if appGroups.isEmpty, let first = widgetGroups.first {
            let file = widget.entitlementsPath ?? ""
            let location = tree.appGroupRuleLocation(of: first, in: file)
            findings.append(
                finding(
                    file, location,
                    "the widget extension has the App Group `\(first)` but the app has \(noGroups(app)): nothing fills the widget's cache",
                    fix: "give the app the App Groups capability with `\(first)`"))
            return findings
        }
        for id in widgetGroups where !Self.holds(appGroups, id) {
            let file = widget.entitlementsPath ?? ""
            let location = tree.appGroupRuleLocation(of: id, in: file)
            let nearest = appGroups.min { Self.distance($0, id) < Self.distance($1, id) } ?? ""
            findings.append(
                finding(
                    file, location,
                    "the extension's App Group `\(id)` is not among the app's (`\(appGroups.joined(separator: "`, `"))`)",
                    fix: "use the app's App Group id (`\(nearest)`) in both entitlements files"))
        }
        return findings
    }

    func noGroups(_ target: AppSourceTarget) -> String {
        target.entitlementsPath == nil ? "no entitlements file" : "no `\(Self.entitlementKey)` in `\(target.entitlementsPath ?? "")`"
    }

    func describe(_ target: AppSourceTarget) -> String {
        target.appGroups.isEmpty ? "none" : "`" + target.appGroups.joined(separator: "`, `") + "`"
    }

    func isSuiteCall(_ call: SwiftCall) -> Bool {
        guard let label = call.arguments.first?.label, label == "suiteName" || label == "forSecurityApplicationGroupIdentifier" else {
            return false
        }
        let name = call.name
        return (name == "UserDefaults" && label == "suiteName")
            || (name == "containerURL" && label == "forSecurityApplicationGroupIdentifier")
    }

    /// The app and extension targets that build `file`: its project targets, else its role's target.
    func owningTargets(of file: AppSwiftFile, in tree: AppSourceTree) -> [AppSourceTarget] {
        if !file.targets.isEmpty {
            return tree.targets.filter { file.targets.contains($0.name) && $0.role != .unknown }
        }
        switch file.role {
        case .app: return tree.app.map { [$0] } ?? []
        case .widgetExtension: return tree.widgetExtension.map { [$0] } ?? []
        case .unknown: return []
        }
    }

    /// True when `groups` holds `id`: the same text, or a match where a build setting written in
    /// either (`$(GROUP_ID_PREFIX).bookmarks`, `group.$(PRODUCT_BUNDLE_IDENTIFIER)`) stands for
    /// any text. Build settings are not evaluated (they live in the project and `.xcconfig`
    /// files, per configuration), so an id written with one is never called missing.
    static func holds(_ groups: [String], _ id: String) -> Bool {
        groups.contains { $0 == id || matches(pattern: $0, id) || matches(pattern: id, $0) }
    }

    /// `text` against `pattern`, where each `$(…)` or `${…}` of the pattern matches one or more characters.
    static func matches(pattern: String, _ text: String) -> Bool {
        guard pattern.contains("$(") || pattern.contains("${") else { return false }
        // Literal pieces between the build settings, in order.
        var pieces = [String]()
        var current = ""
        var k = pattern.startIndex
        while k < pattern.endIndex {
            let c = pattern[k]
            let next = pattern.index(after: k)
            if c == "$", next < pattern.endIndex, pattern[next] == "(" || pattern[next] == "{" {
                let close: Character = pattern[next] == "(" ? ")" : "}"
                pieces.append(current)
                current = ""
                k = pattern[next...].firstIndex(of: close).map { pattern.index(after: $0) } ?? pattern.endIndex
                continue
            }
            current.append(c)
            k = next
        }
        pieces.append(current)
        guard let first = pieces.first, let last = pieces.last, text.hasPrefix(first), text.hasSuffix(last),
            text.count >= first.count + last.count + 1
        else { return false }
        var rest = text.dropFirst(first.count).dropLast(last.count)
        for piece in pieces.dropFirst().dropLast() where !piece.isEmpty {
            guard let r = rest.range(of: piece) else { return false }
            rest = rest[r.upperBound...]
        }
        return true
    }

    /// Edit distance, to suggest the app's id nearest a misspelt one.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a.utf8)
        let b = Array(b.utf8)
        var row = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var previous = row[0]
            row[0] = i
            for j in stride(from: 1, through: b.count, by: 1) {
                let current = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
                previous = current
            }
        }
        return row[b.count]
    }

    package var examples: [LintRuleExample] {
        [
            LintRuleExample(
                "ids written with a build setting match what they expand to; a suite that is no App Group is the app's own",
                files: [
                    "App/Info.plist": "<plist version=\"1.0\"><dict/></plist>",
                    "App/App.entitlements": Self.entitlements(["$(GROUP_ID_PREFIX).bookmarks"]),
                    "App/Store.swift": """
                    import Foundation
                    struct Store {
                        let shared = UserDefaults(suiteName: "group.com.example.bookmarks")
                        let tests = UserDefaults(suiteName: "NetworkProtectionFeatureVisibilityTests")
                    }
                    """,
                    "Widget/Info.plist": Self.widgetInfo,
                    "Widget/Widget.entitlements": Self.entitlements(["group.com.example.bookmarks"]),
                    "Widget/Provider.swift": """
                    import WidgetKit
                    struct Provider: TimelineProvider {
                        let defaults = UserDefaults(suiteName: "group.com.example.bookmarks")
                    }
                    """,
                ]),
            LintRuleExample(
                "the extension's group differs from the app's, and a suite name is in neither",
                files: [
                    "App/App.entitlements": Self.entitlements(["group.com.example.news"]),
                    "App/Cache.swift": """
                    import Foundation
                    struct Cache {
                        let defaults = ↓UserDefaults(suiteName: "group.com.example.news.shared")
                    }
                    """,
                    "Widget/Info.plist": Self.widgetInfo,
                    "Widget/Widget.entitlements": Self.entitlements(["↓group.com.example.newsapp"]),
                    "Widget/Store.swift": """
                    import Foundation
                    struct Store {
                        // UserDefaults(suiteName: "group.typo") in a comment is not a call
                        let url = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: "group.com.example.newsapp")
                    }
                    """,
                ]),
            LintRuleExample(
                "a constant suite name the extension lacks, and an extension without App Groups",
                files: [
                    "App/App.entitlements": Self.entitlements(["↓group.com.example.quote"]),
                    "Widget/Info.plist": Self.widgetInfo,
                    "Widget/Store.swift": """
                    import Foundation
                    enum Store {
                        static let suite = "group.com.example.quote"
                        static let defaults = ↓UserDefaults(suiteName: Store.suite)
                    }
                    """,
                ]),
            LintRuleExample(
                "both targets hold the group every suite name uses; the app holds one more",
                files: [
                    "App/App.entitlements": Self.entitlements(["group.com.example.quote", "group.com.example.share"]),
                    "App/Cache.swift": """
                    import Foundation
                    struct Cache {
                        static let suiteName = "group.com.example.quote"
                        let defaults = UserDefaults(suiteName: Cache.suiteName)
                        let shared = UserDefaults(suiteName: "group.com.example.share")
                        let text = "UserDefaults(suiteName: \\"group.elsewhere\\")"
                    }
                    """,
                    "Widget/Info.plist": Self.widgetInfo,
                    "Widget/Widget.entitlements": Self.entitlements(["group.com.example.quote"]),
                    "Widget/Store.swift": """
                    import Foundation
                    struct Store {
                        let defaults = UserDefaults(suiteName: "group.com.example.quote")
                    }
                    """,
                ]),
            LintRuleExample(
                "a tree without entitlements files and a suite name built at run time is not checked",
                files: [
                    "App/Cache.swift": """
                    import Foundation
                    struct Cache {
                        let defaults = UserDefaults(suiteName: "group." + (Bundle.main.bundleIdentifier ?? ""))
                        let local = UserDefaults(suiteName: "group.com.example.local")
                    }
                    """
                ]),
        ]
    }

    static let widgetInfo = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0">
        <dict>
            <key>NSExtension</key>
            <dict>
                <key>NSExtensionPointIdentifier</key>
                <string>com.apple.widgetkit-extension</string>
            </dict>
        </dict>
        </plist>
        """

    /// An entitlements file with these App Groups; a group written `↓id` marks its line as where a
    /// finding must be.
    static func entitlements(_ groups: [String]) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
            <key>com.apple.security.application-groups</key>
            <array>
        \(groups.map { $0.hasPrefix("↓") ? "        ↓<string>\($0.dropFirst())</string>" : "        <string>\($0)</string>" }.joined(separator: "\n"))
            </array>
        </dict>
        </plist>
        """
    }
}

extension AppSourceTree {
    /// Where the first `<string>` or `<key>` element whose text is `value` starts in the property
    /// list at `path` (1-based line, UTF-8 column); nil when the file was not read or holds no such
    /// element.
    func appGroupRuleLocation(of value: String, in path: String) -> SourceLocation? {
        guard let text = propertyListTexts[path] else { return nil }
        let escaped = value.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        var line = 1
        for row in text.split(separator: "\n", omittingEmptySubsequences: false) {
            for element in ["<string>\(escaped)</string>", "<key>\(escaped)</key>"] {
                if let r = row.range(of: element) {
                    return SourceLocation(line: line, column: row.utf8.distance(from: row.startIndex, to: r.lowerBound) + 1)
                }
            }
            line += 1
        }
        return nil
    }
}

extension SwiftFileIndex {
    /// The string an expression names: one string literal without interpolation, or a `let`
    /// constant (`name`, `Type.name`) holding one, in this file or else the only one of that name
    /// with a single value in `tree`; nil for anything else.
    func appGroupRuleString(_ range: Range<Int>, tree: AppSourceTree?) -> String? {
        guard !range.isEmpty, range.upperBound <= tokens.count else { return nil }
        let slice = Array(tokens[range])
        if slice.count == 1, slice[0].kind == .string, slice[0].interpolations == 0 { return slice[0].value }
        // `name` or `Type.name` / `Self.name` / `self.name`.
        let names = slice.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
        let dots = slice.enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
        guard slice.count % 2 == 1, names.allSatisfy({ $0.kind == .identifier || $0.kind == .keyword }), dots.allSatisfy({ $0.is(".") }),
            let last = names.last, last.kind == .identifier
        else { return nil }
        if let value = appGroupRuleConstantString(last.text) { return value }
        guard let tree else { return nil }
        let values = Set(tree.swiftFiles.compactMap { $0.index.appGroupRuleConstantString(last.text) })
        return values.count == 1 ? values.first : nil
    }

    /// The value of the `let` constant `name` of this file when it is one plain string literal.
    func appGroupRuleConstantString(_ name: String) -> String? {
        guard let c = constant(named: name), c.value.count == 1, c.value.upperBound <= tokens.count else { return nil }
        let t = tokens[c.value.lowerBound]
        return t.kind == .string && t.interpolations == 0 ? t.value : nil
    }
}

extension AppGroupMismatchRule {
    /// Something to check: an entitlements file, or a suite or container named in code.
    package func hasSomethingToCheck(_ source: LintSource) -> Bool {
        source.tree.targets.contains { $0.entitlementsPath != nil }
            || source.tree.swiftFiles.contains { file in file.index.calls.contains(where: isSuiteCall) }
    }
}
