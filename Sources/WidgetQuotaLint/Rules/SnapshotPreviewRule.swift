import Foundation
import WidgetQuotaModel
import WidgetQuotaSwiftSource

/// `snapshot-preview`: a timeline provider's snapshot that does live work reads `context.isPreview`.
///
/// A `getSnapshot(in:completion:)`, `getSnapshot(for:in:completion:)` or `snapshot(for:in:)`
/// that reaches a request (`CallGraph`) or asks for the location must mention `isPreview` in its
/// body or in a function of the same file that it calls (as code: a comment or a string does not
/// count). Otherwise the finding is at the function's name. A snapshot that hands back a fixed
/// or cached entry at once is the practice the rule asks for, and is not reported. Provider
/// functions are found as `snapshot-network` finds them.
///
/// Not seen: whether the preview branch actually returns sample content at once, slow local
/// work (a large database query), and a helper in another file that reads `isPreview` for it
/// (which is reported).
package struct SnapshotPreviewRule: LintRule {
    package static let description = LintRuleDescription(
        .snapshotPreview, title: "getSnapshot handles context.isPreview", severity: .warning,
        rationale: "In the widget gallery (context.isPreview) the snapshot should return sample content at once.")
    package init() {}

    static let selectors: Set<String> = ["getSnapshot(in:completion:)", "getSnapshot(for:in:completion:)", "snapshot(for:in:)"]
    /// Calls that ask for the device's location: live work a preview must not wait on.
    static let locationCalls: Set<String> = ["requestLocation", "startUpdatingLocation", "requestWhenInUseAuthorization"]

    package func check(_ source: LintSource) -> [Finding] {
        let tree = source.tree
        var findings = [Finding]()
        for (f, function) in tree.snapshotRuleProviderFunctions(Self.selectors) {
            let file = tree.swiftFiles[f]
            let index = file.index
            guard !index.snapshotPreviewRuleReads(function) else { continue }
            let live = index.calls(inside: function).first { call in
                source.graph.isRequest(call, inFile: f) || Self.locationCalls.contains(String(call.name))
            }
            guard let live else { continue }
            let helpers = Set(index.calls(inside: function).map { String($0.name) })
            let viaHelper = index.functions.contains { helpers.contains($0.name) && $0 != function && index.snapshotPreviewRuleReads($0) }
            guard !viaHelper else { continue }
            findings.append(
                finding(
                    file.path, function.location,
                    "`\(function.selector)` does live work (`\(live.callee)` on line \(live.location.line)) and never reads "
                        + "`context.isPreview`: the widget gallery waits for it",
                    fix: "when `context.isPreview` is true, return sample content at once"))
        }
        return findings
    }

    package var examples: [LintRuleExample] {
        [
            LintRuleExample(
                "getSnapshot returns the live entry, isPreview only in a comment and a string",
                files: [
                    "Widget/Provider.swift": """
                    import WidgetKit
                    struct Provider: TimelineProvider {
                        func placeholder(in context: Context) -> Entry { Entry(text: "…") }
                        func ↓getSnapshot(in context: Context, completion: @escaping (Entry) -> Void) {
                            // TODO: handle context.isPreview
                            Task { completion(Entry(text: (try? await Store().text()) ?? "isPreview")) }
                        }
                    }
                    """,
                    "Widget/Store.swift": Self.fetchingStore,
                ]),
            LintRuleExample(
                "an AppIntent provider's snapshot(for:in:) ignores the preview",
                files: [
                    "Widget/Provider.swift": """
                    import WidgetKit
                    struct Provider: AppIntentTimelineProvider {
                        func ↓snapshot(for configuration: Intent, in context: Context) async -> Entry {
                            Entry(text: (try? await Store().text()) ?? "")
                        }
                    }
                    """,
                    "Widget/Store.swift": Self.fetchingStore,
                ]),
            LintRuleExample(
                "an IntentTimelineProvider's getSnapshot(for:in:completion:) fetches",
                files: [
                    "Widget/Provider.swift": """
                    import WidgetKit
                    struct Provider: IntentTimelineProvider {
                        let store = Store()
                        func ↓getSnapshot(for configuration: Intent, in context: Context, completion: @escaping (Entry) -> Void) {
                            Task { completion(Entry(text: (try? await store.text()) ?? "")) }
                        }
                    }
                    """,
                    "Widget/Store.swift": Self.fetchingStore,
                ]),
            LintRuleExample(
                "getSnapshot hands back a fixed sample entry at once, without reading isPreview",
                files: [
                    "Widget/Provider.swift": """
                    import WidgetKit
                    struct Provider: TimelineProvider {
                        func getSnapshot(in context: Context, completion: @escaping (Entry) -> Void) {
                            completion(Entry(text: "Arsenal 2–1 Chelsea"))
                        }
                        func getTimeline(in context: Context, completion: @escaping (Timeline<Entry>) -> Void) {
                            Task { completion(Timeline(entries: [Entry(text: (try? await Store().text()) ?? "")], policy: .never)) }
                        }
                    }
                    """,
                    "Widget/Store.swift": Self.fetchingStore,
                ]),
            LintRuleExample(
                "getSnapshot reads isPreview itself, or through a helper of the same file",
                files: [
                    "Widget/Provider.swift": """
                    import WidgetKit
                    struct Provider: TimelineProvider {
                        func getSnapshot(in context: Context, completion: @escaping (Entry) -> Void) {
                            completion(context.isPreview ? Entry(text: "Sample") : Entry(text: Store().text()))
                        }
                    }
                    struct IntentProvider: AppIntentTimelineProvider {
                        func snapshot(for configuration: Intent, in context: Context) async -> Entry { entry(context) }
                        func entry(_ context: Context) -> Entry {
                            guard !context.isPreview else { return Entry(text: "Sample") }
                            return Entry(text: Store().text())
                        }
                    }
                    """
                ]),
            LintRuleExample(
                "a getSnapshot outside a widget provider is not checked",
                files: [
                    "App/Screens.swift": """
                    import UIKit
                    struct Screens {
                        func getSnapshot(in view: UIView, completion: @escaping (UIImage) -> Void) { completion(UIImage()) }
                    }
                    """
                ]),
        ]
    }
}

extension SnapshotPreviewRule {
    /// A store whose `text()` fetches.
    static let fetchingStore = """
        import Foundation
        struct Store {
            func text() async throws -> String {
                String(decoding: try await URLSession.shared.data(from: URL(string: "https://x")!).0, as: UTF8.self)
            }
        }
        """
}

extension SwiftFileIndex {
    /// True when `function`'s body holds the name `isPreview` as code.
    func snapshotPreviewRuleReads(_ function: SwiftFunction) -> Bool {
        guard let body = function.body else { return false }
        let block = blocks[body]
        let end = min(block.close, tokens.count)
        guard block.open < end else { return false }
        return tokens[block.open..<end].contains { $0.kind == .identifier && $0.text == "isPreview" }
    }
}

extension SnapshotPreviewRule {
    /// Something to check: a timeline provider's snapshot.
    package func hasSomethingToCheck(_ source: LintSource) -> Bool {
        !source.tree.snapshotRuleProviderFunctions(Self.selectors).isEmpty
    }
}
