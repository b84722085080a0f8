import Foundation
import Testing
import WidgetQuotaLint
import WidgetQuotaSupport
import WidgetQuotaTestSupport

/// A baseline keeps the findings it was written from out of later runs, and only those: moved or
/// re-indented code stays known, a new line, a changed line or a second equal finding is new.
@Suite("Lint baseline")
struct LintBaselineTests {
    static let widget = """
        import WidgetKit
        struct Provider: TimelineProvider {
            func getTimeline(in context: Context, completion: @escaping (Timeline<Entry>) -> Void) {
                URLSession.shared.dataTask(with: URL(string: "https://api.example.com/a")!) { _, _, _ in
                    completion(Timeline(entries: [Entry(date: Date())], policy: .after(Date().addingTimeInterval(900))))
                }.resume()
            }
        }
        """

    /// Lints `widget` as `Widget/Provider.swift` of a fresh tree.
    static func lint(_ widget: String) throws -> (LintReport, RepositoryPath) {
        let tmp = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: tmp.path + "/Widget", withIntermediateDirectories: true)
        try widget.write(toFile: tmp.path + "/Widget/Provider.swift", atomically: true, encoding: .utf8)
        let report = try LintRun(paths: [tmp.path]).run().report
        // Paths are named from the tree's root, so two trees in different folders compare.
        return (report, RepositoryPath(base: tmp.path, root: tmp.path))
    }

    @Test("every finding of the run it was written from is left out and counted")
    func sameCode() throws {
        let (report, paths) = try Self.lint(Self.widget)
        #expect(!report.findings.isEmpty)
        let baseline = LintBaseline(report, paths: paths)
        let filtered = baseline.filter(report, paths: paths)
        #expect(filtered.findings.isEmpty)
        #expect(filtered.baselined == report.findings.count)
        #expect(filtered.verdict.hasPrefix("no findings (\(report.findings.count) in the baseline) in 1 file"))
        // Its JSON reads back as it was written.
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("baseline-\(UUID().uuidString).json").path
        try Data(try baseline.render().utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try LintBaseline.load(path: path) == baseline)
    }

    @Test(
        "code moved down or re-indented stays known",
        arguments: ["// a comment\n\n" + widget, widget.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n")])
    func movedCode(moved: String) throws {
        let (before, paths) = try Self.lint(Self.widget)
        let (after, afterPaths) = try Self.lint(moved)
        #expect(after.findings.map(\.location.line) != before.findings.map(\.location.line) || moved.hasPrefix("    "))
        let filtered = LintBaseline(before, paths: paths).filter(after, paths: afterPaths)
        #expect(filtered.findings.isEmpty, "\(filtered.findings.map(\.message))")
    }

    @Test("a second request, equal to the first, is new; so is a changed line")
    func newFindings() throws {
        let (before, paths) = try Self.lint(Self.widget)
        let twice = Self.widget.replacingOccurrences(
            of: "        }.resume()\n",
            with:
                "        }.resume()\n        URLSession.shared.dataTask(with: URL(string: \"https://api.example.com/a\")!) { _, _, _ in }.resume()\n"
        )
        let (after, afterPaths) = try Self.lint(twice)
        let filtered = LintBaseline(before, paths: paths).filter(after, paths: afterPaths)
        #expect(filtered.findings.count == after.findings.count - before.findings.count)
        #expect(filtered.findings.count >= 1)
        #expect(filtered.baselined == before.findings.count)

        let changed = Self.widget.replacingOccurrences(of: "https://api.example.com/a", with: "https://api.example.com/b")
        let (other, otherPaths) = try Self.lint(changed)
        let network = LintBaseline(before, paths: paths).filter(other, paths: otherPaths).findings.filter { $0.rule == .widgetNetworkCall }
        #expect(network.count == 1, "the request's line changed, so its finding is new")
    }

    @Test("a second equal finding keeps the whole run's fingerprint (`…:2`), so code scanning sees a new alert")
    func equalFindingKeepsItsOccurrence() throws {
        let function = { (name: String) in
            "func \(name)() async throws -> Data {\n    let request = URLRequest(url: URL(string: \"https://api.example.com/q\")!)\n"
                + "    return try await URLSession.shared.data(for: request).0\n}\n"
        }
        let one = "import Foundation\n" + function("a")
        let two = one + function("b")
        let (before, paths) = try Self.lint(one)
        let (after, afterPaths) = try Self.lint(two)
        #expect(before.findings.filter { $0.rule == .requestTimeout }.count == 1)
        #expect(after.findings.filter { $0.rule == .requestTimeout }.count == 2)
        let (kept, fingerprints) = LintBaseline(before, paths: paths).filtered(after, paths: afterPaths)
        #expect(kept.findings.map(\.rule) == [.requestTimeout])
        #expect(fingerprints.count == 1 && fingerprints[0].hasSuffix(":2"), "\(fingerprints)")
        // The SARIF of the filtered run carries that fingerprint, not a renumbered `:1`.
        let sarif = try SARIFLog.render(kept, paths: afterPaths, fingerprints: fingerprints)
        #expect(sarif.contains(fingerprints[0]))
    }

    @Test(
        "a file that is not a baseline is refused naming it",
        arguments: [#"{"findings": 3}"#, #"{"schemaVersion": 2, "findings": []}"#, "[]", "{"])
    func refused(text: String) throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bad-\(UUID().uuidString).json").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: WidgetQuotaError.self) { try LintBaseline.load(path: path) }
        do { _ = try LintBaseline.load(path: path) } catch let error as WidgetQuotaError {
            #expect(error.exitCode == .dataError)
            #expect(error.description.contains("bad-"))
        }
    }
}
