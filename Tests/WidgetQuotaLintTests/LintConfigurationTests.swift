import Foundation
import Testing
import WidgetQuotaLint
import WidgetQuotaModel
import WidgetQuotaSupport
import WidgetQuotaTestSupport

@Suite("Lint configuration")
struct LintConfigurationTests {
    static func decode(_ text: String) throws -> LintConfiguration {
        try LintConfiguration.decode(Data(text.utf8), file: "lint.json")
    }

    /// The error `text` raises, as the user sees it.
    static func message(_ text: String) -> String {
        do {
            _ = try decode(text)
            return "no error"
        } catch {
            return "\(error)"
        }
    }

    @Test("a full configuration is read: disabled rules, severities, exclusions")
    func readsEveryKey() throws {
        let c = try Self.decode(
            """
            {"disable": ["retry-loop", "snapshot-preview"],
             "severity": {"request-timeout": "error", "api-key-in-client": "note"},
             "exclude": ["Pods/**", "*Tests/**"]}
            """)
        #expect(c.disabled == [.retryLoop, .snapshotPreview])
        #expect(c.severities == [.requestTimeout: .error, .apiKeyInClient: .note])
        #expect(c.exclude == ["Pods/**", "*Tests/**"])
        #expect(try Self.decode("{}") == LintConfiguration())
    }

    @Test("JSON syntax errors name the file, line and column")
    func syntaxErrorsHaveAPosition() {
        #expect(Self.message("{\n  \"disable\": [\"retry-loop\",]\n}").hasPrefix("lint.json:2:"))
        #expect(Self.message("{\"disable\": [1, 2]}").contains("expected an array of rule ids"))
        #expect(Self.message("").contains("empty"))
        #expect(Self.message("[]").contains("expected a JSON object"))
    }

    @Test("an unknown rule id is rejected with its line and the nearest rule suggested")
    func unknownRuleIDs() {
        let m = Self.message("{\n\"disable\": [\n\"retry-loops\"\n]\n}")
        #expect(m.hasPrefix("lint.json:3: disable: unknown rule id \"retry-loops\""), "\(m)")
        #expect(m.contains("did you mean \"retry-loop\"?"), "\(m)")
        let s = Self.message("{\"severity\": {\"request-timout\": \"error\"}}")
        #expect(s.contains("did you mean \"request-timeout\"?"), "\(s)")
        #expect(!Self.message("{\"disable\": [\"zzzzzz\"]}").contains("did you mean"))
    }

    @Test("unknown keys and severities are rejected with a suggestion")
    func unknownKeysAndSeverities() {
        #expect(Self.message("{\"disabled\": []}").contains("unknown key \"disabled\"; did you mean \"disable\"?"))
        let m = Self.message("{\"severity\": {\"retry-loop\": \"warnig\"}}")
        #expect(m.contains("unknown severity \"warnig\"; did you mean \"warning\"?"), "\(m)")
        #expect(Self.message("{\"severity\": {\"retry-loop\": 2}}").contains("unknown severity"))
        #expect(Self.message("{\"exclude\": [\"\"]}").contains("empty pattern"))
    }

    @Test("configuration errors are data errors (exit 65), a missing file is no input (66)")
    func exitCodes() throws {
        #expect(throws: WidgetQuotaError.self) { try Self.decode("{\"disable\": [\"nope\"]}") }
        do {
            _ = try Self.decode("{\"disable\": [\"nope\"]}")
        } catch let error as WidgetQuotaError {
            #expect(error.exitCode == .dataError)
        }
        do {
            _ = try LintConfiguration.load(path: "/nonexistent/.widget-quota-lint.json")
            Issue.record("no error")
        } catch let error as WidgetQuotaError {
            #expect(error.exitCode == .noInput)
        }
    }

    @Test("the configuration is found in the linted folder, and absent when there is none")
    func findsTheFileInTheFolder() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        #expect(try LintConfiguration.find(in: tmp.path) == nil)
        try #"{"disable": ["retry-loop"]}"#.write(
            toFile: tmp.path + "/" + LintConfiguration.fileName, atomically: true, encoding: .utf8)
        #expect(try LintConfiguration.find(in: tmp.path)?.disabled == [.retryLoop])
    }

    @Test(
        "exclude patterns: * stays in a folder, ** crosses folders, a folder excludes what it holds",
        arguments: [
            ("Pods/**", "Pods/Alamofire/Session.swift", true),
            ("Pods/**", "App/Pods.swift", false),
            ("*Tests/**", "AppTests/FetchTests.swift", true),
            ("*Tests/**", "App/Sub/AppTests/X.swift", false),
            ("**/Generated/*", "App/Generated/Strings.swift", true),
            ("**/Generated/*", "Generated/Strings.swift", true),
            ("**/Generated/*", "App/Generating/Strings.swift", false),
            ("**/Generated/*", "App/Generated/Deep/Strings.swift", true),
            ("Vendor", "Vendor/Lib/File.swift", true),
            ("*.swift", "App/File.swift", false),
            ("App/?ile.swift", "App/File.swift", true),
            ("**", "anything/at/all.swift", true),
        ])
    func globs(pattern: String, path: String, excluded: Bool) {
        #expect(LintConfiguration(exclude: [pattern]).isExcluded(path) == excluded)
    }

    @Test("a long hostile pattern is matched quickly")
    func globIsNotExponential() {
        let pattern = String(repeating: "*a", count: 30) + "b"
        let path = String(repeating: "a", count: 200)
        let start = Date()
        #expect(!LintConfiguration(exclude: [pattern]).isExcluded(path))
        #expect(Date().timeIntervalSince(start) < 2)
    }

    static func finding(_ rule: ChecklistRule, _ file: String, _ line: Int?) -> Finding {
        Finding(rule: rule, location: .init(file: file, line: line, column: 5), message: "m", fix: "f")
    }

    @Test("apply: disabled rules and excluded files are dropped, severities replaced, order stable")
    func appliesTheConfiguration() {
        let c = LintConfiguration(disabled: [.retryLoop], severities: [.requestTimeout: .error], exclude: ["Pods/**"])
        let findings = [
            Self.finding(.requestTimeout, "App/B.swift", 3),
            Self.finding(.retryLoop, "App/A.swift", 9),
            Self.finding(.outputTokenCap, "App/A.swift", 2),
            Self.finding(.requestTimeout, "Pods/X/Y.swift", 1),
        ]
        let (kept, suppressed) = c.apply(to: findings, comments: [])
        #expect(kept.map(\.rule) == [.outputTokenCap, .requestTimeout])
        #expect(kept.map(\.location.file) == ["App/A.swift", "App/B.swift"])
        #expect(kept[1].severity == .error && kept[0].severity == .warning)
        #expect(suppressed == 1)
    }
}
