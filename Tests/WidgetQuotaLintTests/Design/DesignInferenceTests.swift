import Foundation
import Testing
import WidgetQuotaLint
import WidgetQuotaModel
import WidgetQuotaSwiftSource
import WidgetQuotaTestSupport

/// The design read from the fixture apps' code.
@Suite("Design inference")
struct DesignInferenceTests {
    static func read(_ app: String) throws -> DesignInference? {
        let tree = try AppSourceTree.load(paths: [Fixtures.path("apps/\(app)")])
        return DesignReader.read(tree, name: app)
    }

    @Test("the direct widget: the widget fetches in getTimeline with no cache and reloads after 15 min")
    func directWidget() throws {
        let inference = try #require(try Self.read("direct-widget"))
        let d = inference.design
        #expect(inference.preset == "direct")
        #expect(d.name == "direct-widget")
        #expect(d.fetchTriggers == [.getTimeline])
        #expect(d.cacheTTLMinutes == nil)
        #expect(d.reloadPolicy == .after(minutes: 15))
        #expect(d.requestsPerFetch == 1)
        #expect(d.retry == .nextOpportunity)
        #expect(inference.timeoutSeconds == 10)
        #expect(inference.outputTokenCap == 40)
        // Its requests name no model the price table knows: the scenario's is assumed.
        #expect(inference.assumedFields == ["api.model"], "\(inference.assumedFields)")
        #expect(inference.model == nil)
        #expect(inference.sentence == "the widget calls the API itself on every getTimeline and reloads after 15 min")
    }

    @Test("the cache app: the app fetches on open and in a background task into a 6 h cache")
    func cacheApp() throws {
        let inference = try #require(try Self.read("cache-app"))
        let d = inference.design
        #expect(inference.preset == "cache-bgtask")
        #expect(d.fetchTriggers == [.appForeground, .backgroundTask])
        #expect(d.cacheTTLMinutes == 360)
        #expect(d.reloadPolicy == .after(minutes: 360))
        #expect(d.reloadCalls == .onceOnSuccess)
        #expect(d.backgroundIntervalHours == 6)
        #expect(d.requestsPerFetch == 1)
        #expect(d.retry == .nextOpportunity)
        #expect(inference.timeoutSeconds == 15)
        #expect(inference.outputTokenCap == 80)
        #expect(inference.assumedFields == ["api.model"], "\(inference.assumedFields)")
        #expect(inference.sentence.hasPrefix("the app fetches into a 6 h App Group cache on open and in a background task"))
    }

    @Test("the broken app: the widget fetches on every getTimeline, reloads after 10 min, the app retries three times")
    func brokenApp() throws {
        let inference = try #require(try Self.read("broken-app"))
        let d = inference.design
        #expect(inference.preset == "direct")
        #expect(Set(d.fetchTriggers) == [.getTimeline, .backgroundTask])
        #expect(d.cacheTTLMinutes == nil, "the widget does not look at the app's TTL")
        #expect(d.reloadPolicy == .after(minutes: 10))
        #expect(d.reloadCalls == .everyForeground)
        #expect(d.backgroundIntervalHours == 0.25)
        #expect(d.retry == .backoff(maxRetries: 2, baseSeconds: 1, jitter: false))
        #expect(inference.attemptsPerRefresh == 3)
        #expect(inference.timeoutSeconds == 60, "the app's request keeps the 60 s default")
        #expect(inference.outputTokenCap == 60)
        #expect(inference.assumedFields == ["retry.baseSeconds"])
        // Its URL names the model (`…/models/gemini-2.5-flash:generateContent`): the scenario uses it.
        #expect(inference.model == "gemini-2.5-flash")
        #expect(inference.scenario().api.model == "gemini-2.5-flash")
    }

