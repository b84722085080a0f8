import Foundation
import WidgetQuotaModel
import WidgetQuotaSwiftSource

/// `reload-misuse`: `reloadAllTimelines()` / `reloadTimelines(ofKind:)` run once, after a
/// successful fetch.
///
/// A reload call is a finding when it is in a `catch` block (after a failed fetch), in a loop
/// (`for`, `while`, `repeat`, out to its function), or in a foreground handler — a closure passed
/// to `onChange(of: scenePhase)`, to `onReceive`/`addObserver` with a `didBecomeActive` or
/// `willEnterForeground` notification, or the body of `sceneDidBecomeActive`,
/// `applicationDidBecomeActive`, `sceneWillEnterForeground`, `applicationWillEnterForeground` —
/// with no request (`CallGraph`) before it in that handler. A second reload
/// call after a request in the same function is a finding too.
///
/// Blind spots: a reload in a function the `catch` or the handler calls, "success" judged by
/// order only (a reload after `try? fetch()` counts as after a fetch).
package struct ReloadMisuseRule: LintRule {
    package static let description = LintRuleDescription(
        .reloadMisuse, title: "Reload timelines once, after a successful fetch", severity: .warning,
        rationale: "Each reload call spends WidgetKit's daily budget; reloading after a failure or repeatedly empties it.")
    package init() {}

    /// Functions that run each time the app comes to the foreground.
    static let foregroundFunctions: Set<String> = [
        "sceneDidBecomeActive", "applicationDidBecomeActive", "sceneWillEnterForeground", "applicationWillEnterForeground",
        "willEnterForeground",
    ]

    package func check(_ source: LintSource) -> [Finding] {
        let tree = source.tree
        let context = source.refresh
        var findings = [Finding]()
        for (f, file) in tree.swiftFiles.enumerated() {
            let index = file.index
            let reloads = index.calls.filter { SourceVocabulary.reloadCalls.contains(String($0.name)) }
            guard !reloads.isEmpty else { continue }
            var reported = Set<Int>()
            for call in reloads {
                let what = "`\(call.name)`"
                if index.isInside(call, .catchBlock) {
                    findings.append(
                        finding(
                            file.path, call.location,
                            "\(what) in a `catch`: the widget reloads after a failed fetch, with nothing new to show",
                            fix: "Reload once, after the fetch succeeded and the cache was written; not in the error path"))
                } else if index.isInLoop(call) {
                    findings.append(
                        finding(
                            file.path, call.location, "\(what) in a loop: every pass spends WidgetKit's daily reload budget",
                            fix: "Call `WidgetCenter.shared.reloadAllTimelines()` once, after the loop"))
                } else if let handler = Self.foregroundHandler(call, index),
                    !context.calls(inFile: f, inside: handler.block).contains(where: {
                        $0.token < call.token && context.isRequest($0, inFile: f)
                    })
                {
                    findings.append(
                        finding(
                            file.path, call.location,
                            "\(what) on every foreground (\(handler.name)) with no fetch before it: a reload per app launch, nothing new",
                            fix: "Reload only after a fetch that wrote new data to the cache"))
                } else {
                    continue
                }
                reported.insert(call.token)
            }
            // More than one reload after a request in one function.
            guard reloads.count > 1 else { continue }
            for function in index.functions {
                guard let body = function.body else { continue }
                let calls = context.calls(inFile: f, inside: body)
                guard let first = calls.first(where: { context.isRequest($0, inFile: f) }) else { continue }
                let after = calls.filter { SourceVocabulary.reloadCalls.contains(String($0.name)) && $0.token > first.token }
                for extra in after.dropFirst() where !reported.contains(extra.token) {
                    reported.insert(extra.token)
                    findings.append(
                        finding(
                            file.path, extra.location,
                            "`\(extra.name)` again after the fetch in `\(function.name)`: one fetch, several reloads",
                            fix: "Reload once per successful fetch (`reloadAllTimelines()` covers every kind)"))
                }
            }
        }
        return findings
    }

    /// The foreground handler around `call`: its block and how it is named in the message.
    static func foregroundHandler(_ call: SwiftCall, _ index: SwiftFileIndex) -> (block: Int, name: String)? {
        var b = call.block
        while let k = b {
            let block = index.blocks[k]
            if block.kind == .function, let f = block.function {
                let name = index.functions[f].name
                return foregroundFunctions.contains(name) ? (k, "`\(name)`") : nil
            }
            if block.kind == .closure, let c = block.call {
                let owner = index.calls[c]
                let text = owner.arguments.map { index.text($0.tokens) }.joined(separator: " ")
                if owner.name == "onChange" && text.contains("scenePhase") { return (k, "`onChange(of: scenePhase)`") }
                if ["onReceive", "addObserver", "publisher"].contains(String(owner.name))
                    && (text.contains("didBecomeActive") || text.contains("willEnterForeground"))
                {
                    return (k, "`\(owner.name)` of a foreground notification")
                }
            }
            b = block.parent
        }
        return nil
    }

    package var examples: [LintRuleExample] {
        [
            LintRuleExample(
                "a reload in a catch and one in a loop",
                files: [
                    "App/Fetcher.swift": """
                    import WidgetKit
                    struct Fetcher {
                        func fetch() async throws {
                            do {
                                _ = try await URLSession.shared.data(from: URL(string: "https://api.example.com")!)
                            } catch {
                                WidgetCenter.shared.↓reloadAllTimelines()
                            }
                            for kind in ["A", "B"] {
                                WidgetCenter.shared.↓reloadTimelines(ofKind: kind)
                            }
                        }
                    }
                    """
                ]),
            LintRuleExample(
                "a reload on every foreground, and two reloads after one fetch",
                files: [
                    "App/App.swift": """
                    import SwiftUI
                    import WidgetKit
                    struct Root: View {
                        @Environment(\\.scenePhase) private var scenePhase
                        var body: some View {
                            Text("Hi").onChange(of: scenePhase) { _, phase in
                                if phase == .active { WidgetCenter.shared.↓reloadAllTimelines() }
                            }
                        }
                        func refresh() async {
                            _ = try? await URLSession.shared.data(from: URL(string: "https://api.example.com")!)
                            WidgetCenter.shared.reloadTimelines(ofKind: "A")
                            WidgetCenter.shared.↓reloadTimelines(ofKind: "B")
                        }
                    }
                    """
                ]),
            LintRuleExample(
                "one reload after a successful fetch, including on foreground after fetching",
                files: [
                    "App/App.swift": """
                    import SwiftUI
                    import WidgetKit
                    struct Root: View {
                        @Environment(\\.scenePhase) private var scenePhase
                        var body: some View {
                            Text("Hi").onChange(of: scenePhase) { _, phase in
                                Task {
                                    _ = try await URLSession.shared.data(from: URL(string: "https://api.example.com")!)
                                    WidgetCenter.shared.reloadAllTimelines()
                                }
                            }
                        }
                    }
                    """
                ]),
            LintRuleExample(
                "reload calls in comments and strings are not calls",
                files: [
                    "App/Fetcher.swift": """
                    import WidgetKit
                    struct Fetcher {
                        func fetch() throws {
                            do {
                                try save()
                            } catch {
                                // WidgetCenter.shared.reloadAllTimelines() would waste the budget here
                                print("not calling reloadAllTimelines() after a failure")
                            }
                        }
                    }
                    """
                ]),
        ]
    }
}

extension ReloadMisuseRule {
    /// Something to check: a call that reloads timelines.
    package func hasSomethingToCheck(_ source: LintSource) -> Bool {
        source.tree.swiftFiles.contains { file in file.index.calls.contains { SourceVocabulary.reloadCalls.contains(String($0.name)) } }
    }
}
