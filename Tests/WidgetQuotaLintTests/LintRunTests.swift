import Foundation
import Testing
import WidgetQuotaLint
import WidgetQuotaModel
import WidgetQuotaSupport
import WidgetQuotaTestSupport

/// The lint run around the rules: configuration, directives, order, file roles.
@Suite("Lint run")
struct LintRunTests {
    /// A rule for these tests: every call named `flag(…)` is a finding of `rule`.
    struct FlagRule: LintRule {
        static let description = ChecklistRule.requestTimeout.lintDescription
        var examples: [LintRuleExample] { [] }
        func check(_ source: LintSource) -> [Finding] {
            source.tree.swiftFiles.flatMap { file in
                file.index.calls(named: "flag").map { finding(file.path, $0.location, "flagged", fix: "unflag") }
            }
        }
    }

    /// A small app tree: an app file, a widget extension folder, and optional extra files.
    static func tree(_ extra: [String: String] = [:]) throws -> TemporaryDirectory {
        let tmp = try TemporaryDirectory()
        var files = [
            "App/Main.swift": "func a() {\n    flag()\n}\nfunc b() {\n    flag()\n}\n",
            "Widget/Info.plist": """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>NSExtension</key><dict><key>NSExtensionPointIdentifier</key>\
            <string>com.apple.widgetkit-extension</string></dict></dict></plist>
            """,
            "Widget/W.swift": "struct P: TimelineProvider {\n    func f() { flag() }\n}\n",
            "App/App.entitlements": """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict></dict></plist>
            """,
        ]
        for (k, v) in extra { files[k] = v }
        for (path, text) in files {
            let url = tmp.url.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        return tmp
    }

    static func run(_ tmp: TemporaryDirectory, _ configuration: LintConfiguration? = nil, rules: [any LintRule] = [FlagRule()])
        throws -> LintReport
    {
        try LintRun(paths: [tmp.path], configuration: configuration, rules: rules).run().report
    }

    @Test("findings are sorted by file and line, and every file read is listed with its role")
    func orderAndRoles() throws {
        let tmp = try Self.tree()
        let report = try Self.run(tmp)
        #expect(report.findings.map(\.location.description) == ["App/Main.swift:2:5", "App/Main.swift:5:5", "Widget/W.swift:2:16"])
        #expect(
            report.files == [
                .init(path: "App/App.entitlements", role: .entitlements), .init(path: "App/Main.swift", role: .app),
                .init(path: "Widget/Info.plist", role: .propertyList), .init(path: "Widget/W.swift", role: .widget),
            ])
        #expect(report.suppressed == 0)
    }

    @Test("a rule the tree gives nothing to look at is neither passed nor broken: nothing to check")
    func nothingToCheck() throws {
        let tmp = try Self.tree()
        let report = try Self.run(tmp, rules: LintRules.all)
        // No background task, no snapshot, no timeline, no reload, no request in this tree.
        for rule in [ChecklistRule.backgroundTaskSetup, .backgroundTaskCompletion, .snapshotNetwork, .snapshotPreview, .reloadMisuse] {
            #expect(report.nothingToCheck.contains(rule), "\(rule)")
            #expect(!report.rulesPassed.contains(rule), "\(rule)")
        }
        // The widget extension has a file, so the network rule had something to check, and passed.
        #expect(report.rulesPassed.contains(.widgetNetworkCall))
        #expect(Set(report.rulesPassed).isDisjoint(with: report.nothingToCheck))
        #expect(Set(report.rulesBroken).isDisjoint(with: report.nothingToCheck))
    }

    @Test("the configuration file in the folder excludes files, disables rules and changes severities")
    func configurationFile() throws {
        let tmp = try Self.tree([
            ".widget-quota-lint.json": #"{"exclude": ["Widget/**"], "severity": {"request-timeout": "error"}}"#
        ])
        let report = try Self.run(tmp)
        #expect(report.findings.count == 2)
        #expect(report.findings.allSatisfy { $0.severity == .error && $0.location.file == "App/Main.swift" })
        #expect(!report.files.contains { $0.path.hasPrefix("Widget/") })

        let disabled = try Self.run(tmp, LintConfiguration(disabled: [.requestTimeout]))
        #expect(disabled.findings.isEmpty)
        #expect(disabled.suppressed == 3, "an explicit configuration replaces the folder's: nothing excluded")
    }

    @Test("inline directives silence their lines and the file; a typo is reported, not applied")
    func directives() throws {
        let tmp = try Self.tree([
            "App/Main.swift": """
            func a() {
                flag()  // widget-quota:disable request-timeout
            }
            func b() {
                // widget-quota:disable request-timout
                flag()
            }
            """,
            "Widget/W.swift": "// widget-quota:disable-file all\nstruct P: TimelineProvider {\n    func f() { flag() }\n}\n",
        ])
        let report = try Self.run(tmp)
        #expect(report.findings.map(\.location.description) == ["App/Main.swift:6:5"])
        #expect(report.suppressed == 2)
        #expect(report.directiveProblems.map(\.location.description) == ["App/Main.swift:5"])
        #expect(report.directiveProblems.first?.message.contains("request-timeout") == true)
    }

    @Test("a missing path and a tree without Swift files exit 66")
    func noInput() throws {
        #expect(throws: WidgetQuotaError.self) { try LintRun(paths: ["/no/such/folder"]).run() }
        let tmp = try TemporaryDirectory()
        try "x".write(toFile: tmp.path + "/README.md", atomically: true, encoding: .utf8)
        do {
            _ = try LintRun(paths: [tmp.path]).run()
            Issue.record("no error")
        } catch let error as WidgetQuotaError {
            #expect(error.exitCode == .noInput)
        }
    }

    @Test("a files' design name comes from the app folder")
    func designName() {
        #expect(DesignReader.designName(forFolder: "/x/broken-app") == "broken-app")
        #expect(DesignReader.designName(forFolder: "/x/My App_2") == "my-app-2")
        #expect(DesignReader.designName(forFolder: "/x/direct") == "direct-from-source")
    }
}
