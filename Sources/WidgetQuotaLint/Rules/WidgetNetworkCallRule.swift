import Foundation
import WidgetQuotaModel
import WidgetQuotaSwiftSource

/// `widget-network-call`: no request from a Swift file compiled into the widget extension.
///
/// Every call in a file whose role is the widget extension (a file of both targets included) that
/// sends a request (`SourceVocabulary.isDirectRequest`), or that runs a function of the tree
/// which does (`CallGraph`: only functions the extension compiles or imports, in the receiver's
/// type where the file states it) when that function is not itself in an extension file (where
/// its own request is already reported), is a finding at the call, naming the function it runs
/// and the request that function ends in. A call matched by name only is a warning that says so.
///
/// Calls in the `perform()` of an intent a widget's button runs are `intent-network-call`'s;
/// preview code (a `PreviewProvider`, `#Preview`) is not read; in a file the app builds too, only
/// functions the extension's own code reaches count, and functions of files only the app builds
/// are never the ones run.
///
/// Not seen: a request inside a library the tree does not hold behind a type whose name does not
/// read as a client (`LibraryClients`), and a value whose type only a function's return type states.
package struct WidgetNetworkCallRule: LintRule {
    package static let description = LintRuleDescription(
        .widgetNetworkCall, title: "The widget extension makes no network call", severity: .error,
        rationale: "Every getTimeline becomes an API request: about ten times the requests of a cache the app refreshes.")
    package init() {}

    package func check(_ source: LintSource) -> [Finding] {
        let tree = source.tree
        let graph = source.graph
        var findings = [Finding]()
        // A widget button's intent's requests are `intent-network-call`'s: per tap, not per reload.
        let performs = source.intents.performBodies
        // A file the app builds too sends from the extension only what the extension's own code runs.
        var reached: Set<FunctionRef>?
        for (f, file) in tree.swiftFiles.enumerated() where file.role == .widgetExtension {
            let index = file.index
            for (c, call) in index.calls.enumerated() {
                guard let route = graph.requestInExtension(call: c, inFile: f) else { continue }
                if let bodies = performs[f], bodies.contains(where: { index.isBlock(call.block, inside: $0) }) { continue }
                if index.isPreviewCode(call.block) { continue }
                if file.targets.count > 1 {
                    if reached == nil { reached = graph.reachedFromExtension() }
                    guard let k = Self.enclosingFunctionIndex(index, call.block),
                        reached?.contains(FunctionRef(file: f, function: k)) == true
                    else { continue }
                }
                // A requesting function of the extension is reported at its own request.
                if case .through(_, _, let candidates) = route,
                    candidates.contains(where: { tree.swiftFiles[$0.file].role == .widgetExtension })
                {
                    continue
                }
                let place = index.enclosingFunction(of: call).map { " in `\($0.selector)`" } ?? ""
                let shared = file.targets.count > 1 ? " (the file is built into the app and the extension)" : ""
                findings.append(
                    finding(
                        file.path, call.location,
                        "\(graph.explain(route, call: call, inFile: f)) from the widget extension\(place)\(shared)",
                        fix: "fetch in the app or its background task, store the result in the App Group, and have the widget read it",
                        severity: route.byNameOnly ? .warning : nil))
            }
        }
        return findings
    }

    package var examples: [LintRuleExample] {
        [
            LintRuleExample(
                "Data(contentsOf:) of a remote URL is a request; of a bundled file it is not",
                files: [
                    "Widget/Provider.swift": """
                    import WidgetKit
                    let quoteURL = URL(string: "https://api.example.com/quote")!
                    struct Provider: TimelineProvider {
                        func getTimeline(in context: Context, completion: @escaping (Timeline<Entry>) -> Void) {
                            let sample = try? Data(contentsOf: Bundle.main.url(forResource: "sample", withExtension: "json")!)
                            let data = try? ↓Data(contentsOf: quoteURL)
                            completion(Timeline(entries: [.init(date: .now, data: data ?? sample)], policy: .atEnd))
                        }
                        func placeholder(in context: Context) -> Entry { .init(date: .now, data: nil) }
                    }
                    """
                ]),
            LintRuleExample(
                "a value made by a factory method is of the factory's stated result type; `self` in a protocol extension is any conformer",
                files: [
                    "Widget/Provider.swift": """
                    import WidgetKit
                    struct Provider: TimelineProvider {
                        func getTimeline(in context: Context, completion: @escaping (Timeline<Entry>) -> Void) {
                            Task {
                                let builder = Builder()
                                let usecase = await builder.makeUsecase()
                                let cache = builder.makeCache()
                                let text = try await usecase.↓headline() + cache.headline()
                                completion(Timeline(entries: [Entry(text: text)], policy: .atEnd))
                            }
                        }
                        func placeholder(in context: Context) -> Entry { Entry(text: "…") }
                    }
                    """,
                    "Shared/Headlines.swift": """
                    import Foundation
                    struct Builder {
                        func makeUsecase() async -> any HeadlineUsecase { RemoteHeadlines() }
                        func makeCache() -> CachedHeadlines { CachedHeadlines() }
                    }
                    protocol HeadlineUsecase { func headline(language: String) async throws -> String }
                    extension HeadlineUsecase {
                        func headline() async throws -> String { try await self.headline(language: "en") }
                    }
                    struct RemoteHeadlines: HeadlineUsecase {
                        func headline(language: String) async throws -> String {
                            let (data, _) = try await URLSession.shared.data(from: URL(string: "https://api.example.com/\\(language)")!)
                            return String(decoding: data, as: UTF8.self)
                        }
                    }
                    struct CachedHeadlines {
                        func headline() -> String { UserDefaults(suiteName: "group.x")?.string(forKey: "h") ?? "" }
                    }
                    """,
                ]),
            LintRuleExample(
                "a provider whose conformance carries an attribute is a provider",
                files: [
                    "Widget/Provider.swift": """
                    import WidgetKit
                    struct Provider: @preconcurrency TimelineProvider {
                        func getTimeline(in context: Context, completion: @escaping (Timeline<Entry>) -> Void) {
                            Task {
                                _ = try? await URLSession.shared.↓data(from: URL(string: "https://api.example.com/q")!)
                                completion(Timeline(entries: [.init(date: .now)], policy: .atEnd))
                            }
                        }
                        func placeholder(in context: Context) -> Entry { .init(date: .now) }
                    }
                    """
                ]),
            LintRuleExample(
                "the widget's store shares a name with the app's fetching view model; the receiver's type decides",
                files: [
                    "Widget/Provider.swift": """
                    import WidgetKit
                    struct Provider: TimelineProvider {
                        let store: WidgetStore
                        func getTimeline(in context: Context, completion: @escaping (Timeline<Entry>) -> Void) {
                            let text = store.loadData()
                            completion(Timeline(entries: [.init(date: .now, text: text)], policy: .never))
                        }
                        func placeholder(in context: Context) -> Entry { .placeholder() }
                    }
                    struct WidgetStore {
                        var cached: String {
                            get { UserDefaults(suiteName: "group.x")?.string(forKey: "t") ?? "" }
                            set(newValue) { UserDefaults(suiteName: "group.x")?.set(newValue, forKey: "t") }
                        }
                        func loadData() -> String { cached }
                    }
                    """,
                    "App/ViewModel.swift": """
                    import Foundation
                    final class ViewModel {
                        func loadData() async throws -> Data { try await URLSession.shared.data(from: URL(string: "https://x")!).0 }
                        func set(_ value: String, forKey key: String) async throws { _ = try await loadData() }
                        static func placeholder() async throws -> Data { try await URLSession.shared.data(from: URL(string: "https://y")!).0 }
                        init() { Task { _ = try? await URLSession.shared.data(from: URL(string: "https://z")!) } }
                    }
                    """,
                ]),
            LintRuleExample(
                "the exact labels pick the function (`load()` reads the disk, `load(from:)` fetches); a bare `get(…)` is a call",
                files: [
                    "Widget/Provider.swift": """
                    import WidgetKit
                    struct Provider: TimelineProvider {
                        let store: Store
                        let client: QuoteClient
                        func getTimeline(in context: Context, completion: @escaping (Timeline<Entry>) -> Void) {
                            let cached = store.load()
                            Task { _ = try? await client.↓quote() }
                            completion(Timeline(entries: [Entry(date: .now, text: cached)], policy: .never))
                        }
                    }
                    """,
                    "Shared/Store.swift": """
                    import Foundation
                    struct Store {
                        func load() -> String { (try? String(contentsOfFile: "/x", encoding: .utf8)) ?? "" }
                        func load(from url: URL) async throws -> Data { try await URLSession.shared.data(from: url).0 }
                    }
                    struct QuoteClient {
                        func quote() async throws -> Data { try await get("/quote") }
                        func get(_ path: String) async throws -> Data { try await URLSession.shared.data(from: URL(string: path)!).0 }
                    }
                    """,
                ]),
            LintRuleExample(
                "a call on a value of a protocol type runs its conformers; one on an unstated type is a warning",
                files: [
                    "Widget/Provider.swift": """
                    import WidgetKit
                    struct Provider: TimelineProvider {
                        let api: WeatherAPI
                        func getTimeline(in context: Context, completion: @escaping (Timeline<Entry>) -> Void) {
                            Task {
                                let now = try await api.↓forecast()
                                let later = try await Provider.makeClient().↓forecast()
                                completion(Timeline(entries: [Entry(date: .now, text: now + later)], policy: .never))
                            }
                        }
                    }
                    """,
                    "Shared/WeatherAPI.swift": """
                    import Foundation
                    protocol WeatherAPI { func forecast() async throws -> String }
                    struct LiveWeatherAPI: WeatherAPI {
                        func forecast() async throws -> String {
                            String(decoding: try await URLSession.shared.data(from: URL(string: "https://x")!).0, as: UTF8.self)
                        }
                    }
                    """,
                ]),
            LintRuleExample(
                "URLSession behind a protocol the app declares: a call on the protocol, and one in its extension",
                files: [
                    "Widget/Provider.swift": """
                    import WidgetKit
                    struct Provider: TimelineProvider {
                        let loader: DataLoader = URLSession.shared
                        func getTimeline(in context: Context, completion: @escaping (Timeline<Entry>) -> Void) {
                            Task {
                                let url = URL(string: "https://api.example.com/quote")!
                                let (data, _) = try await loader.↓data(for: URLRequest(url: url))
                                let more = try await loader.↓json(from: url)
                                completion(Timeline(entries: [Entry(date: .now, size: data.count + more.count)], policy: .atEnd))
                            }
                        }
                    }
                    """,
                    "Shared/DataLoader.swift": """
                    import Foundation
                    protocol DataLoader { func data(for request: URLRequest) async throws -> (Data, URLResponse) }
                    extension URLSession: DataLoader {}
                    extension DataLoader {
                        func json(from url: URL) async throws -> Data { try await data(for: URLRequest(url: url)).0 }
                    }
                    """,
                ]),
            LintRuleExample(
                "a dependency client's closures: the live one requests; a value of another client type with the same name does not",
                files: [
                    "Widget/Provider.swift": """
                    import WidgetKit
                    struct Provider: TimelineProvider {
                        let news: NewsClient
                        let cache: NewsCache
                        func getTimeline(in context: Context, completion: @escaping (Timeline<Entry>) -> Void) {
                            Task {
                                let cached = try cache.topics()
                                let fresh = try await news.↓topics()
                                completion(Timeline(entries: [Entry(date: .now, count: cached.count + fresh.count)], policy: .atEnd))
                            }
                        }
                    }
                    """,
                    "Shared/NewsClient.swift": """
                    import Foundation
                    struct NewsClient {
                        var topics: @Sendable () async throws -> [String]
                    }
                    extension NewsClient {
                        static let live = NewsClient(topics: {
                            let (data, _) = try await URLSession.shared.data(from: URL(string: "https://news.example.com/topics")!)
                            return [String(decoding: data, as: UTF8.self)]
                        })
                    }
                    struct NewsCache {
                        var topics: @Sendable () throws -> [String]
                        static let live = NewsCache(topics: { UserDefaults(suiteName: "group.news")?.stringArray(forKey: "t") ?? [] })
                    }
                    """,
                ]),
            LintRuleExample(
                "Data(contentsOf:) of an artwork URL the code does not show to be a file: a warning; of a file URL: nothing",
                files: [
                    "Widget/Info.plist": AppGroupMismatchRule.widgetInfo,
                    "Widget/Episode.swift": """
                    import Foundation
                    struct Episode {
                        var artworkURL: URL?
                        var fileURL: URL?
                        func artwork() -> Data? {
                            guard let artworkURL else { return nil }
                            return try? ↓Data(contentsOf: artworkURL)
                        }
                        func saved() -> Data? {
                            guard let fileURL else { return nil }
                            return try? Data(contentsOf: fileURL)
                        }
                    }
                    """,
                ]),
            LintRuleExample(
                "a store protocol with a remote and a local conformer: the call may run either (a warning); previews are not read",
                files: [
                    "Widget/Provider.swift": """
                    import WidgetKit
                    import SwiftUI
                    struct Provider: TimelineProvider {
                        let store: any QuoteStore
                        func getTimeline(in context: Context, completion: @escaping (Timeline<Entry>) -> Void) {
                            Task {
                                let text = try await store.↓quote()
                                completion(Timeline(entries: [Entry(date: .now, text: text)], policy: .never))
                            }
                        }
                    }
                    struct QuoteView_Previews: PreviewProvider {
                        static var previews: some View { Text("x").task { _ = try? await RemoteQuoteStore().quote() } }
                    }
                    #Preview {
                        Text("y").task { _ = try? await RemoteQuoteStore().quote() }
                    }
                    """,
                    "Shared/QuoteStore.swift": """
                    import Foundation
                    protocol QuoteStore { func quote() async throws -> String }
                    struct RemoteQuoteStore: QuoteStore {
                        func quote() async throws -> String {
                            String(decoding: try await URLSession.shared.data(from: URL(string: "https://api.example.com/q")!).0, as: UTF8.self)
                        }
                    }
                    struct LocalQuoteStore: QuoteStore {
                        func quote() async throws -> String { UserDefaults(suiteName: "group.q")?.string(forKey: "q") ?? "" }
                    }
                    """,
                ]),
            LintRuleExample(
                "SDK clients of other names (a network manager, Alamofire); a key store's `get` is no request",
                files: [
                    "Widget/Provider.swift": """
                    import WidgetKit
                    import Alamofire
                    import MarketKit
                    struct Provider: TimelineProvider {
                        func getTimeline(in context: Context, completion: @escaping (Timeline<Entry>) -> Void) {
                            NetworkManager.shared.↓fetch(url: "https://api.example.com/quote") { _ in }
                            AF.↓request("https://api.example.com/quote").responseData { _ in }
                            let key = APIKeyStore.shared.get("quotes")
                            completion(Timeline(entries: [Entry(date: .now, key: key)], policy: .atEnd))
                        }
                    }
                    """
                ]),
            LintRuleExample(
                "a library's network client (HAKit's connection) whose code the tree does not hold",
                files: [
                    "Widget/Provider.swift": """
                    import WidgetKit
                    import HAKit
                    struct Provider: TimelineProvider {
                        let connection: HAConnection
                        func getTimeline(in context: Context, completion: @escaping (Timeline<Entry>) -> Void) {
                            connection.↓send(.init(type: .rest(.get, "states/sun.sun"))) { _ in }
                            let values = [1, 2].map { $0 * 2 }
                            _ = values.contains(2)
                        }
                    }
                    """
                ]),
            LintRuleExample(
                "getTimeline calls URLSession, and calls a fetcher defined in the app",
                files: [
                    "Widget/TipWidget.swift": """
                    import WidgetKit
                    struct Provider: TimelineProvider {
                        func getTimeline(in context: Context, completion: @escaping (Timeline<Entry>) -> Void) {
                            URLSession.shared.↓dataTask(with: URL(string: "https://example.com")!) { _, _, _ in }.resume()
                            Task { try? await Fetcher().↓fetch() }
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
                "a helper in the extension requests: reported once, at its own request",
                files: [
                    "Widget/Info.plist": AppGroupMismatchRule.widgetInfo,
                    "Widget/Client.swift": """
                    import Foundation
                    struct Client {
                        let session = URLSession(configuration: .ephemeral)
                        func load() async throws -> Data {
                            try await session.↓data(for: URLRequest(url: URL(string: "https://x")!)).0
                        }
                        func refresh() async { _ = try? await load() }
                    }
                    """,
                ]),
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
                "overloads with the same labels told apart by their arguments' types: a key reads defaults, a URL fetches",
                files: [
                    "Widget/Provider.swift": """
                    import WidgetKit
                    struct Provider: TimelineProvider {
                        let store: Store
                        func getTimeline(in context: Context, completion: @escaping (Timeline<Entry>) -> Void) {
                            let cached = store.load("quote")
                            let count = store.count(3)
                            Task { _ = try? await store.↓load(URL(string: "https://api.example.com/quote")!) }
                            completion(Timeline(entries: [Entry(date: .now, text: cached + "\\(count)")], policy: .never))
                        }
                    }
                    """,
                    "Shared/Store.swift": """
                    import Foundation
                    struct Store {
                        func load(_ key: String) -> String { UserDefaults(suiteName: "group.x")?.string(forKey: key) ?? "" }
                        func load(_ url: URL) async throws -> Data { try await URLSession.shared.data(from: url).0 }
                        func count(_ limit: Int) -> Int { limit }
                        func count(_ feed: String) async throws -> Int { try await URLSession.shared.data(from: URL(string: feed)!).0.count }
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

extension WidgetNetworkCallRule {
    /// The index in `functions` of the function whose body holds `block`.
    static func enclosingFunctionIndex(_ index: SwiftFileIndex, _ block: Int?) -> Int? {
        var b = block
        while let k = b {
            if let function = index.blocks[k].function { return function }
            b = index.blocks[k].parent
        }
        return nil
    }

    /// Something to check: a Swift file of the widget extension.
    package func hasSomethingToCheck(_ source: LintSource) -> Bool {
        source.tree.swiftFiles.contains { $0.role == .widgetExtension }
    }
}
