import Foundation
import WidgetQuotaLint
import WidgetQuotaSwiftSource

/// Measures `lint` on a generated tree of Swift files of at least `lines` lines in all: reading
/// the app's source (`AppSourceTree.load`: listing, reading, lexing and indexing every Swift
/// file, reading the property lists, assigning targets), and the whole `LintRun` (reading, every
/// rule, the configuration and directives, the design read from the code; not the projection).
///
/// The tree is read `rounds` times, and linted `rounds` times, and each figure is the fastest round (a shared machine's slow
/// spell then costs one round, not the figure).
package struct LintBenchmark: Sendable {
    package struct Figure: Sendable, Codable {
        package var files: Int
        package var lines: Int
        package var bytes: Int
        package var tokens: Int
        package var calls: Int
        /// The fastest round.
        package var seconds: Double
        package var linesPerSecond: Double
        /// Seconds of every round, in order.
        package var roundSeconds: [Double]
        /// The whole lint run's fastest round, reading included.
        package var runSeconds: Double
        /// Seconds of every lint-run round, in order.
        package var runRoundSeconds: [Double]
        /// Findings of the lint run (the generated code breaks several rules on purpose).
        package var findings: Int
        /// `widget-quota lint` on the tree as a process of its own (JSON to /dev/null): its wall
        /// time and peak resident memory in bytes; nil without an executable to run.
        package var processSeconds: Double?
        package var processPeakBytes: Int?
    }

    package let lines: Int
    package let rounds: Int
    /// Lines per generated file.
    package let linesPerFile = 500

    package init(lines: Int = 250_000, rounds: Int = 3) {
        self.lines = max(1, lines)
        self.rounds = max(1, rounds)
    }

    /// One generated file: a timeline provider or a view model, with the calls, closures,
    /// strings, comments and control flow of real widget code, about `linesPerFile` lines. As in
    /// a real app, many types share method names (`load()`, `refresh()`, `entry()`), and each
    /// calls into the file before it, so call resolution meets every name many times over and
    /// the call graph is deep.
    package func fileText(_ n: Int, widget: Bool) -> String {
        var text = """
            import Foundation
            import WidgetKit
            #if canImport(BackgroundTasks)
                import BackgroundTasks
            #endif

            /// Generated file \(n) for the lint benchmark.
            \(widget ? "struct Provider\(n): TimelineProvider {" : "final class Model\(n): ObservableObject {")
                let ttl\(n): TimeInterval = 30 * 60
                private let suite = UserDefaults(suiteName: "group.com.example.app\(n)")
                let store = Store\(n)()

                func load() async throws -> Int { try await store.load() }
                func refresh() { store.save(suite?.string(forKey: "k") ?? "") }
                func entry() -> Int { store.cached.count }
            \(widget ? """
                    func getTimeline(in context: Context, completion: @escaping (Timeline<Entry>) -> Void) {
                        Task { _ = try? await load() }
                    }
                """ : "")
            }

            final class Store\(n) {
                var cached: [String] = []
                private let previous = \(n > 0 ? "Store\(n - 1)()" : "URLSession.shared")
                func load() async throws -> Int {
                    \(n > 0 ? "try await previous.load()" : "try await previous.data(from: URL(string: \"https://x\")!).0.count")
                }
                func save(_ text: String) { cached.append(text) }
                func refresh() { cached.removeAll() }

            """
        var k = 0
        while text.utf8.count < linesPerFile * 44 {
            text += """
                    /* Fetches part \(k); /* nested */ comments and "quotes" in comments are not code. */
                    func fetch\(k)(in context: Context, completion: @escaping (Int) -> Void) {
                        var request = URLRequest(url: URL(string: "https://api.example.com/v1/items/\\(\(k))?limit=\(k)")!)
                        request.timeoutInterval = 10
                        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
                        Task {
                            do {
                                let (data, _) = try await URLSession.shared.data(for: request)
                                for attempt in 0..<3 where data.isEmpty {
                                    print("attempt \\(attempt) of \\("three \\(k)")")
                                }
                                WidgetCenter.shared.reloadTimelines(ofKind: "Kind\(k)")
                                completion(data.count)
                            } catch {
                                completion(-1)  // a failure keeps the cache
                            }
                        }
                        let body = #\"""
                            {"contents": [{"parts": [{"text": "item \(k)"}]}], "generationConfig": {"maxOutputTokens": 256}}
                            \"""#
                        _ = body
                    }

                """
            k += 1
        }
        return text + "}\n"
    }

    /// Writes the tree under `folder`: an app and a widget extension with their Info.plist and
    /// entitlements. Returns the Swift files' total lines.
    package func generate(in folder: String) throws -> Int {
        let fm = FileManager.default
        var written = 0
        var n = 0
        for side in ["App", "WidgetExtension"] {
            try fm.createDirectory(atPath: folder + "/" + side, withIntermediateDirectories: true)
            let point =
                side == "App"
                ? ""
                : "<key>NSExtension</key><dict><key>NSExtensionPointIdentifier</key><string>com.apple.widgetkit-extension</string></dict>"
            try Data("<?xml version=\"1.0\"?><plist version=\"1.0\"><dict>\(point)</dict></plist>\n".utf8)
                .write(to: URL(fileURLWithPath: folder + "/" + side + "/Info.plist"))
            try Data(
                "<plist version=\"1.0\"><dict><key>com.apple.security.application-groups</key><array><string>group.com.example.app</string></array></dict></plist>\n"
                    .utf8
            ).write(to: URL(fileURLWithPath: folder + "/" + side + "/\(side).entitlements"))
        }
        while written < lines {
            let widget = n % 4 == 0
            let text = fileText(n, widget: widget)
            try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/" + (widget ? "WidgetExtension" : "App") + "/File\(n).swift"))
            written += text.utf8.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
            n += 1
        }
        return written
    }

    /// Generates the tree in a new folder under `directory`, reads it `rounds` times, lints it
    /// `rounds` times, lints it once more with `executable` (a `widget-quota` binary) as a child
    /// process when given, and removes it.
    package func measure(directory: String, executable: String? = nil) throws -> Figure {
        let folder = directory + "/widget-quota-lint-bench-\(ProcessInfo.processInfo.processIdentifier)"
        try? FileManager.default.removeItem(atPath: folder)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let total = try generate(in: folder)
        // First, while this process is small: a child's peak memory counts its parent's before exec.
        let process = try executable.map {
            try ChildProcess.run($0, ["lint", folder, "--format", "json", "--out", "/dev/null", "--fail-on", "never", "--quiet"])
        }
        var times = [Double]()
        var tree: AppSourceTree?
        for _ in 0..<rounds {
            let (t, seconds) = try ResourceUsage.time { try AppSourceTree.load(paths: [folder]) }
            times.append(seconds)
            tree = t
        }
        var runTimes = [Double]()
        var findings = 0
        for _ in 0..<rounds {
            let (outcome, seconds) = try ResourceUsage.time { try LintRun(paths: [folder]).run() }
            runTimes.append(seconds)
            findings = outcome.report.findings.count
        }
        let files = tree?.swiftFiles ?? []
        let bytes = files.reduce(0) { $0 + ($1.index.tokens.last?.end ?? 0) }
        let best = times.min() ?? 0
        return Figure(
            files: files.count, lines: total, bytes: bytes, tokens: files.reduce(0) { $0 + $1.index.tokens.count },
            calls: files.reduce(0) { $0 + $1.index.calls.count }, seconds: best, linesPerSecond: best > 0 ? Double(total) / best : 0,
            roundSeconds: times, runSeconds: runTimes.min() ?? 0, runRoundSeconds: runTimes, findings: findings,
            processSeconds: process?.seconds, processPeakBytes: process?.peakResidentBytes)
    }
}
