import Foundation
import Testing
import WidgetQuotaLint
import WidgetQuotaModel
import WidgetQuotaSupport

@Suite("Lint report")
struct LintReportTests {
    static let findings = [
        Finding(
            rule: .widgetNetworkCall, location: .init(file: "Widget/TipWidget.swift", line: 25, column: 9),
            message: "getTimeline calls URLSession.shared.dataTask", fix: "read an App Group cache the app fills",
            cost: "≈ 2,900 requests per user a month instead of ≈ 95 with the cache design"),
        Finding(
            rule: .requestTimeout, location: .init(file: "App/Fetch | one.swift", line: 19, column: 23),
            message: "URLRequest without timeoutInterval", fix: "set request.timeoutInterval = 15"),
        Finding(
            rule: .backgroundTaskSetup, severity: .note, location: .init(file: "App/Info.plist"),
            message: "UIBackgroundModes lacks fetch", fix: "add fetch to UIBackgroundModes"),
    ]

    static let files: [LintReport.ReadFile] = [
        .init(path: "App/Fetch | one.swift", role: .app), .init(path: "App/Info.plist", role: .propertyList),
        .init(path: "Widget/TipWidget.swift", role: .widget), .init(path: "Widget/Info.plist", role: .propertyList),
    ]

    static let design = LintDesignSummary(
        name: "read-from-code", sentence: "the widget calls the API itself", requestsPerUserMonth: 2900,
        baselineRequestsPerUserMonth: 95, assumedFields: ["retries"])

    static let report = LintReport(
        findings: findings, files: files, suppressed: 1, design: design,
        directiveProblems: [.init(location: .init(file: "App/A.swift", line: 3), message: "unknown rule id \"x\"")])

    /// Findings under `/repo`, named relative to it.
    static let paths = RepositoryPath(base: "/repo", root: "/repo")

    @Test("the verdict counts severities and files and ends with the design's sentence")
    func verdict() {
        #expect(Self.report.verdict == "1 error, 1 warning, 1 note in 4 files: the widget calls the API itself")
        #expect(LintReport(findings: [], files: [Self.files[0]]).verdict == "no findings in 1 file")
        #expect(Self.report.findings.map(\.location.file) == ["App/Fetch | one.swift", "App/Info.plist", "Widget/TipWidget.swift"])
    }

    @Test("--fail-on: exit 1 when a finding is at or above the level, never with never")
    func failOn() {
        #expect(Self.report.exitCode(failOn: .error) == .thresholdFailed)
        #expect(Self.report.exitCode(failOn: .never) == .success)
        let warningsOnly = LintReport(findings: [Self.findings[1]], files: Self.files)
        #expect(warningsOnly.exitCode(failOn: .error) == .success)
        #expect(warningsOnly.exitCode(failOn: .warning) == .thresholdFailed)
        #expect(warningsOnly.exitCode(failOn: .note) == .thresholdFailed)
        #expect(ExitCode.thresholdFailed.rawValue == 1)
        #expect(LintFailOn.allCases.map(\.rawValue) == ["error", "warning", "note", "never"])
    }

    @Test("Markdown: the verdict first, a row per finding with escaped cells, rationale, passed rules")
    func markdown() {
        let md = LintReportMarkdown.render(Self.report)
        let lines = md.split(separator: "\n").map(String.init)
        #expect(lines[1] == "**1 error, 1 warning, 1 note in 4 files: the widget calls the API itself.**")
        #expect(md.contains("Read 1 app file, 1 widget extension file and 2 property lists; 1 finding suppressed"))
        #expect(md.contains("≈ 2,900 API requests per user a month (≈ 95 with the cache design)"))
        #expect(md.contains("| error | `widget-network-call` | `Widget/TipWidget.swift:25:9` |"))
        #expect(md.contains("`App/Fetch \\| one.swift:19:23`"))
        #expect(md.contains("| note | `bgtask-setup` | `App/Info.plist` |"))
        #expect(md.contains("- **`request-timeout`** (\(ChecklistRule.requestTimeout.title)): \(ChecklistRule.requestTimeout.rationale)"))
        #expect(md.contains("- `retry-loop`: \(ChecklistRule.retryLoop.title)"))
        #expect(!md.contains("- `request-timeout`: "))
        #expect(md.contains("## Directives not understood") && md.contains("`App/A.swift:3`"))
        let rows = lines.filter { $0.hasPrefix("| ") && !$0.hasPrefix("| Severity") && !$0.hasPrefix("| ---") }
        #expect(rows.count == 3)
        let clean = LintReportMarkdown.render(LintReport(findings: [], files: Self.files))
        #expect(!clean.contains("## Findings") && clean.contains("No findings in 4 files"))
        #expect(ChecklistRule.allCases.allSatisfy { clean.contains("`\($0.rawValue)`") })
    }

