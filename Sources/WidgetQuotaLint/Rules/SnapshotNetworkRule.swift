import Foundation
import WidgetQuotaModel
import WidgetQuotaSwiftSource

/// `snapshot-network`: the widget's placeholder and snapshot stay off the network.
///
/// In a timeline provider's `placeholder(in:)`, `getSnapshot(in:completion:)` or (for an
/// `AppIntentTimelineProvider`) `snapshot(for:in:)`, or an `IntentTimelineProvider`'s
/// `getSnapshot(for:in:completion:)`, every call that sends a request or runs a function that
/// does (`CallGraph`), closures such as a `Task { … }` included, is a finding at the call. A call
/// matched by name only (its receiver's type not stated) is a warning that says so. A provider function is one declared in a type that conforms to a
/// provider protocol anywhere in the tree, or any function of those names in a widget extension file.
///
/// Not seen: waiting on a task started elsewhere (`await sharedTask.value`).
package struct SnapshotNetworkRule: LintRule {
    package static let description = LintRuleDescription(
        .snapshotNetwork, title: "Placeholder and snapshot stay off the network", severity: .error,
        rationale: "The widget gallery and Smart Stack ask for snapshots often and briefly; a network call there is slow and billed.")
    package init() {}

    static let selectors: Set<String> = [
        "placeholder(in:)", "placeholder(for:in:)", "getSnapshot(in:completion:)", "getSnapshot(for:in:completion:)", "snapshot(for:in:)",
    ]

    package func check(_ source: LintSource) -> [Finding] {
        let tree = source.tree
        let functions = tree.snapshotRuleProviderFunctions(Self.selectors)
        guard !functions.isEmpty else { return [] }
        let graph = source.graph
        var findings = [Finding]()
        for (f, function) in functions {
            let file = tree.swiftFiles[f]
            for call in file.index.calls(inside: function) {
                guard let route = graph.requestInExtension(call, inFile: f) else { continue }
                let task = file.index.isInsideClosure(of: call, passedTo: "Task") ? " (in a `Task` it waits on)" : ""
                findings.append(
                    finding(
                        file.path, call.location, "`\(function.selector)`: \(graph.explain(route, call: call, inFile: f))\(task)",
                        fix: function.name == "placeholder"
                            ? "return sample content at once from `placeholder(in:)`"
                            : "answer the snapshot from the App Group cache or sample content, never from the network",
                        severity: route.byNameOnly ? .warning : nil))
            }
        }
        return findings
    }

    package var examples: [LintRuleExample] {
        [
            LintRuleExample(
                "getSnapshot waits on a Task that calls URLSession; placeholder calls a fetcher",
                files: [
                    "Widget/Provider.swift": """
                    import WidgetKit
                    struct Provider: TimelineProvider {
                        func placeholder(in context: Context) -> Entry {
                            Entry(text: (try? Fetcher().↓loadNow()) ?? "…")
                        }
                        func getSnapshot(in context: Context, completion: @escaping (Entry) -> Void) {
                            Task {
                                let data = try? await URLSession.shared.↓data(from: URL(string: "https://x")!).0
                                completion(Entry(text: String(decoding: data ?? Data(), as: UTF8.self)))
                            }
                        }
                    }
                    """,
                    "App/Fetcher.swift": """
                    import Foundation
                    struct Fetcher {
                        func loadNow() throws -> String {
                            URLSession.shared.dataTask(with: URL(string: "https://x")!).resume()
                            return ""
                        }
                    }
                    """,
                ]),
            LintRuleExample(
                "an AppIntent provider's snapshot(for:in:) awaits a requesting helper",
                files: [
                    "Widget/Provider.swift": """
                    import WidgetKit
                    struct Provider: AppIntentTimelineProvider {
                        func snapshot(for configuration: Intent, in context: Context) async -> Entry {
                            if context.isPreview { return Entry(text: "Sample") }
                            return Entry(text: (try? await ↓latest()) ?? "")
                        }
                        func latest() async throws -> String {
                            let (data, _) = try await URLSession.shared.data(for: URLRequest(url: URL(string: "https://x")!))
                            return String(decoding: data, as: UTF8.self)
                        }
                    }
                    """
                ]),
            LintRuleExample(
                "snapshot and placeholder read the cache; getTimeline's request is another rule's",
                files: [
                    "Widget/Provider.swift": """
                    import WidgetKit
                    struct Provider: TimelineProvider {
                        func placeholder(in context: Context) -> Entry { Entry(text: "Loading…") }
                        func getSnapshot(in context: Context, completion: @escaping (Entry) -> Void) {
                            // Never URLSession.shared.data(for:) here.
                            completion(context.isPreview ? placeholder(in: context) : Entry(text: Store().text()))
                        }
                        func getTimeline(in context: Context, completion: @escaping (Timeline<Entry>) -> Void) {
                            URLSession.shared.dataTask(with: URL(string: "https://x")!) { _, _, _ in }.resume()
                        }
                    }
                    struct Store {
                        func text() -> String { UserDefaults(suiteName: "group.x")?.string(forKey: "t") ?? "URLSession.shared.data" }
                    }
                    """
                ]),
            LintRuleExample(
                "a snapshot builds its entry through an initialiser that reads a computed property of a singleton whose init downloads",
                files: [
                    "Widget/Provider.swift": """
                    import WidgetKit
                    struct Provider: TimelineProvider {
                        func placeholder(in context: Context) -> Entry { Entry(lobby: "…") }
                        func getSnapshot(in context: Context, completion: @escaping (Entry) -> Void) {
                            let match = Match(lobbyType: 7)
                            completion(↓Entry(match))
                        }
                    }
                    struct Entry: TimelineEntry {
                        let date = Date()
                        let lobby: String
                        init(lobby: String) { self.lobby = lobby }
                        init(_ match: Match) { self.init(lobby: match.lobbyName) }
                    }
                    """,
                    "Shared/Match.swift": """
                    import Foundation
                    struct Match {
                        let lobbyType: Int
                        var lobbyName: String { Database.shared.lobby(id: lobbyType) }
                    }
                    final class Database {
                        static var shared = Database()
                        private var lobbies = [Int: String]()
                        init(preview: Bool = false) {
                            guard !preview else { return }
                            Task { await self.load() }
                        }
                        func lobby(id: Int) -> String { lobbies[id] ?? "Unknown" }
                        func load() async {
                            _ = try? await URLSession.shared.data(from: URL(string: "https://example.com/lobbies.json")!)
                        }
                    }
                    """,
                ]),
            LintRuleExample(
                "a snapshot's value comes from a factory whose result type is a local store (another function's binding of the name to a remote one is out of scope); a property of an unstated owner is not matched by name",
                files: [
                    "Widget/Provider.swift": """
                    import WidgetKit
                    struct Provider: TimelineProvider {
                        let factory = Factory()
                        func placeholder(in context: Context) -> Entry { Entry(text: "…") }
                        func getSnapshot(in context: Context, completion: @escaping (Entry) -> Void) {
                            let store = factory.makeStore()
                            completion(Entry(text: store.latest() + settings().headline))
                        }
                        func settings() -> Settings { Settings() }
                        func warmUp() {
                            let store = factory.makeRemote()
                            _ = store.latest()
                        }
                    }
                    struct Factory {
                        func makeStore() -> LocalStore { LocalStore() }
                        func makeRemote() -> RemoteStore { RemoteStore() }
                    }
                    struct LocalStore {
                        func latest() -> String { UserDefaults(suiteName: "group.x")?.string(forKey: "t") ?? "" }
                    }
                    struct Settings { let title = "x" }
                    """,
                    "App/Remote.swift": """
                    import Foundation
                    struct RemoteStore {
                        func latest() -> String {
                            URLSession.shared.dataTask(with: URL(string: "https://x")!).resume()
                            return ""
                        }
                    }
                    struct Feed {
                        var headline: String {
                            URLSession.shared.dataTask(with: URL(string: "https://y")!).resume()
                            return ""
                        }
                    }
                    """,
                ]),
            LintRuleExample(
                "a setter, a key path and a local named as a getter are not reads of it; a read of a getter that sends is",
                files: [
                    "Widget/Provider.swift": """
                    import WidgetKit
                    struct Provider: TimelineProvider {
                        let store = TokenStore()
                        func placeholder(in context: Context) -> Entry { Entry(text: store.local) }
                        func getSnapshot(in context: Context, completion: @escaping (Entry) -> Void) {
                            let remote = "cached"
                            let path = \\TokenStore.remote
                            store.token = remote
                            completion(Entry(text: remote + store.local + store.token + store.note + String(describing: path)))
                        }
                        func getTimeline(in context: Context, completion: @escaping (Timeline<Entry>) -> Void) {
                            completion(Timeline(entries: [Entry(text: store.remote)], policy: .atEnd))
                        }
                    }
                    struct LiveProvider {
                        let store = TokenStore()
                        func getSnapshot(in context: Context, completion: @escaping (Entry) -> Void) {
                            completion(Entry(text: store.↓remote))
                        }
                    }
                    """,
                    "Shared/TokenStore.swift": """
                    import Foundation
                    final class TokenStore {
                        var token: String {
                            get { UserDefaults(suiteName: "group.x")?.string(forKey: "t") ?? "" }
                            set { URLSession.shared.dataTask(with: URL(string: "https://example.com/register")!).resume() }
                        }
                        var remote: String {
                            URLSession.shared.dataTask(with: URL(string: "https://example.com/remote")!).resume()
                            return ""
                        }
                        var local: String { UserDefaults(suiteName: "group.x")?.string(forKey: "l") ?? "" }
                        var note: String {
                            get throws { UserDefaults(suiteName: "group.x")?.string(forKey: "n") ?? "" }
                            set { URLSession.shared.dataTask(with: URL(string: "https://example.com/note")!).resume() }
                        }
                    }
                    """,
                ]),
            LintRuleExample(
                "an error handler given to an initialiser is kept for later, not run by the snapshot",
                files: [
                    "Widget/Provider.swift": """
                    import WidgetKit
                    struct Provider: TimelineProvider {
                        func placeholder(in context: Context) -> Entry { Entry(text: "…") }
                        func getSnapshot(in context: Context, completion: @escaping (Entry) -> Void) {
                            let model = FavoritesModel(errors: ErrorReporting())
                            completion(Entry(text: model.first()))
                        }
                    }
                    """,
                    "Shared/Favorites.swift": """
                    import Foundation
                    class EventMapping {
                        let handler: (Error) -> Void
                        init(handler: @escaping (Error) -> Void) { self.handler = handler }
                    }
                    final class ErrorReporting: EventMapping {
                        init() {
                            super.init { error in
                                URLSession.shared.dataTask(with: URL(string: "https://example.com/pixel")!).resume()
                            }
                        }
                    }
                    struct FavoritesModel {
                        let errors: ErrorReporting
                        func first() -> String { UserDefaults(suiteName: "group.x")?.string(forKey: "f") ?? "" }
                    }
                    """,
                ]),
            LintRuleExample(
                "a snapshot function of an unrelated app type is not a widget's",
                files: [
                    "App/Camera.swift": """
                    import Foundation
                    struct Camera {
                        func snapshot(for view: View, in rect: CGRect) async throws -> Data {
                            try await URLSession.shared.data(from: URL(string: "https://x")!).0
                        }
                    }
                    """
                ]),
        ]
    }
}

extension AppSourceTree {
    /// The functions with one of `selectors` that belong to a timeline provider: declared in a
    /// type that conforms to a provider protocol somewhere in the tree (an extension's conformance
    /// counts), or in a widget extension file; with their files, in file order.
    func snapshotRuleProviderFunctions(_ selectors: Set<String>) -> [(file: Int, function: SwiftFunction)] {
        var providers = Set<String>()
        for file in swiftFiles {
            for type in file.index.types
            where type.inherited.contains(where: {
                SourceVocabulary.providerProtocols.contains(String($0.split(separator: ".").last ?? ""))
            }) {
                providers.insert(type.name)
            }
        }
        var out = [(file: Int, function: SwiftFunction)]()
        for (f, file) in swiftFiles.enumerated() {
            for function in file.index.functions where function.body != nil && selectors.contains(function.selector) {
                if file.role == .widgetExtension || function.typeName.map(providers.contains) == true {
                    out.append((f, function))
                }
            }
        }
        return out
    }
}

extension SnapshotNetworkRule {
    /// Something to check: a timeline provider's placeholder or snapshot.
    package func hasSomethingToCheck(_ source: LintSource) -> Bool {
        !source.tree.snapshotRuleProviderFunctions(Self.selectors).isEmpty
    }
}
