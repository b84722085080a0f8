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
/// with no request (`CallGraph`) before it in that handler; a reload a foreground handler
/// reaches through the functions it calls, three calls deep, with no request before it on the
/// way, too. A second reload call after a request in the same function is a finding as well.
///
/// Blind spots: a reload in a function the `catch` calls, "success" judged by order only (a
/// reload after `try? fetch()` counts as after a fetch).
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
        findings += foregroundReloadsThroughCalls(source, reported: Set(findings.map(\.location)))
        return findings
    }

    /// Reloads a foreground handler reaches through the functions it calls (a delegate's
    /// `appDidBecomeActive()`, a model's `refreshWidgets()`), three calls deep, with no request
    /// before them on the way: a finding at the reload, naming the handler and the call.
    func foregroundReloadsThroughCalls(_ source: LintSource, reported: Set<Finding.Location>) -> [Finding] {
        let tree = source.tree
        let context = source.refresh
        var findings = [Finding]()
        var seen = reported
        for (f, file) in tree.swiftFiles.enumerated() where file.role != .widgetExtension {
            let index = file.index
            var handlers = [(block: Int, name: String)]()
            for function in index.functions where Self.foregroundFunctions.contains(function.name) {
                if let body = function.body { handlers.append((body, "`\(function.name)`")) }
            }
            for call in index.calls {
                guard let name = Self.foregroundClosureName(call, index),
                    let closure = call.trailingClosure ?? index.closureArgument(of: call).flatMap({ b in index.blocks.firstIndex(of: b) })
                else { continue }
                // Of a scene-phase handler, only what runs when the phase becomes `.active`.
                let blocks = call.name == "onChange" ? DesignCodeReader.activeBlocks(index, in: closure) : [closure]
                handlers += blocks.map { ($0, name) }
            }
            for handler in handlers {
                for call in context.calls(inFile: f, inside: handler.block) {
                    if context.isRequest(call, inFile: f) { break }
                    for (g, body, _) in context.functions(calledBy: call, inFile: f) {
                        guard let reload = Self.reloadBeforeRequest(context, file: g, block: body, depth: 0) else { continue }
                        let path = tree.swiftFiles[reload.file].path
                        let location = Finding.Location(file: path, line: reload.call.location.line, column: reload.call.location.column)
                        guard seen.insert(location).inserted else { continue }
                        findings.append(
                            finding(
                                path, reload.call.location,
                                "`\(reload.call.name)` on every foreground (\(handler.name), through `\(call.callee)` in \(file.path):\(call.location.line)) "
                                    + "with no fetch before it: a reload per app launch, nothing new",
                                fix: "Reload only after a fetch that wrote new data to the cache"))
                    }
                }
            }
        }
        return findings
    }

    /// The first reload a block runs (itself or through the functions it calls, three calls
    /// deep) before any request; nil when a request comes first or there is none.
    static func reloadBeforeRequest(_ context: RefreshRulesIndex, file: Int, block: Int, depth: Int) -> (file: Int, call: SwiftCall)? {
        for call in context.calls(inFile: file, inside: block) {
            if SourceVocabulary.reloadCalls.contains(String(call.name)) { return (file, call) }
            if context.isRequest(call, inFile: file) { return nil }
            guard depth < 2 else { continue }
            for (g, body, _) in context.functions(calledBy: call, inFile: file) where body != block || g != file {
                if let found = reloadBeforeRequest(context, file: g, block: body, depth: depth + 1) { return found }
            }
        }
        return nil
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
            if block.kind == .closure, let c = block.call, let name = foregroundClosureName(index.calls[c], index) {
                return (k, name)
            }
            b = block.parent
        }
        return nil
    }

    /// How a closure passed to `owner` is named as a foreground handler: `onChange(of: scenePhase)`,
    /// or `onReceive`/`addObserver`/`publisher` of a did-become-active or will-enter-foreground
    /// notification; nil for any other call.
    static func foregroundClosureName(_ owner: SwiftCall, _ index: SwiftFileIndex) -> String? {
        let name = String(owner.name)
        guard name == "onChange" || ["onReceive", "addObserver", "publisher"].contains(name) else { return nil }
        let text = owner.arguments.map { index.text($0.tokens) }.joined(separator: " ")
        if name == "onChange" { return text.contains("scenePhase") ? "`onChange(of: scenePhase)`" : nil }
        return text.contains("didBecomeActive") || text.contains("willEnterForeground") ? "`\(name)` of a foreground notification" : nil
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
                "a reload on every foreground reached through a delegate; one after a fetch through a model is fine",
                files: [
                    "App/SceneDelegate.swift": """
                    import UIKit
                    protocol ActivityDelegate: AnyObject { func appDidBecomeActive() }
                    final class SceneDelegate: UIResponder, UIWindowSceneDelegate {
                        weak var delegate: ActivityDelegate?
                        let model = QuotesModel()
                        func sceneDidBecomeActive(_ scene: UIScene) {
                            delegate?.appDidBecomeActive()
                        }
                        func sceneWillEnterForeground(_ scene: UIScene) {
                            Task { await model.refresh() }
                        }
                    }
                    """,
                    "App/WidgetRefresher.swift": """
                    import WidgetKit
                    final class WidgetRefresher: ActivityDelegate {
                        func appDidBecomeActive() {
                            WidgetCenter.shared.↓reloadAllTimelines()
                        }
                    }
                    final class QuotesModel {
                        func refresh() async {
                            _ = try? await URLSession.shared.data(from: URL(string: "https://api.example.com/quotes")!)
                            WidgetCenter.shared.reloadAllTimelines()
                        }
                    }
                    """,
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
