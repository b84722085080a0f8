import Foundation
import WidgetQuotaModel
import WidgetQuotaSwiftSource

/// `bgtask-setup`: the app's background tasks are permitted, registered tasks are submitted, and
/// `UIBackgroundModes` allows them.
///
/// The ids given to `register(forTaskWithIdentifier:using:launchHandler:)`,
/// `BGAppRefreshTaskRequest(identifier:)` and `BGProcessingTaskRequest(identifier:)` (string
/// literals, or `let` constants holding one: in the same file, else the only one of that name in
/// the tree) are checked against the app's `Info.plist`:
/// - an id missing from `BGTaskSchedulerPermittedIdentifiers` is a finding at the call (an entry
///   with a build variable, `$(PRODUCT_BUNDLE_IDENTIFIER).refresh`, matches any text there);
/// - a registered id no request is made for is a finding at the `register` call (checked only
///   when every request's id could be read);
/// - `UIBackgroundModes` without `fetch` while an app-refresh request is made (without
///   `processing` while a processing request is) is a finding at the key's line in `Info.plist`,
///   or at the file without a line when the key is missing.
///
/// Not seen: ids built at run time, and a tree without the app's `Info.plist` (a few files linted
/// on their own) is not checked.
package struct BackgroundTaskSetupRule: LintRule {
    package static let description = LintRuleDescription(
        .backgroundTaskSetup, title: "Background task identifiers permitted, registered and submitted", severity: .error,
        rationale:
            "A task identifier missing from BGTaskSchedulerPermittedIdentifiers, or never submitted, means the background refresh never runs."
    )
    package init() {}

    struct Use {
        var file: String
        var location: SourceLocation
        /// The id, nil when it could not be read.
        var id: String?
        /// `register`, `BGAppRefreshTaskRequest` or `BGProcessingTaskRequest`.
        var kind: String
    }

    package func check(_ source: LintSource) -> [Finding] {
        let tree = source.tree
        guard let app = tree.app, let infoPath = app.infoPlistPath, let info = app.infoPlist else { return [] }
        var registers = [Use]()
        var requests = [Use]()
        for file in tree.swiftFiles {
            let index = file.index
            for call in index.calls {
                guard let argument = call.arguments.first, let label = argument.label,
                    label == "forTaskWithIdentifier" || label == "identifier"
                else { continue }
                let name = call.name
                let isRegister = name == "register" && label == "forTaskWithIdentifier"
                let isRequest = (name == "BGAppRefreshTaskRequest" || name == "BGProcessingTaskRequest") && label == "identifier"
                guard isRegister || isRequest, !BGTaskCompletionHandlers.isForwarding(call, index) else { continue }
                let id = index.appGroupRuleString(argument.tokens, tree: tree)
                let at = argument.tokens.isEmpty ? call.location : index.tokens[argument.tokens.lowerBound].location
                let use = Use(file: file.path, location: at, id: id, kind: isRegister ? "register" : String(name))
                if isRegister { registers.append(use) } else { requests.append(use) }
            }
        }
        guard !registers.isEmpty || !requests.isEmpty else { return [] }
        var findings = [Finding]()
        // A Tuist manifest that writes a key into the generated Info.plist: the file on disk is
        // not the app's, and the key is not checked.
        let manifestKeys = tree.swiftFiles.filter { AppSourceTree.isProjectManifest($0.path, $0.index) }.reduce(into: Set<String>()) {
            $0.formUnion($1.index.strings.map(\.value))
        }
        let permittedValue = info["BGTaskSchedulerPermittedIdentifiers"]
        let permitted = permittedValue?.strings ?? []
        for use in registers + requests where !manifestKeys.contains("BGTaskSchedulerPermittedIdentifiers") {
            guard let id = use.id, !Self.isPermitted(id, by: permitted) else { continue }
            let verb = use.kind == "register" ? "registered" : "requested with `\(use.kind)`"
            let list =
                permittedValue == nil
                ? "`\(infoPath)` has no `BGTaskSchedulerPermittedIdentifiers`"
                : "`BGTaskSchedulerPermittedIdentifiers` in `\(infoPath)` lists \(permitted.isEmpty ? "nothing" : "`" + permitted.joined(separator: "`, `") + "`")"
            findings.append(
                finding(
                    use.file, use.location, "the background task `\(id)` is \(verb) but \(list): iOS refuses it",
                    fix: "add `\(id)` to `BGTaskSchedulerPermittedIdentifiers` in `\(infoPath)`, or use a permitted id"))
        }
        if requests.allSatisfy({ $0.id != nil }) {
            let submitted = Set(requests.compactMap(\.id))
            for use in registers {
                guard let id = use.id, !submitted.contains(id) else { continue }
                findings.append(
                    finding(
                        use.file, use.location, "the background task `\(id)` is registered but never submitted: it never runs",
                        fix: "submit a `BGAppRefreshTaskRequest(identifier: \"\(id)\")` (or remove the registration)"))
            }
        }
        let modes = info["UIBackgroundModes"]?.strings ?? []
        for (kind, mode) in [("BGAppRefreshTaskRequest", "fetch"), ("BGProcessingTaskRequest", "processing")]
        where requests.contains(where: { $0.kind == kind }) && !modes.contains(mode) && !manifestKeys.contains("UIBackgroundModes") {
            let location = tree.appGroupRuleLocation(of: "UIBackgroundModes", in: infoPath)
            let now =
                modes.isEmpty
                ? "the app's Info.plist has no `UIBackgroundModes`" : "`UIBackgroundModes` holds only `\(modes.joined(separator: "`, `"))`"
            findings.append(
                finding(
                    infoPath, location,
                    "the app submits a `\(kind)` but \(now): without `\(mode)` the task never runs",
                    fix: "add `\(mode)` to `UIBackgroundModes` (the Background Modes capability)"))
        }
        return findings
    }

    /// True when `id` is one of `permitted`, an entry's `$(VARIABLE)` parts matching any text.
    package static func isPermitted(_ id: String, by permitted: [String]) -> Bool {
        permitted.contains { entry in
            guard entry.contains("$(") || entry.contains("${") else { return entry == id }
            // Split the entry at its variables; the literal parts must appear in order.
            var parts = [String]()
            var current = ""
            var inVariable = false
            var chars = Array(entry)
            chars.append(" ")
            var k = 0
            while k < chars.count - 1 {
                let c = chars[k]
                if !inVariable && c == "$" && (chars[k + 1] == "(" || chars[k + 1] == "{") {
                    parts.append(current)
                    current = ""
                    inVariable = true
                    k += 2
                    continue
                }
                if inVariable {
                    if c == ")" || c == "}" { inVariable = false }
                } else {
                    current.append(c)
                }
                k += 1
            }
            parts.append(current)
            guard let first = parts.first, let last = parts.last, id.hasPrefix(first), id.hasSuffix(last) else { return false }
            var rest = Substring(id.dropFirst(first.count))
            for part in parts.dropFirst().dropLast() where !part.isEmpty {
                guard let r = rest.range(of: part) else { return false }
                rest = rest[r.upperBound...]
            }
            return rest.count >= last.count
        }
    }

    package var examples: [LintRuleExample] {
        [
            LintRuleExample(
                "an id missing from the permitted list, a task never submitted, no fetch mode",
                files: [
                    "App/Info.plist": """
                    <?xml version="1.0" encoding="UTF-8"?>
                    <plist version="1.0">
                    <dict>
                        <key>BGTaskSchedulerPermittedIdentifiers</key>
                        <array>
                            <string>com.example.refresh</string>
                            <string>com.example.cleanup</string>
                        </array>
                        ↓<key>UIBackgroundModes</key>
                        <array>
                            <string>remote-notification</string>
                        </array>
                    </dict>
                    </plist>
                    """,
                    "App/App.swift": """
                    import BackgroundTasks
                    struct Tasks {
                        static func register() {
                            BGTaskScheduler.shared.register(forTaskWithIdentifier: ↓"com.example.fetch", using: nil) { _ in }
                            BGTaskScheduler.shared.register(forTaskWithIdentifier: ↓"com.example.cleanup", using: nil) { _ in }
                        }
                        static func schedule() {
                            try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: ↓"com.example.fetch"))
                        }
                    }
                    """,
                ]),
            LintRuleExample(
                "a processing task through a constant, no permitted list and no background modes",
                files: [
                    "App/Info.plist": """
                    <?xml version="1.0" encoding="UTF-8"?>
                    <plist version="1.0">
                    <dict>
                        <key>CFBundleDisplayName</key>
                        <string>Example</string>
                    </dict>
                    </plist>
                    """,
                    "App/App.swift": """
                    import BackgroundTasks
                    enum Cleanup {
                        static let id = "com.example.cleanup"
                        static func register() {
                            BGTaskScheduler.shared.register(forTaskWithIdentifier: ↓Cleanup.id, using: nil) { _ in }
                            try? BGTaskScheduler.shared.submit(BGProcessingTaskRequest(identifier: ↓id))
                        }
                    }
                    """,
                ],
                unlocated: ["App/Info.plist"]),
            LintRuleExample(
                "a permitted id (one through a build variable), registered and submitted, with fetch",
                files: [
                    "App/Info.plist": Self.info(
                        permitted: ["com.example.refresh", "$(PRODUCT_BUNDLE_IDENTIFIER).sync"], modes: ["fetch", "processing"]),
                    "App/App.swift": """
                    import BackgroundTasks
                    enum Refresh {
                        static let identifier = "com.example.refresh"
                        static func register() {
                            // register(forTaskWithIdentifier: "com.example.other") in a comment is not a call
                            BGTaskScheduler.shared.register(forTaskWithIdentifier: identifier, using: nil) { _ in }
                            BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.app.sync", using: nil) { _ in }
                        }
                        static func schedule() {
                            try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: Refresh.identifier))
                            try? BGTaskScheduler.shared.submit(BGProcessingTaskRequest(identifier: "com.example.app.sync"))
                        }
                    }
                    """,
                ]),
            LintRuleExample(
                "an id built at run time is not checked, and no Info.plist means nothing to check against",
                files: [
                    "App/App.swift": """
                    import BackgroundTasks
                    struct Tasks {
                        static func register() {
                            BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.orphan", using: nil) { _ in }
                            try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: Bundle.main.bundleIdentifier! + ".refresh"))
                        }
                    }
                    """
                ]),
        ]
    }

    static func info(permitted: [String], modes: [String]) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0">
        <dict>
            <key>BGTaskSchedulerPermittedIdentifiers</key>
            <array>
        \(permitted.map { "        <string>\($0)</string>" }.joined(separator: "\n"))
            </array>
            <key>UIBackgroundModes</key>
            <array>
        \(modes.map { "        <string>\($0)</string>" }.joined(separator: "\n"))
            </array>
        </dict>
        </plist>
        """
    }
}

extension BackgroundTaskSetupRule {
    /// Something to check: a background task registered or requested.
    package func hasSomethingToCheck(_ source: LintSource) -> Bool { BGTaskCompletionHandlers.anyTask(in: source.tree) }
}
