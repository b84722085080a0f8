import Foundation
import WidgetQuotaModel
import WidgetQuotaSwiftSource

/// `snapshot-preview`: a timeline provider's `getSnapshot(in:completion:)` or
/// `snapshot(for:in:)` reads `context.isPreview`.
///
/// The function's body, or a function of the same file that it calls, must mention `isPreview`
/// (as code: a comment or a string does not count). Otherwise the finding is at the function's
/// name. Provider functions are found as `snapshot-network` finds them.
///
/// Not seen: whether the preview branch actually returns sample content at once, and a helper in
/// another file that reads `isPreview` for it (which is reported).
package struct SnapshotPreviewRule: LintRule {
    package let rule = ChecklistRule.snapshotPreview
    package init() {}

    static let selectors: Set<String> = ["getSnapshot(in:completion:)", "snapshot(for:in:)"]

    package func check(_ source: LintSource) -> [Finding] {
        let tree = source.tree
        var findings = [Finding]()
        for (file, function) in tree.snapshotRuleProviderFunctions(Self.selectors) {
            let index = file.index
            guard !index.snapshotPreviewRuleReads(function) else { continue }
            let helpers = Set(index.calls(inside: function).map { String($0.name) })
            let viaHelper = index.functions.contains { helpers.contains($0.name) && $0 != function && index.snapshotPreviewRuleReads($0) }
            guard !viaHelper else { continue }
            findings.append(
                finding(
                    file.path, function.location,
                    "`\(function.selector)` never reads `context.isPreview`: the widget gallery gets whatever the live path returns",
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
                        func getSnapshot(in context: Context, completion: @escaping (Entry) -> Void) {
                            // TODO: handle context.isPreview
                            completion(Entry(text: Store().text() + "isPreview"))
                        }
                    }
                    """
                ],
                expected: ["Widget/Provider.swift:4"]),
            LintRuleExample(
                "an AppIntent provider's snapshot(for:in:) ignores the preview",
                files: [
                    "Widget/Provider.swift": """
                    import WidgetKit
                    struct Provider: AppIntentTimelineProvider {
                        func snapshot(for configuration: Intent, in context: Context) async -> Entry {
                            Entry(text: Store().text())
                        }
                    }
                    """
                ],
                expected: ["Widget/Provider.swift:3"]),
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
