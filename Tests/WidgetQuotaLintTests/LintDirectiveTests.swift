import Foundation
import Testing
import WidgetQuotaLint
import WidgetQuotaModel
import WidgetQuotaTestSupport

@Suite("Lint directives")
struct LintDirectiveTests {
    static func finding(_ rule: ChecklistRule, line: Int?, file: String = "A.swift") -> Finding {
        Finding(rule: rule, location: .init(file: file, line: line), message: "m", fix: "f")
    }

    @Test("parsing: kinds, comma and space lists, all, a reason after --, block comments")
    func parses() throws {
        let d = try #require(LintDirective.parse("// widget-quota:disable request-timeout, retry-loop -- a health check"))
        #expect(d.kind == .disable && d.rules.rules == [.requestTimeout, .retryLoop] && !d.rules.all && d.unknown.isEmpty)
        #expect(LintDirective.parse("widget-quota:disable-next-line all")?.rules.all == true)
        #expect(LintDirective.parse("/* widget-quota:disable-file reload-misuse */")?.rules.rules == [.reloadMisuse])
        #expect(LintDirective.parse("/* widget-quota:disable-file reload-misuse */")?.kind == .disableFile)
        #expect(LintDirective.parse("// widget-quota:disable-next-line bgtask-setup bgtask-completion")?.rules.rules.count == 2)
        #expect(LintDirective.parse("// an ordinary comment about widget-quota") == nil)
        #expect(LintDirective.parse("// widget-quota:disable retry-lop")?.unknown == ["retry-lop"])
    }

    @Test("disable silences its own line and the next; disable-next-line only the next")
    func lineScopes() {
        let findings = [
            Self.finding(.requestTimeout, line: 10), Self.finding(.requestTimeout, line: 11),
            Self.finding(.requestTimeout, line: 12), Self.finding(.retryLoop, line: 11),
            Self.finding(.requestTimeout, line: 21), Self.finding(.requestTimeout, line: 22),
            Self.finding(.requestTimeout, line: 11, file: "B.swift"),
        ]
        let comments: [(file: String, line: Int, text: String)] = [
            ("A.swift", 10, "// widget-quota:disable request-timeout"),
            ("A.swift", 20, "// widget-quota:disable-next-line request-timeout"),
        ]
        let (kept, suppressed) = LintConfiguration().apply(to: findings, comments: comments)
        #expect(suppressed == 3)
        #expect(
            kept.map { "\($0.location.file):\($0.location.line!):\($0.rule.rawValue)" }
                == ["A.swift:11:retry-loop", "A.swift:12:request-timeout", "A.swift:22:request-timeout", "B.swift:11:request-timeout"])
    }

    @Test("disable-file and all silence the whole file, including findings without a line")
    func fileScope() {
        let findings = [
            Self.finding(.reloadMisuse, line: 3), Self.finding(.reloadMisuse, line: nil),
            Self.finding(.retryLoop, line: 4), Self.finding(.retryLoop, line: 4, file: "B.swift"),
        ]
        let one = LintConfiguration().apply(to: findings, comments: [("A.swift", 50, "// widget-quota:disable-file reload-misuse")])
        #expect(one.suppressed == 2 && one.kept.map(\.rule) == [.retryLoop, .retryLoop])
        let all = LintConfiguration().apply(to: findings, comments: [("A.swift", 1, "// widget-quota:disable-file all")])
        #expect(all.suppressed == 3 && all.kept.map(\.location.file) == ["B.swift"])
    }

    @Test("a directive naming no rule silences nothing and is reported with a suggestion")
    func unknownIDs() {
        let findings = [Self.finding(.requestTimeout, line: 2)]
        let comments: [(file: String, line: Int, text: String)] = [
            ("A.swift", 1, "// widget-quota:disable request-timout"),
            ("A.swift", 5, "// widget-quota:disable"),
            ("A.swift", 7, "// widget-quota:disabel retry-loop"),
        ]
        let (kept, suppressed) = LintConfiguration().apply(to: findings, comments: comments)
        #expect(kept.count == 1 && suppressed == 0)
        let problems = LintDirective.problems(in: comments)
        #expect(problems.map(\.location.line) == [1, 5, 7])
        #expect(problems[0].message.contains("unknown rule id \"request-timout\"") && problems[0].message.contains("\"request-timeout\"?"))
        #expect(problems[1].message.contains("names no rule"))
        #expect(problems[2].message.contains("did you mean \"widget-quota:disable\"?"))
    }

    @Test("the broken-app fixture's directive silences exactly the finding its EXPECTED.md names")
    func fixtureDirective() throws {
        let text = try Fixtures.text("apps/broken-app/App/HeadlinesFetcher.swift")
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let comments = lines.enumerated().compactMap { i, line -> (file: String, line: Int, text: String)? in
            guard let r = line.range(of: "//") else { return nil }
            return ("App/HeadlinesFetcher.swift", i + 1, String(line[r.lowerBound...]))
        }
        let findings = [
            Finding(rule: .requestTimeout, location: .init(file: "App/HeadlinesFetcher.swift", line: 19), message: "m", fix: "f"),
            Finding(rule: .requestTimeout, location: .init(file: "App/HeadlinesFetcher.swift", line: 42), message: "m", fix: "f"),
        ]
        let (kept, suppressed) = LintConfiguration().apply(to: findings, comments: comments)
        #expect(suppressed == 1 && kept.map(\.location.line) == [19])
    }
}
