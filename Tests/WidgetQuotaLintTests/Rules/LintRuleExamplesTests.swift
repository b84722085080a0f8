import Foundation
import Testing
import WidgetQuotaLint
import WidgetQuotaModel
import WidgetQuotaSwiftSource
import WidgetQuotaTestSupport

/// Every rule's own examples: small app trees it must and must not report on.
@Suite("Lint rule examples")
struct LintRuleExamplesTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var rule: ChecklistRule
        var example: LintRuleExample
        var testDescription: String { "\(rule.rawValue): \(example.name)" }
    }

    static let cases: [Case] = LintRules.all.flatMap { r in r.examples.map { Case(rule: r.rule, example: $0) } }

    @Test("A rule reports exactly its example's findings", arguments: cases)
    func example(_ c: Case) throws {
        let tmp = try TemporaryDirectory()
        for (path, text) in c.example.files {
            let url = URL(fileURLWithPath: tmp.path).appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        let tree = try AppSourceTree.load(paths: [tmp.path])
        let rule = try #require(LintRules.all.first { $0.rule == c.rule })
        let findings = rule.check(LintSource(tree))
        #expect(findings.allSatisfy { $0.rule == c.rule })
        let found = findings.map(\.location).sorted()
        #expect(found == c.example.expected, "\(findings.map { "\($0.location.description): \($0.message)" })")
    }

    @Test("Every rule has examples that must and must not trigger", arguments: ChecklistRule.allCases)
    func everyRuleHasExamples(_ rule: ChecklistRule) throws {
        let r = try #require(LintRules.all.first { $0.rule == rule }, "no rule checks \(rule.rawValue)")
        #expect(r.examples.contains { !$0.expected.isEmpty }, "\(rule.rawValue) has no example that triggers")
        #expect(r.examples.contains { $0.expected.isEmpty }, "\(rule.rawValue) has no example that must not trigger")
    }

    @Test("One rule per checklist rule, in the checklist's order")
    func registry() {
        #expect(LintRules.all.map(\.rule) == ChecklistRule.allCases)
    }

    @Test("A marker gives its line and column, counted as the lexer counts them, and is removed")
    func markers() {
        let example = LintRuleExample(
            "markers", files: ["A.swift": "let a = 1\nlet é = ↓b(↓c)\n", "Info.plist": "<plist/>"], unlocated: ["Info.plist"])
        #expect(example.files["A.swift"] == "let a = 1\nlet é = b(c)\n")
        #expect(
            example.expected == [
                Finding.Location(file: "A.swift", line: 2, column: 9), Finding.Location(file: "A.swift", line: 2, column: 11),
                Finding.Location(file: "Info.plist"),
            ])
        #expect(LintRuleExample("none", files: ["A.swift": "let a = 1"]).expected.isEmpty)
    }

    @Test("Each rule's description names its own checklist entry, with a title and a rationale", arguments: LintRules.all.indices)
    func descriptions(_ i: Int) {
        let description = type(of: LintRules.all[i]).description
        #expect(description.rule == LintRules.all[i].rule)
        #expect(description.rule.title == description.title && description.rule.rationale == description.rationale)
        #expect(!description.title.isEmpty && description.rationale.hasSuffix("."))
    }
}
