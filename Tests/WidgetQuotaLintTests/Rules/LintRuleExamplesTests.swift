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
        let found = findings.map { "\($0.location.file):\($0.location.line ?? 0)" }.sorted()
        #expect(found == c.example.expected.sorted(), "\(findings.map(\.message))")
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
}