    @Test("JSON: stable keys, every finding key present (null when unknown), summary counts")
    func json() throws {
        let text = try LintReportJSON.render(Self.report)
        let root = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(Set(root.keys).isSuperset(of: ["schemaVersion", "findings", "design", "summary", "files", "verdict"]))
        #expect(root["schemaVersion"] as? Int == 1)
        let findings = try #require(root["findings"] as? [[String: Any]])
        #expect(findings.count == 3)
        for f in findings {
            #expect(
                Set(f.keys) == [
                    "rule", "severity", "file", "line", "column", "message", "fix", "cost", "title", "repositoryPath", "fingerprint",
                ])
        }
        #expect(findings[1]["line"] is NSNull && findings[1]["cost"] is NSNull)
        #expect(findings[2]["rule"] as? String == "widget-network-call" && findings[2]["line"] as? Int == 25)
        let summary = try #require(root["summary"] as? [String: Any])
        #expect(summary["errors"] as? Int == 1 && summary["warnings"] as? Int == 1 && summary["notes"] as? Int == 1)
        #expect(summary["suppressed"] as? Int == 1 && summary["filesRead"] as? Int == 4)
        #expect((summary["filesByRole"] as? [String: Int])?["property-list"] == 2)
        let design = try #require(root["design"] as? [String: Any])
        #expect(design["requestsPerUserMonth"] as? Double == 2900)
        let none = try LintReportJSON.render(LintReport(findings: [], files: []))
        #expect(none.contains("\"design\" : null"))
        #expect(try LintReportJSON.render(Self.report) == text)
    }

    @Test("SARIF 2.1.0: the keys GitHub code scanning reads, one rule per checklist rule, one result per finding")
    func sarif() throws {
        let text = try SARIFLog.render(Self.report, paths: Self.paths)
        #expect(try SARIFLog.render(Self.report, paths: Self.paths) == text, "not deterministic")
        #expect(text.hasPrefix("{\n  \"$schema\" : \"https://json.schemastore.org/sarif-2.1.0.json\""))
        let root = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(root["version"] as? String == "2.1.0")
        let run = try #require((root["runs"] as? [[String: Any]])?.first)
        let driver = try #require((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
        #expect(driver["name"] as? String == "widget-quota" && driver["version"] as? String == WidgetQuotaVersion.current)
        #expect((driver["informationUri"] as? String)?.hasPrefix("https://") == true)
        let rules = try #require(driver["rules"] as? [[String: Any]])
        #expect(rules.compactMap { $0["id"] as? String } == ChecklistRule.allCases.map(\.rawValue))
        for rule in rules {
            #expect((rule["shortDescription"] as? [String: Any])?["text"] is String)
            #expect((rule["fullDescription"] as? [String: Any])?["text"] is String)
            #expect((rule["help"] as? [String: Any])?["text"] is String)
            #expect(rule["name"] is String)
            #expect(rule["helpUri"] as? String == SARIFLog.defaultInformationURI + "#" + (rule["id"] as? String ?? ""))
            let level = (rule["defaultConfiguration"] as? [String: Any])?["level"] as? String
            #expect(["note", "warning", "error"].contains(level ?? ""))
        }
        let results = try #require(run["results"] as? [[String: Any]])
        #expect(results.count == 3)
        for result in results {
            let id = try #require(result["ruleId"] as? String)
            let index = try #require(result["ruleIndex"] as? Int)
            #expect(rules[index]["id"] as? String == id)
            let message = try #require((result["message"] as? [String: Any])?["text"] as? String)
            #expect(message.contains(". Fix: "), "the first sentence ends before the fix: \(message)")
            let fingerprints = try #require(result["partialFingerprints"] as? [String: String])
            #expect(fingerprints[SARIFLog.fingerprintKey]?.hasSuffix(":1") == true)
            let physical = try #require(((result["locations"] as? [[String: Any]])?.first)?["physicalLocation"] as? [String: Any])
            #expect((physical["artifactLocation"] as? [String: Any])?["uri"] is String)
            #expect((physical["region"] as? [String: Any])?["startLine"] as? Int ?? 0 >= 1)
        }
        let first = try #require(results.first)
        #expect(first["level"] as? String == "warning")
        let location = try #require(((first["locations"] as? [[String: Any]])?.first)?["physicalLocation"] as? [String: Any])
        #expect((location["artifactLocation"] as? [String: Any])?["uri"] as? String == "App/Fetch%20%7C%20one.swift")
        #expect((location["region"] as? [String: Any])?["startColumn"] as? Int == 23)
        let plist = try #require(((results[1]["locations"] as? [[String: Any]])?.first)?["physicalLocation"] as? [String: Any])
        #expect((plist["region"] as? [String: Any])?["startLine"] as? Int == 1)
        #expect(results[1]["level"] as? String == "note")
        let prefixed = try SARIFLog.render(Self.report, paths: RepositoryPath(base: "/repo/./MyApp/", root: "/repo"))
        #expect(prefixed.contains("\"uri\" : \"MyApp/App/Fetch%20%7C%20one.swift\""))
        let outside = try SARIFLog.render(Self.report, paths: RepositoryPath(base: "/elsewhere/App", root: "/repo"))
        #expect(outside.contains("\"uri\" : \"file:///elsewhere/App/App/Fetch%20%7C%20one.swift\""))
        let invocation = try #require((run["invocations"] as? [[String: Any]])?.first)
        #expect((invocation["toolConfigurationNotifications"] as? [[String: Any]])?.count == 1)
    }

    @Test(
        "a file is named relative to the root however its folder was typed, or absolute outside it",
        arguments: [
            ("/repo/App", "/repo", "Widget/W.swift", "App/Widget/W.swift"),
            ("/repo/./App/", "/repo", "Widget/W.swift", "App/Widget/W.swift"),
            ("/repo/tools/../App", "/repo", "W.swift", "App/W.swift"),
            ("/repo", "/repo", "/repo/App/W.swift", "App/W.swift"),
            ("/elsewhere", "/repo", "W.swift", nil),
        ])
    func repositoryPaths(base: String, root: String, file: String, expected: String?) {
        #expect(RepositoryPath(base: base, root: root).relative(file) == expected)
    }

    @Test("annotations: GitHub workflow commands escaped, Xcode's path:line:column lines with the rule")
    func annotations() {
        let github = LintAnnotations.github(Self.report, paths: Self.paths)
        let lines = github.split(separator: "\n").map(String.init)
        #expect(lines.count == 5)
        #expect(lines[0].hasPrefix("::warning file=App/Fetch | one.swift,line=19,col=23,title=request-timeout%3A "))
        #expect(lines[0].contains("::URLRequest without timeoutInterval. Fix: set request.timeoutInterval = 15."))
        #expect(lines[1].hasPrefix("::notice file=App/Info.plist,title=bgtask-setup%3A "))
        #expect(lines[2].hasPrefix("::error file=Widget/TipWidget.swift,line=25,col=9,"))
        #expect(lines[2].contains("Cost: ≈ 2%2C900") == false && lines[2].contains("Cost: ≈ 2,900 requests"))
        #expect(lines[3].hasPrefix("::warning file=App/A.swift,line=3,title=widget-quota directive::"))
        #expect(lines[4] == "widget-quota lint: " + Self.report.verdict)
        #expect(GitHubCommand.annotation("error", [("file", "a,b:c%")], "50%\nmore") == "::error file=a%2Cb%3Ac%25::50%25%0Amore")

        let xcode = LintAnnotations.xcode(Self.report, paths: Self.paths).split(separator: "\n").map(String.init)
        #expect(xcode.count == 4)
        #expect(
            xcode[0]
                == "/repo/App/Fetch | one.swift:19:23: warning: URLRequest without timeoutInterval. Fix: set request.timeoutInterval = 15. [request-timeout]"
        )
        #expect(xcode[1].hasPrefix("/repo/App/Info.plist: note: UIBackgroundModes lacks fetch."))
        #expect(xcode[2].hasPrefix("/repo/Widget/TipWidget.swift:25:9: error: getTimeline calls URLSession.shared.dataTask."))
    }

    @Test(
        "a newline, comma, colon or % in a path or message never starts a workflow command",
        arguments: ["App/\nname.swift", "App/Evil\r\n::error file=x::pwned.swift"])
    func injection(file: String) {
        let finding = Finding(
            rule: .requestTimeout, location: .init(file: file, line: 2, column: 1),
            message: "reads \"a, b: 50%\n::error file=x,line=1::pwned\u{2028}::warning::too\"",
            fix: "set a timeout")
        let report = LintReport(
            findings: [finding], files: [.init(path: file, role: .app)],
            directiveProblems: [.init(location: .init(file: file, line: 1), message: "bad\n::error::directive")])
        let github = LintAnnotations.github(report, paths: Self.paths)
        let xcode = LintAnnotations.xcode(report, paths: Self.paths)
        for output in [github, xcode] {
            let lines = output.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            #expect(lines.allSatisfy { !$0.hasPrefix("::error::") && !$0.hasPrefix("::error file=x") && !$0.hasPrefix("::warning::") })
            #expect(!output.contains("\r"))
        }
        // The runner splits lines at CR and LF only; Xcode's lines are kept free of any line break.
        #expect(!xcode.contains("\u{2028}"))
        #expect(github.split(separator: "\n").count == 3)
        #expect(github.contains("50%25%0A::error file=x,line=1::pwned"))
        let x = xcode.split(separator: "\n").map(String.init)
        #expect(x.count == 2)
        #expect(x[0].contains(#": warning: reads "a, b: 50%\n::error file=x,line=1::pwned\n::warning::too". Fix"#))
        #expect(x[1].hasSuffix(#" warning: bad\n::error::directive."#))
    }
}