    @Test(
        "a widget that fetches on every getTimeline has no TTL, though it labels its entry stale or fresh",
        arguments: ["isStale: false", "isStale: data == nil"])
    func staleLabelIsNoCheck(argument: String) throws {
        let tmp = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: tmp.path + "/Widget", withIntermediateDirectories: true)
        try """
        import Foundation
        enum QuoteCache { static let ttl: TimeInterval = 6 * 60 * 60 }
        func isFresh(_ saved: Date) -> Bool { Date().timeIntervalSince(saved) < QuoteCache.ttl }
        """.write(toFile: tmp.path + "/Widget/Cache.swift", atomically: true, encoding: .utf8)
        try """
        import WidgetKit
        struct Provider: TimelineProvider {
            func getTimeline(in context: Context, completion: @escaping (Timeline<Entry>) -> Void) {
                URLSession.shared.dataTask(with: URL(string: "https://api.example.com/quote")!) { data, _, _ in
                    let entry = Entry(date: Date(), text: "", \(argument))
                    completion(Timeline(entries: [entry], policy: .after(Date().addingTimeInterval(15 * 60))))
                }.resume()
            }
        }
        """.write(toFile: tmp.path + "/Widget/Provider.swift", atomically: true, encoding: .utf8)
        let tree = try AppSourceTree.load(paths: [tmp.path])
        let inference = try #require(DesignReader.read(tree, name: "w"))
        #expect(inference.design.fetchTriggers == [.getTimeline])
        #expect(inference.design.cacheTTLMinutes == nil, "\(inference.sentence)")
    }

    /// A policy date bound in an `if let` or `guard let` is the date the policy reads (it was
    /// not read, so the `else` branch's `.atEnd` was taken for the widget's policy), and the
    /// `guard`'s fallback timeline does not decide the policy.
    @Test("a policy date bound by if let or guard let is read", arguments: ["if", "guard"])
    func boundPolicyDate(binding: String) throws {
        let tmp = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: tmp.path + "/Widget", withIntermediateDirectories: true)
        let body =
            binding == "if"
            ? """
            if let next = Calendar.current.date(byAdding: .minute, value: 30, to: Date()) {
                        completion(Timeline(entries: [entry], policy: .after(next)))
                    } else {
                        completion(Timeline(entries: [entry], policy: .atEnd))
                    }
            """
            : """
            guard let next: Date = Calendar.current.date(byAdding: .minute, value: 30, to: Date()), true else {
                        return completion(Timeline(entries: [entry], policy: .atEnd))
                    }
                    completion(Timeline(entries: [entry], policy: .after(next)))
            """
        try """
        import WidgetKit
        struct Provider: TimelineProvider {
            func getTimeline(in context: Context, completion: @escaping (Timeline<Entry>) -> Void) {
                URLSession.shared.dataTask(with: URL(string: "https://api.example.com/quote")!) { _, _, _ in }.resume()
                let entry = Entry(date: Date())
                \(body)
            }
        }
        """.write(toFile: tmp.path + "/Widget/Provider.swift", atomically: true, encoding: .utf8)
        let inference = try #require(DesignReader.read(try AppSourceTree.load(paths: [tmp.path]), name: "w"))
        #expect(inference.design.reloadPolicy == .after(minutes: 30), "\(inference.sentence)")
    }

    /// A request per item of a list (a thumbnail per topic, in a task group inside a closure
    /// property's implementation) is counted per item: times the list's size when the timeline
    /// states it (`prefix(n)`), once and assumed when it does not.
    @Test("requests per item of a list count the list's size when the timeline states it", arguments: [5, nil] as [Int?])
    func fanOut(size: Int?) throws {
        let tmp = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: tmp.path + "/Widget", withIntermediateDirectories: true)
        let topics = size.map { "Array(await model.fetchTopics().prefix(\($0)))" } ?? "await model.fetchTopics()"
        try """
        import WidgetKit
        struct TopicsModel {
            var fetchTopics: @Sendable () async -> [URL]
            var fetchThumbnails: @Sendable ([URL]) async -> [Data]
            static var live: Self {
                .init(
                    fetchTopics: {
                        let (data, _) = (try? await URLSession.shared.data(from: URL(string: "https://api.example.com/topics")!)) ?? (Data(), URLResponse())
                        return [URL(string: String(decoding: data, as: UTF8.self))!]
                    },
                    fetchThumbnails: { urls in
                        await withTaskGroup(of: Data.self) { group in
                            for url in urls {
                                group.addTask { (try? await URLSession.shared.data(from: url).0) ?? Data() }
                            }
                            var all = [Data]()
                            for await data in group { all.append(data) }
                            return all
                        }
                    })
            }
        }
        struct Provider: TimelineProvider {
            let model: TopicsModel = .live
            func getTimeline(in context: Context, completion: @escaping (Timeline<Entry>) -> Void) {
                Task {
                    let topics = \(topics)
                    let title = String("Top stories today, from every source we follow".prefix(40))
                    let images = await model.fetchThumbnails(topics)
                    completion(Timeline(entries: [Entry(date: Date(), title: title, images: images)], policy: .after(Date().addingTimeInterval(3600))))
                }
            }
        }
        """.write(toFile: tmp.path + "/Widget/Provider.swift", atomically: true, encoding: .utf8)
        let inference = try #require(DesignReader.read(try AppSourceTree.load(paths: [tmp.path]), name: "w"))
        // Without a stated size, the documented assumption: three items.
        #expect(inference.design.requestsPerFetch == 1 + (size ?? 3), "\(inference.sentence)")
        #expect(inference.assumedFields.contains("requestsPerFetch") == (size == nil))
    }

    /// A request the widget sends only when its stored copy is missing (`if let cached =
    /// loadFromCache(…) { return cached }` first, no age in the condition) does not run on a
    /// typical reload: the widget reads the store. With an age in the condition it is a TTL,
    /// and the widget fetches when the copy is stale.
    @Test("a request behind a cache hit's return is not a fetch on every getTimeline", arguments: ["", ", !cached.isStale"])
    func cacheMissOnly(ageCheck: String) throws {
        let tmp = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: tmp.path + "/Widget", withIntermediateDirectories: true)
        try """
        import WidgetKit
        struct Holidays { var names: [String]; var isStale: Bool }
        enum HolidayStore {
            static func loadFromCache(_ year: Int) -> Holidays? { nil }
            static func load(_ year: Int) async throws -> Holidays {
                if let cached = loadFromCache(year)\(ageCheck) {
                    return cached
                }
                let (data, _) = try await URLSession.shared.data(from: URL(string: "https://api.example.com/holidays/\\(year)")!)
                return Holidays(names: [String(decoding: data, as: UTF8.self)], isStale: false)
            }
        }
        struct Provider: TimelineProvider {
            func getTimeline(in context: Context, completion: @escaping (Timeline<Entry>) -> Void) {
                Task {
                    let holidays = try await HolidayStore.load(2026)
                    completion(Timeline(entries: [Entry(date: Date(), names: holidays.names)], policy: .after(Date().addingTimeInterval(3600))))
                }
            }
        }
        """.write(toFile: tmp.path + "/Widget/Provider.swift", atomically: true, encoding: .utf8)
        let inference = try #require(DesignReader.read(try AppSourceTree.load(paths: [tmp.path]), name: "w"))
        #expect(inference.design.fetchTriggers.contains(.getTimeline) == !ageCheck.isEmpty, "\(inference.sentence)")
    }

    /// A `guard` that returns when a stored value is missing lets what follows run on a hit:
    /// the fetch after it runs on every reload that has the value.
    @Test("a fetch after a guard on a stored value is a fetch on every getTimeline")
    func fetchAfterGuard() throws {
        let tmp = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: tmp.path + "/Widget", withIntermediateDirectories: true)
        try """
        import WidgetKit
        enum LocationCache { static func load() -> String? { UserDefaults(suiteName: "group.w")?.string(forKey: "city") } }
        struct Provider: TimelineProvider {
            func getTimeline(in context: Context, completion: @escaping (Timeline<Entry>) -> Void) {
                Task {
                    guard let city = LocationCache.load() else { return completion(Timeline(entries: [], policy: .never)) }
                    let (data, _) = try await URLSession.shared.data(from: URL(string: "https://api.example.com/weather?q=\\(city)")!)
                    completion(Timeline(entries: [Entry(date: Date(), data: data)], policy: .after(Date().addingTimeInterval(1800))))
                }
            }
        }
        """.write(toFile: tmp.path + "/Widget/Provider.swift", atomically: true, encoding: .utf8)
        let inference = try #require(DesignReader.read(try AppSourceTree.load(paths: [tmp.path]), name: "w"))
        #expect(inference.design.fetchTriggers.contains(.getTimeline), "\(inference.sentence)")
    }

    @Test("fields the code does not show are listed as assumed; a tree that sends no request has no design")
    func assumed() throws {
        let tmp = try TemporaryDirectory()
        let app = tmp.path + "/App"
        try FileManager.default.createDirectory(atPath: app, withIntermediateDirectories: true)
        try """
        import SwiftUI
        struct Screen: View {
            var body: some View {
                Text("x").onAppear { Task { try? await URLSession.shared.data(from: URL(string: "https://e.com")!) } }
            }
        }
        """.write(toFile: app + "/Screen.swift", atomically: true, encoding: .utf8)
        let tree = try AppSourceTree.load(paths: [tmp.path])
        let inference = try #require(DesignReader.read(tree, name: "x"))
        #expect(inference.preset == "cache-on-open")
        #expect(inference.design.fetchTriggers == [.appForeground])
        #expect(
            inference.assumedFields == ["cacheTTLMinutes", "reloadPolicy", "api.outputTokensPerRequest", "api.model"],
            "a bare-URL request keeps the 60 s default: read")
        #expect(inference.design.cacheTTLMinutes == DesignPresets.cacheOnOpen.cacheTTLMinutes)

        try "struct Nothing {}\n".write(toFile: app + "/Screen.swift", atomically: true, encoding: .utf8)
        #expect(DesignReader.read(try AppSourceTree.load(paths: [tmp.path]), name: "x") == nil)
    }

    @Test("the scenario of a design holds it as its only design and baseline, with the timeout and token cap read")
    func scenario() throws {
        let inference = try #require(try Self.read("direct-widget"))
        let s = inference.scenario()
        #expect(s.designs == [inference.design])
        #expect(s.baseline == "direct-widget")
        #expect(s.api.timeoutSeconds == 10)
        #expect(s.api.outputTokensPerRequest == .triangular(min: 10, mode: 20, max: 40))
        try ScenarioValidator.validate(s)
        let decoded = try ScenarioLoader.decode(Data(ScenarioLoader.encode(s).utf8))
        #expect(decoded.designs == s.designs)
    }
}
