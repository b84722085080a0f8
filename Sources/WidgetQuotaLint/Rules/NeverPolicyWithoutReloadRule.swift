import Foundation
import WidgetQuotaModel
import WidgetQuotaSwiftSource

/// `never-policy-without-reload`: a timeline whose policy is `.never` is reloaded by the app.
///
/// With `.never`, WidgetKit asks for the widget's next timeline only when the app asks for it
/// through `WidgetCenter` (Apple's `TimelineReloadPolicy` documentation). A timeline with the
/// policy `.never` (or `TimelineReloadPolicy.never`), outside a preview branch, built by a
/// function that reads data that can change (a request, a `forKey:` read, an App Group suite or
/// container, `contentsOf:`, a `fetch` or `decode`, there or in a function of its file it calls),
/// is a finding at its policy when nothing in the tree can ask for a new one: no `reloadTimelines(ofKind:)` or
/// `reloadAllTimelines()` call, no interactive control (`Button(intent:)`,
/// `Toggle(isOn:intent:)`, whose tap reloads the widget), no widget push handler
/// (`WidgetPushHandler`, `pushHandler(_:)`). Only checked when the tree holds the app itself (an
/// `@main` type, a `WindowGroup`, an application or scene delegate in the app's files): the
/// extension linted on its own, or with a shared folder, cannot show the app's reload.
///
/// A widget whose entries are constants (a launcher, a static shortcut) needs no reload and is not
/// reported. Not seen: a reload of another widget's kind only (any reload call counts), data read
/// through a function of another file, a reload in a framework or
/// package the tree does not hold, reloads the system makes on its own (a restart, a locale
/// change), which keep such a widget only occasionally fresh.
package struct NeverPolicyWithoutReloadRule: LintRule {
    package static let description = LintRuleDescription(
        .neverPolicyWithoutReload, title: "A .never timeline is reloaded by the app", severity: .warning,
        rationale: "With .never WidgetKit asks for a new timeline only when the app calls WidgetCenter to reload it; "
            + "an app that never does leaves the widget showing old content.")
    package init() {}

    package func check(_ source: LintSource) -> [Finding] {
        let tree = source.tree
        guard Self.holdsApp(tree), !Self.canReload(tree) else { return [] }
        var findings = [Finding]()
        for (f, file) in tree.swiftFiles.enumerated() {
            for policy in Self.neverPolicies(in: file.index) where Self.readsChangingData(source, file: f, policy.timeline) {
                findings.append(
                    finding(
                        file.path, policy.token.location,
                        "`.never` and no reload anywhere in the app: WidgetKit asks for this widget's next timeline only when "
                            + "the app calls `WidgetCenter`, so it shows these entries until the system reloads it on its own",
                        fix: "Call `WidgetCenter.shared.reloadTimelines(ofKind:)` after the app writes new content, "
                            + "or ask for the next timeline with `.after(date)`"))
            }
        }
        return findings
    }

    /// The file's timelines whose policy is `.never`, with the first token of the policy.
    static func neverPolicies(in index: SwiftFileIndex) -> [(timeline: SwiftCall, token: SwiftToken)] {
        TimelinePolicies.timelines(in: index).compactMap { timeline in
            guard let policy = timeline.arguments.first(where: { $0.label == "policy" })?.tokens, let first = policy.first,
                [".never", "TimelineReloadPolicy.never"].contains(index.text(policy).filter { !$0.isWhitespace })
            else { return nil }
            return (timeline, index.tokens[first])
        }
    }

    /// Labels of calls that read stored or shared data: `defaults.string(forKey:)`,
    /// `UserDefaults(suiteName:)`, `containerURL(forSecurityApplicationGroupIdentifier:)`,
    /// `Data(contentsOf:)`.
    static let readLabels: Set<String> = ["forKey", "suiteName", "forSecurityApplicationGroupIdentifier", "contentsOf", "contentsOfFile"]

    /// True when the function that builds `timeline`, or a function of the same file it calls,
    /// reads data that can change: a request, or a call that reads stored or shared data.
    static func readsChangingData(_ source: LintSource, file f: Int, _ timeline: SwiftCall) -> Bool {
        let index = source.tree.swiftFiles[f].index
        guard let function = index.enclosingFunction(of: timeline) else { return false }
        let calls = index.calls(inside: function)
        let called = Set(calls.map { String($0.name) })
        let helpers = index.functions.filter { called.contains($0.name) && $0 != function }
        return (calls + helpers.flatMap { index.calls(inside: $0) }).contains { call in
            source.graph.isRequest(call, inFile: f) || ["fetch", "decode"].contains(String(call.name))
                || call.labels.contains(where: readLabels.contains)
        }
    }

    /// Names that only an app's own code holds: its entry point, its scenes and delegates.
    static let appMarkers: Set<String> = ["WindowGroup", "UIApplicationDelegate", "UIApplicationMain", "UIWindowSceneDelegate"]

    /// True when the app's files hold the app itself, not only code it shares with the extension.
    static func holdsApp(_ tree: AppSourceTree) -> Bool {
        tree.swiftFiles(.app).contains { file in
            let tokens = file.index.tokens
            return tokens.indices.contains { i in
                let t = tokens[i]
                guard t.kind == .identifier else { return false }
                return appMarkers.contains(t.text) || (t.text == "main" && i > 0 && tokens[i - 1].text == "@")
            }
        }
    }

    /// True when some code of the tree can have WidgetKit ask for a new timeline.
    static func canReload(_ tree: AppSourceTree) -> Bool {
        tree.swiftFiles.contains { file in
            let index = file.index
            return index.calls.contains { call in
                let name = String(call.name)
                return SourceVocabulary.reloadCalls.contains(name) || name == "pushHandler"
                    || (["Button", "Toggle"].contains(name) && call.labels.contains("intent"))
            } || index.tokens.contains { $0.kind == .identifier && $0.text == "WidgetPushHandler" }
        }
    }

    package func hasSomethingToCheck(_ source: LintSource) -> Bool {
        let tree = source.tree
        return Self.holdsApp(tree)
            && tree.swiftFiles.indices.contains { f in
                Self.neverPolicies(in: tree.swiftFiles[f].index).contains { Self.readsChangingData(source, file: f, $0.timeline) }
            }
    }

    package var examples: [LintRuleExample] {
        let provider = """
            import WidgetKit
            struct Provider: TimelineProvider {
                func getTimeline(in context: Context, completion: @escaping (Timeline<Entry>) -> Void) {
                    let entry = Entry(date: Date(), text: UserDefaults(suiteName: "group.com.example.quote")?.string(forKey: "quote"))
                    completion(Timeline(entries: [entry], policy: ↓.never))
                }
            }
            """
        let fetcher = """
            import SwiftUI
            @main struct QuoteApp: App {
                var body: some Scene { WindowGroup { Text("Quote") } }
            }
            struct Fetcher {
                func refresh() async throws {
                    let (data, _) = try await URLSession.shared.data(from: URL(string: "https://api.example.com/quote")!)
                    UserDefaults(suiteName: "group.com.example.quote")?.set(String(decoding: data, as: UTF8.self), forKey: "quote")
                }
            }
            """
        return [
            LintRuleExample(
                "the app writes the cache and never reloads the .never widget",
                files: ["Widget/Provider.swift": provider, "App/Fetcher.swift": fetcher]),
            LintRuleExample(
                "TimelineReloadPolicy.never written out, and a reload only in a comment",
                files: [
                    "Widget/Provider.swift": provider.replacingOccurrences(of: "↓.never", with: "↓TimelineReloadPolicy.never"),
                    "App/Fetcher.swift": fetcher.replacingOccurrences(
                        of: "forKey: \"quote\")\n", with: "forKey: \"quote\")  // WidgetCenter.shared.reloadAllTimelines()\n"),
                ]),
            LintRuleExample(
                "the app reloads after it writes the cache",
                files: [
                    "Widget/Provider.swift": provider.replacingOccurrences(of: "↓", with: ""),
                    "App/Fetcher.swift": fetcher.replacingOccurrences(
                        of: "forKey: \"quote\")\n",
                        with: "forKey: \"quote\")\n        WidgetCenter.shared.reloadTimelines(ofKind: \"Quote\")\n"),
                ]),
            LintRuleExample(
                "an interactive widget: a tap on its Button(intent:) reloads it",
                files: [
                    "Widget/Provider.swift": provider.replacingOccurrences(of: "↓", with: ""),
                    "Widget/QuoteView.swift": """
                    import SwiftUI
                    import AppIntents
                    struct QuoteView: View {
                        var body: some View { Button(intent: RefreshQuote()) { Text("Refresh") } }
                    }
                    """,
                    "App/Fetcher.swift": fetcher,
                ]),
            LintRuleExample(
                "a launcher widget whose entry is a constant needs no reload",
                files: [
                    "Widget/Launcher.swift": """
                    import WidgetKit
                    struct LauncherProvider: TimelineProvider {
                        func getTimeline(in context: Context, completion: @escaping (Timeline<LauncherEntry>) -> Void) {
                            completion(Timeline(entries: [LauncherEntry(date: .now)], policy: .never))
                        }
                    }
                    """,
                    "App/Fetcher.swift": fetcher,
                ]),
            LintRuleExample(
                "a helper of the provider's file reads the App Group; the extension linted with the app",
                files: [
                    "Widget/Provider.swift": """
                    import WidgetKit
                    struct Provider: TimelineProvider {
                        func getTimeline(in context: Context, completion: @escaping (Timeline<Entry>) -> Void) {
                            completion(Timeline(entries: [Entry(date: .now, text: readQuote())], policy: ↓.never))
                        }
                        private func readQuote() -> String? {
                            guard let url = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: "group.com.example.quote") else { return nil }
                            return try? String(contentsOf: url.appendingPathComponent("quote.txt"), encoding: .utf8)
                        }
                    }
                    """,
                    "App/Fetcher.swift": fetcher,
                ]),
            LintRuleExample(
                "the extension linted on its own: the app's reload cannot be seen",
                files: ["Widget/Provider.swift": provider.replacingOccurrences(of: "↓", with: "")]),
            LintRuleExample(
                "the extension and a shared folder without the app's entry point: the app's reload cannot be seen",
                files: [
                    "Widget/Provider.swift": provider.replacingOccurrences(of: "↓", with: ""),
                    "Shared/Store.swift": """
                    import Foundation
                    enum Store {
                        static func save(_ text: String) { UserDefaults(suiteName: "group.com.example.quote")?.set(text, forKey: "quote") }
                    }
                    """,
                ]),
            LintRuleExample(
                "`.never` only in the preview branch; the widget's own policy is `.after`",
                files: [
                    "Widget/Provider.swift": """
                    import WidgetKit
                    struct Provider: TimelineProvider {
                        func getTimeline(in context: Context, completion: @escaping (Timeline<Entry>) -> Void) {
                            if context.isPreview {
                                completion(Timeline(entries: [Entry(date: Date(), text: "Sample")], policy: .never))
                                return
                            }
                            let text = UserDefaults(suiteName: "group.com.example.quote")?.string(forKey: "quote")
                            completion(Timeline(entries: [Entry(date: Date(), text: text)], policy: .after(Date().addingTimeInterval(3600))))
                        }
                    }
                    """,
                    "App/Fetcher.swift": fetcher,
                ]),
        ]
    }
}
