import Foundation
import Testing
import WidgetQuotaLint
import WidgetQuotaModel
import WidgetQuotaSwiftSource
import WidgetQuotaTestSupport

/// How many requests a fetch is read to send, and where fetches start.
@Suite("Design inference: requests per fetch")
struct DesignCountingTests {
    static func read(_ files: [String: String]) throws -> DesignInference {
        let tmp = try TemporaryDirectory()
        for (path, text) in files {
            let url = URL(fileURLWithPath: tmp.path + "/" + path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        return try #require(DesignReader.read(try AppSourceTree.load(paths: [tmp.path]), name: "w"))
    }

    static let provider = """
        import WidgetKit
        struct Provider: TimelineProvider {
            let api = WeatherAPI()
            func getTimeline(in context: Context, completion: @escaping (Timeline<Entry>) -> Void) {
                Task {
                    BODY
                    completion(Timeline(entries: [Entry(date: .now)], policy: .after(Date().addingTimeInterval(30 * 60))))
                }
            }
        }
        """

    static let api = """
        import Foundation
        struct WeatherAPI {
            let client = HTTPClient()
            func place() async throws -> Data { try await client.get("https://api.example.com/search") }
            func forecast() async throws -> Data { try await client.get("https://api.example.com/forecast") }
        }
        struct HTTPClient {
            func get(_ path: String) async throws -> Data {
                var request = URLRequest(url: URL(string: path)!)
                request.timeoutInterval = 10
                return try await URLSession.shared.data(for: request).0
            }
        }
        """

    /// The app's own fetches (five requests on open) are not the widget's: a widget that fetches
    /// itself is counted from its timeline.
    @Test("a widget that fetches sends what its timeline reaches, not what the app's fetch does")
    func widgetCountedFromItsTimeline() throws {
        let inference = try Self.read([
            "Widget/Provider.swift": Self.provider.replacingOccurrences(
                of: "BODY", with: "_ = try await api.place()\n            _ = try await api.forecast()"),
            "Shared/WeatherAPI.swift": Self.api,
            "App/Sync.swift": """
            import SwiftUI
            struct Home: View {
                let api = WeatherAPI()
                var body: some View {
                    Text("x").task {
                        for _ in [1] {}
                        _ = try? await api.place(); _ = try? await api.forecast(); _ = try? await api.place()
                        _ = try? await api.forecast(); _ = try? await api.place()
                    }
                }
            }
            """,
        ])
        #expect(inference.design.fetchTriggers.contains(.getTimeline))
        #expect(inference.design.requestsPerFetch == 2, "\(inference.sentence)")
        #expect(!inference.assumedFields.contains("requestsPerFetch"))
    }

    /// The list's size is not stated where the fetch starts: three items, the documented
    /// assumption (`docs/sources.md`), and the field is listed as assumed.
    @Test("a request per item of a list whose size is not stated counts three items, and the count is said to be assumed")
    func fanOutIsAssumed() throws {
        let inference = try Self.read([
            "Widget/Provider.swift": Self.provider.replacingOccurrences(
                of: "BODY", with: "_ = try await api.place()\n            for _ in Favourites.all { _ = try await api.forecast() }"),
            "Shared/WeatherAPI.swift": Self.api + "\nenum Favourites { static let all = [\"a\", \"b\"] }",
        ])
        #expect(inference.design.requestsPerFetch == 1 + 3)
        #expect(inference.assumedFields.contains("requestsPerFetch"), "\(inference.assumedFields)")
    }

    /// One branch of an `if … else` runs: the larger one counts, not both.
    @Test("of an if-else, the branch that sends more counts")
    func branchesAreAlternatives() throws {
        let inference = try Self.read([
            "Widget/Provider.swift": Self.provider.replacingOccurrences(
                of: "BODY",
                with: """
                    if context.family == .systemSmall {
                                _ = try await api.place()
                            } else if context.family == .systemMedium {
                                _ = try await api.place(); _ = try await api.forecast()
                            } else {
                                _ = try await api.forecast()
                            }
                            _ = try await api.place()
                    """),
            "Shared/WeatherAPI.swift": Self.api,
        ])
        #expect(inference.design.requestsPerFetch == 2 + 1, "\(inference.sentence)")
    }

    /// A singleton's `init` runs once a process, however many items a loop around its use has.
    @Test("a singleton whose init requests counts once, inside a loop too")
    func singletonInitCountsOnce() throws {
        let inference = try Self.read([
            "Widget/Provider.swift": Self.provider.replacingOccurrences(
                of: "BODY", with: "for key in [\"a\", \"b\", \"c\", \"d\"] { _ = Lobbies.shared.name(key) }"),
            "Shared/Lobbies.swift": """
            import Foundation
            final class Lobbies {
                static let shared = Lobbies()
                init() { Task { _ = try? await URLSession.shared.data(from: URL(string: "https://api.example.com/lobbies")!) } }
                func name(_ key: String) -> String { key }
            }
            """,
        ])
        #expect(inference.design.fetchTriggers.contains(.getTimeline))
        #expect(inference.design.requestsPerFetch == 1, "\(inference.sentence)")
        #expect(!inference.assumedFields.contains("requestsPerFetch"))
    }

    /// Layers that each call the next several times multiply paths, not requests a fetch can
    /// send in a real app: the count stops at a bound.
    @Test("nested helpers that each call the next four times are counted up to the bound")
    func countIsBounded() throws {
        var layers = ""
        for level in 0..<6 {
            let next = level == 5 ? "_ = try await URLSession.shared.data(from: URL(string: \"https://x\")!)" : "try await l\(level + 1)()"
            layers += "func l\(level)() async throws { \(next); \(next); \(next); \(next) }\n"
        }
        let inference = try Self.read([
            "Widget/Provider.swift": Self.provider.replacingOccurrences(of: "BODY", with: "try await l0()"),
            "Widget/Layers.swift": "import Foundation\n" + layers,
        ])
        #expect(inference.design.requestsPerFetch == 50, "4^6 paths, counted to the bound")
    }

    @Test("an interactive widget whose button's intent calls the server: a request per tap, the widget reads the cache")
    func interactiveIntent() throws {
        let inference = try Self.read([
            "Widget/Provider.swift": """
            import WidgetKit
            import SwiftUI
            import AppIntents
            struct Provider: TimelineProvider {
                func getTimeline(in context: Context, completion: @escaping (Timeline<Entry>) -> Void) {
                    let on = UserDefaults(suiteName: "group.lights")?.bool(forKey: "on") ?? false
                    completion(Timeline(entries: [Entry(date: .now, on: on)], policy: .never))
                }
            }
            struct LightView: View { var body: some View { Button(intent: Toggle()) { Text("Toggle") } } }
            struct Toggle: AppIntent {
                static var title: LocalizedStringResource = "Toggle"
                func perform() async throws -> some IntentResult {
                    _ = try await URLSession.shared.data(for: URLRequest(url: URL(string: "https://lights.example.com")!))
                    return .result()
                }
            }
            """,
            "App/LightsApp.swift": """
            import SwiftUI
            import WidgetKit
            @main struct LightsApp: App {
                var body: some Scene { WindowGroup { Text("x").task { await refresh() } } }
                func refresh() async {
                    _ = try? await URLSession.shared.data(for: URLRequest(url: URL(string: "https://lights.example.com/all")!))
                    WidgetCenter.shared.reloadAllTimelines()
                }
            }
            """,
        ])
        #expect(!inference.design.fetchTriggers.contains(.getTimeline), "\(inference.sentence)")
        #expect(inference.design.interactive)
        #expect(inference.sentence.contains("a tap on its buttons sends a request"), "\(inference.sentence)")
    }
}
