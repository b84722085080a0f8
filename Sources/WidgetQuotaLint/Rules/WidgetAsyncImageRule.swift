import Foundation
import WidgetQuotaModel
import WidgetQuotaSwiftSource

/// `widget-async-image`: a widget's view loads no image over the network.
///
/// A call of `AsyncImage(…)`, or of an image library's loading view (Kingfisher's `KFImage`,
/// SDWebImage's `WebImage` and `AnimatedImage`, Nuke's `LazyImage`, `CachedAsyncImage`), in a
/// Swift file built only into the widget extension is a finding at the call. WidgetKit renders a
/// widget's view once into an archived snapshot: the view never gets to load, and the widget
/// shows the placeholder. A file also built into the app is not read (its views may be the app's).
package struct WidgetAsyncImageRule: LintRule {
    package static let description = LintRuleDescription(
        .widgetAsyncImage, title: "Widget views load no image over the network", severity: .warning,
        rationale:
            "WidgetKit renders a widget's view once, into a snapshot: AsyncImage never loads there and the widget shows its placeholder.")
    package init() {}

    /// Views that load an image from a URL as they appear.
    static let loadingViews: Set<String> = ["AsyncImage", "KFImage", "WebImage", "AnimatedImage", "LazyImage", "CachedAsyncImage"]

    package func check(_ source: LintSource) -> [Finding] {
        var findings = [Finding]()
        for file in source.tree.swiftFiles where file.role == .widgetExtension && file.targets.count <= 1 {
            for call in file.index.calls where Self.loadingViews.contains(call.callee) && !file.index.isPreviewCode(call.block) {
                findings.append(
                    finding(
                        file.path, call.location,
                        "`\(call.callee)` in a widget's view: WidgetKit renders the view once, so the image never loads and the placeholder shows",
                        fix:
                            "Download the image when the timeline is made (or have the app store it in the App Group) and show it with `Image(uiImage:)`"
                    ))
            }
        }
        return findings
    }

    package func hasSomethingToCheck(_ source: LintSource) -> Bool { source.tree.swiftFiles.contains { $0.role == .widgetExtension } }

    package var examples: [LintRuleExample] {
        [
            LintRuleExample(
                "AsyncImage and Kingfisher's KFImage in the widget's view; an image the timeline loaded is fine",
                files: [
                    "Widget/Info.plist": AppGroupMismatchRule.widgetInfo,
                    "Widget/EntryView.swift": """
                    import SwiftUI
                    import Kingfisher
                    struct EntryView: View {
                        let entry: Entry
                        var body: some View {
                            VStack {
                                ↓AsyncImage(url: entry.avatarURL) { $0.resizable() } placeholder: { Color.gray }
                                ↓KFImage(entry.iconURL)
                                if let data = entry.imageData, let image = UIImage(data: data) { Image(uiImage: image) }
                            }
                        }
                    }
                    """,
                ]),
            LintRuleExample(
                "AsyncImage in the app",
                files: [
                    "Widget/Info.plist": AppGroupMismatchRule.widgetInfo,
                    "App/Profile.swift": """
                    import SwiftUI
                    struct Profile: View { var body: some View { AsyncImage(url: URL(string: "https://example.com/me.png")) } }
                    """,
                ]),
        ]
    }
}
