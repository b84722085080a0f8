import Foundation
import WidgetQuotaModel

/// `widget-network-call`: no request from a Swift file compiled into the widget extension.
///
/// Every call in a file whose role is the widget extension (a file of both targets included) that
/// sends a request (`SourceVocabulary.isDirectRequest`), or that calls a function which does
/// (`SourceVocabulary.requestingFunctions`) when no such function is declared in an extension
/// file (where its own request is already reported), is a finding at the call.
///
/// Not seen: a request through a framework the tree does not hold (a package's client), or a call
/// the vocabulary does not know (a third-party HTTP library other than Alamofire). Functions
/// are matched by name, so a call to a non-requesting function that shares a requesting one's
/// name (in another type) is reported too.
package struct WidgetNetworkCallRule: LintRule {
    package let rule = ChecklistRule.widgetNetworkCall
    package init() {}

    package func check(_ source: LintSource) -> [Finding] {
        let tree = source.tree
        let extensionFiles = tree.swiftFiles(.widgetExtension)
        guard !extensionFiles.isEmpty else { return [] }
        // Keys and bare names of the requesting functions (see `requestingFunctions(in:)`).
        let requesting = source.requesting
        // Requesting functions declared in the extension: their own requests are reported there.
        var inExtension = Set<String>()
        for file in extensionFiles {
            for function in file.index.functions where requesting.contains(SourceVocabulary.key(function)) {
                inExtension.insert(function.name)
            }
        }
        var findings = [Finding]()
        for file in extensionFiles {
            let index = file.index
            for call in index.calls {
                let direct = SourceVocabulary.isDirectRequest(call)
                let name = String(call.name)
                guard direct || (requesting.contains(name) && !inExtension.contains(name)) else { continue }
                let place = index.enclosingFunction(of: call).map { " in `\($0.selector)`" } ?? ""
                let shared = file.targets.count > 1 ? " (the file is built into the app and the extension)" : ""
                let what = direct ? "`\(call.callee)` sends a request" : "`\(call.callee)` calls a function that sends a request"
                findings.append(
                    finding(
                        file.path, call.location, "\(what) from the widget extension\(place)\(shared)",
                        fix:
                            "fetch in the app or its background task, store the result in the App Group, and have the widget read it"))
            }
        }
        return findings
    }

    package var examples: [LintRuleExample] {
        [
            LintRuleExample(
                "getTimeline calls URLSession, and calls a fetcher defined in the app",
                files: [
                    "Widget/TipWidget.swift": """
                    import WidgetKit
                    struct Provider: TimelineProvider {
                        func getTimeline(in context: Context, completion: @escaping (Timeline<Entry>) -> Void) {
                            URLSession.shared.dataTask(with: URL(string: "https://example.com")!) { _, _, _ in }.resume()
                            Task { try? await Fetcher().fetch() }
                        }
                    }
                    """,
                    "App/Fetcher.swift": """
                    import Foundation
                    struct Fetcher {
                        func fetch() async throws -> Data { try await URLSession.shared.data(from: URL(string: "https://x")!).0 }
                    }
                    """,
                ],
                expected: ["Widget/TipWidget.swift:4", "Widget/TipWidget.swift:5"]),
            LintRuleExample(
                "a helper in the extension requests: reported once, at its own request",
                files: [
                    "Widget/Info.plist": AppGroupMismatchRule.widgetInfo,
                    "Widget/Client.swift": """
                    import Foundation
                    struct Client {
                        let session = URLSession(configuration: .ephemeral)
                        func load() async throws -> Data {
                            try await session.data(for: URLRequest(url: URL(string: "https://x")!)).0
                        }
                        func refresh() async { _ = try? await load() }
                    }
                    """,
                ],
                expected: ["Widget/Client.swift:5"]),
            LintRuleExample(
                "the widget reads the App Group cache; URLSession only in a comment and a string",
                files: [
                    "Widget/QuoteWidget.swift": """
                    import WidgetKit
                    /// There is no URLSession.shared.data(for:) here: the app fetches.
                    struct Provider: TimelineProvider {
                        func getTimeline(in context: Context, completion: @escaping (Timeline<Entry>) -> Void) {
                            let text = UserDefaults(suiteName: "group.x")?.string(forKey: "text") ?? "URLSession.shared.data(for: r)"
                            let data = Data(text.utf8)
                            completion(Timeline(entries: [Entry(date: Date(), text: text, size: data.count)], policy: .never))
                        }
                    }
                    """,
                    "App/Fetcher.swift": """
                    import Foundation
                    struct Fetcher {
                        func fetch() async throws -> Data { try await URLSession.shared.data(from: URL(string: "https://x")!).0 }
                    }
                    """,
                ]),
            LintRuleExample(
                "the app fetches; the extension holds no request",
                files: [
                    "Widget/Info.plist": AppGroupMismatchRule.widgetInfo,
                    "Widget/Store.swift": """
                    import Foundation
                    struct Store {
                        func entry() -> String { UserDefaults(suiteName: "group.x")?.string(forKey: "t") ?? "" }
                    }
                    """,
                    "App/Fetcher.swift": """
                    import Foundation
                    struct Fetcher {
                        func fetch() async throws { _ = try await URLSession.shared.data(from: URL(string: "https://x")!) }
                    }
                    """,
                ]),
        ]
    }
}
