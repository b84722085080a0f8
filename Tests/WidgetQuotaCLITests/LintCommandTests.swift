import Foundation
import Testing
import WidgetQuotaKit
import WidgetQuotaLint
import WidgetQuotaModel
import WidgetQuotaSupport
import WidgetQuotaTestSupport

/// `widget-quota lint` end to end: exit codes, formats, the emitted scenario, and no key printed.
@Suite("Lint command")
struct LintCommandTests {
    static func app(_ name: String) -> String { Fixtures.path("apps/\(name)") }
    /// The body of the fake key in the fixtures: no output may hold it.
    static let keyBody = "FAKE-KEY-FOR-TESTS"

    @Test("usage errors exit 64, a missing path 66, a bad configuration 65")
    func exitCodes() throws {
        #expect(TestSupport.cli(["lint"]).code == .usage)
        #expect(TestSupport.cli(["lint", Self.app("cache-app"), "--format", "xml"]).code == .usage)
        #expect(TestSupport.cli(["lint", Self.app("cache-app"), "--fail-on", "warnings"]).code == .usage)
        #expect(TestSupport.cli(["lint", Self.app("cache-app"), "--bogus"]).code == .usage)
        let missing = TestSupport.cli(["lint", "/no/such/app"])
        #expect(missing.code == .noInput)
        #expect(missing.err.contains("/no/such/app"))
        let tmp = try TemporaryDirectory()
        let config = try tmp.file("{\n  \"disable\": [\"retry-loops\"]\n}\n", name: "lint.json")
        let bad = TestSupport.cli(["lint", Self.app("cache-app"), "--config", config])
        #expect(bad.code == .dataError)
        #expect(bad.err.contains("lint.json:2"), "\(bad.err)")
        #expect(bad.err.contains("retry-loop"))
    }

    /// One bad file must not cost the whole run: a binary Info.plist and a dangling link are
    /// skipped with the reason, in the report and its JSON.
    @Test("an unreadable Info.plist or a dangling link is skipped with a note, not the end of the run")
    func unreadableFilesAreSkipped() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let copy = try tmp.copyOfApp("cache-app")
        try Data([0x62, 0x70, 0x6C, 0x69, 0x73, 0x74, 0x30, 0x30, 0xD1, 0x01]).write(to: URL(fileURLWithPath: copy + "/Widget/Info.plist"))
        try FileManager.default.createSymbolicLink(atPath: copy + "/Dangling.swift", withDestinationPath: "nowhere.swift")
        let md = TestSupport.cli(["lint", copy])
        #expect(md.code == .success, "\(md.err)")
        #expect(md.out.contains("## Notes on the files read"))
        #expect(md.out.contains("Widget/Info.plist:1: not a property list this program can read"))
        #expect(md.out.contains("Dangling.swift: cannot read: no such file (skipped)"))
        let json = TestSupport.cli(["lint", copy, "--format", "json"])
        let notes = try #require(try JSONValue.parse(Data(json.out.utf8), file: "lint.json")["notes"]?.array)
        #expect(notes.count == 2)
    }

    @Test("--fail-on decides the exit status from the findings that remain")
    func failOn() throws {
        // The cache app breaks no rule: it passes at every threshold.
        for level in ["error", "warning", "note", "never"] {
            #expect(TestSupport.cli(["lint", Self.app("cache-app"), "--fail-on", level, "--quiet"]).code == .success)
        }
        let report = LintReport(
            findings: [Finding(rule: .requestTimeout, location: .init(file: "a.swift", line: 1), message: "m", fix: "f")], files: [])
        #expect(report.exitCode(failOn: .error) == .success)
        #expect(report.exitCode(failOn: .warning) == .thresholdFailed)
        #expect(report.exitCode(failOn: .never) == .success)
    }

    @Test("Markdown, JSON and SARIF: the design sentence and projected requests, the path as typed in SARIF")
    func formats() throws {
        let markdown = TestSupport.cli(["lint", Self.app("direct-widget"), "--quiet"])
        #expect(markdown.code == .success || markdown.code == .thresholdFailed)
        #expect(markdown.out.contains("The widget calls the API itself on every getTimeline and reloads after 15 min."))
        #expect(markdown.out.contains("API requests per user a month (≈"), "\(markdown.out)")
        #expect(markdown.out.contains("with the cache design)"))

        let json = TestSupport.cli(["lint", Self.app("direct-widget"), "--format", "json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        let design = try #require(object["design"] as? [String: Any])
        #expect(design["name"] as? String == "direct-widget")
        let mine = try #require(design["requestsPerUserMonth"] as? Double)
        let cache = try #require(design["baselineRequestsPerUserMonth"] as? Double)
        #expect(mine > 5 * cache, "a widget that calls the API every 15 min: \(mine) against \(cache)")

        let sarif = TestSupport.cli(["lint", Self.app("cache-app"), "--format", "sarif"])
        #expect(sarif.out.contains("\"version\" : \"2.1.0\"") || sarif.out.contains("\"version\":\"2.1.0\""))
    }

    static let formats = ["markdown", "json", "sarif", "github", "xcode"]

    /// Each SARIF result's fingerprint, by rule and line.
    static func fingerprints(_ sarif: String) throws -> [(rule: String, line: Int, fingerprint: String, uri: String)] {
        let root = try #require(try JSONSerialization.jsonObject(with: Data(sarif.utf8)) as? [String: Any])
        let results = try #require(((root["runs"] as? [[String: Any]])?.first)?["results"] as? [[String: Any]])
        return try results.map { result in
            let physical = try #require(((result["locations"] as? [[String: Any]])?.first)?["physicalLocation"] as? [String: Any])
            let region = try #require(physical["region"] as? [String: Any])
            return (
                result["ruleId"] as? String ?? "", region["startLine"] as? Int ?? 0,
                (result["partialFingerprints"] as? [String: String])?[SARIFLog.fingerprintKey] ?? "",
                (physical["artifactLocation"] as? [String: Any])?["uri"] as? String ?? ""
            )
        }
    }

    @Test("SARIF from an absolute path names files from the repository root; fingerprints survive a line inserted above")
    func sarifFromAbsolutePath() throws {
        let tmp = try TemporaryDirectory()
        let app = try tmp.copyOfApp("broken-app")
        try FileManager.default.createDirectory(atPath: tmp.path + "/.git", withIntermediateDirectories: false)
        let before = TestSupport.cli(["lint", app, "--format", "sarif", "--fail-on", "never"])
        let first = try Self.fingerprints(before.out)
        #expect(!first.isEmpty)
        for result in first {
            #expect(result.uri.hasPrefix("app-broken-app/"), "relative to the git top level: \(result.uri)")
            #expect(!result.fingerprint.isEmpty)
        }
        #expect(Set(first.map(\.fingerprint)).count == first.count, "every finding its own fingerprint")
        // A comment and a blank line above every line of one file: each of its findings moves down
        // two lines and keeps its fingerprint.
        let file = try #require(first.first { $0.uri.hasSuffix(".swift") }).uri.dropFirst("app-broken-app/".count)
        let path = app + "/" + file
        let text = try String(contentsOfFile: path, encoding: .utf8)
        try ("// An unrelated edit\n\n" + text).write(toFile: path, atomically: true, encoding: .utf8)
        let after = try Self.fingerprints(TestSupport.cli(["lint", app, "--format", "sarif", "--fail-on", "never"]).out)
        #expect(after.map(\.fingerprint) == first.map(\.fingerprint))
        for (a, b) in zip(first, after) where a.uri.hasSuffix(String(file)) { #expect(b.line == a.line + 2) }
        // --sarif-root names another root.
        let rooted = try Self.fingerprints(TestSupport.cli(["lint", app, "--format", "sarif", "--sarif-root", app]).out)
        #expect(rooted.allSatisfy { !$0.uri.hasPrefix("app-broken-app/") })
        #expect(TestSupport.cli(["lint", app, "--sarif-root", app + "/nope"]).code == .usage)
    }

    @Test("the same tree gives the same bytes, whatever the thread count")
    func deterministic() throws {
        let a = TestSupport.cli(["lint", Self.app("broken-app"), "--format", "json"])
        let b = TestSupport.cli(["lint", Self.app("broken-app"), "--format", "json"])
        #expect(a.out == b.out)
        let job = { (threads: Int) in
            try LintJob(run: LintRun(paths: [Self.app("broken-app")]), threads: threads).execute().report
        }
        #expect(try job(1) == job(2))
    }

    @Test("--emit-scenario writes the design read from the code; simulate --scenario runs it as is")
    func emitScenario() throws {
        let tmp = try TemporaryDirectory()
        for app in ["direct-widget", "cache-app", "broken-app"] {
            let file = tmp.path + "/\(app).json"
            let lint = TestSupport.cli(["lint", Self.app(app), "--emit-scenario", file, "--out", tmp.path + "/\(app).md"])
            #expect(lint.err.contains("Wrote \(file)"))
            let scenario = try ScenarioLoader.load(path: file)
            #expect(scenario.baseline == app)
            #expect(scenario.designs.map(\.name) == [app])
            let run = TestSupport.cli([
                "simulate", "--scenario", file, "--runs", "2", "--sample-users", "100", "--users", "100", "--format", "json",
            ])
            #expect(run.code == .success, "\(app): \(run.err)")
            #expect(run.out.contains("\"design\" : \"\(app)\"") || run.out.contains("\"design\":\"\(app)\""), "\(app)")
        }
    }

    @Test("no output holds the fake key, in any format")
    func noKeyPrinted() throws {
        let tmp = try TemporaryDirectory()
        for app in ["broken-app", "cache-app", "direct-widget", "xcode-project"] {
            for format in LintCommandTests.formats {
                let r = TestSupport.cli(["lint", Self.app(app), "--format", format, "--emit-scenario", tmp.path + "/s.json"])
                #expect(!r.out.contains(Self.keyBody) && !r.err.contains(Self.keyBody), "\(app) \(format)")
                let scenario = try String(contentsOfFile: tmp.path + "/s.json", encoding: .utf8)
                #expect(!scenario.contains(Self.keyBody), "\(app) scenario")
            }
        }
    }

    @Test("Reports/lint.md is what the documented command writes for the broken-app fixture, byte for byte")
    func committedReport() throws {
        let committed = try String(contentsOf: Fixtures.packageURL("Reports/lint.md"), encoding: .utf8)
        let fresh = TestSupport.cli(["lint", Fixtures.packageURL("Tests/WidgetQuotaTestSupport/Fixtures/apps/broken-app").path])
        #expect(
            fresh.out == committed,
            "regenerate: swift run -c release widget-quota lint Tests/WidgetQuotaTestSupport/Fixtures/apps/broken-app --out Reports/lint.md"
        )
        let readme = try String(contentsOf: Fixtures.packageURL("README.md"), encoding: .utf8)
        #expect(readme.contains("widget-quota lint Tests/WidgetQuotaTestSupport/Fixtures/apps/broken-app --out Reports/lint.md"))
    }
}
