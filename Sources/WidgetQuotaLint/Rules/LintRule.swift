import Foundation
import WidgetQuotaModel
import WidgetQuotaSwiftSource

/// One rule of the pre-release checklist, checked on an app's source tree.
///
/// A rule is one file: its description (the checklist entry it checks, title, default severity,
/// rationale), its check, and examples whose `↓` markers say where its findings must be.
///
/// A rule reads the tree (Swift files indexed, property lists, entitlements, targets) and returns
/// its findings, unsorted and unfiltered: the lint run sorts them, applies the configuration and
/// the inline `widget-quota:disable` directives. A finding never quotes a secret (see
/// `APIKeyInClientRule.redacted`).
package protocol LintRule: Sendable {
    /// What the rule checks and why, as every output names it.
    static var description: LintRuleDescription { get }
    func check(_ source: LintSource) -> [Finding]
    /// False when the tree holds nothing the rule looks at (no background task for the task
    /// rules, no timeline provider for the snapshot rules): the report says "nothing to check"
    /// rather than "passed". True by default.
    func hasSomethingToCheck(_ source: LintSource) -> Bool
    /// Small app trees the rule must and must not report on; one test runs every rule's examples.
    var examples: [LintRuleExample] { get }
}

/// A rule's entry in the checklist: its id, and the words every output shows for it.
public struct LintRuleDescription: Sendable {
    /// The stable id of the rule's findings (`rule` in JSON and SARIF, the name in config files).
    public let rule: ChecklistRule
    /// A short title, for tables and SARIF.
    public let title: String
    /// The severity of a finding unless the finding says otherwise.
    public let severity: FindingSeverity
    /// Why the rule exists, in a sentence a product owner can read.
    public let rationale: String

    package init(_ rule: ChecklistRule, title: String, severity: FindingSeverity, rationale: String) {
        self.rule = rule
        self.title = title
        self.severity = severity
        self.rationale = rationale
    }
}

/// An app's source tree as the rules read it, with what several rules look up computed once
/// per run: the call graph (where each call goes, which functions send a request), the
/// refresh rules' call index, and the App Intents a widget's controls run.
package struct LintSource: Sendable {
    package let tree: AppSourceTree
    package let graph: CallGraph
    let refresh: RefreshRulesIndex
    let intents: WidgetIntents

    package init(_ tree: AppSourceTree) {
        self.tree = tree
        let graph = CallGraph(tree)
        self.graph = graph
        refresh = RefreshRulesIndex(tree, graph: graph)
        intents = WidgetIntents(tree)
    }
}

/// A small app tree and what one rule must report in it.
///
/// A `↓` in a file's text marks where a finding must be (its line and column); the marker is
/// removed before the file is written. A finding about a file as a whole, with no line, is named
/// in `unlocated`. A tree without markers must give no finding.
package struct LintRuleExample: Sendable {
    /// The marker of an expected finding.
    package static let marker: Character = "↓"

    /// What the example shows, in words (the test's label).
    package var name: String
    /// The tree's files by path (`Widget/Info.plist`, `App/Fetcher.swift`), without markers.
    package var files: [String: String]
    /// Where the rule must report, from the markers and `unlocated`, in `Finding.Location` order.
    package var expected: [Finding.Location]

    /// - Parameters:
    ///   - files: the tree's files by path, with `↓` where findings must be.
    ///   - unlocated: files the rule must report on as a whole (a finding without a line).
    package init(_ name: String, files: [String: String], unlocated: [String] = []) {
        self.name = name
        var clean = [String: String]()
        var expected = unlocated.map { Finding.Location(file: $0) }
        for (path, text) in files {
            var out = ""
            var line = 1
            var column = 1
            for character in text {
                if character == Self.marker {
                    expected.append(Finding.Location(file: path, line: line, column: column))
                    continue
                }
                out.append(character)
                if character.unicodeScalars.last == "\n" {  // "\n" or "\r\n"
                    line += 1
                    column = 1
                } else {
                    column += character.unicodeScalars.count
                }
            }
            clean[path] = out
        }
        self.files = clean
        self.expected = expected.sorted()
    }
}

extension LintRule {
    /// The checklist rule this checks (its id is the findings' `rule`).
    package var rule: ChecklistRule { Self.description.rule }

    package func hasSomethingToCheck(_ source: LintSource) -> Bool { true }

    /// A finding of this rule at `location` in `file`, with the rule's default severity unless given.
    package func finding(
        _ file: String, _ location: SourceLocation?, _ message: String, fix: String, severity: FindingSeverity? = nil
    ) -> Finding {
        Finding(
            rule: rule, severity: severity ?? Self.description.severity,
            location: Finding.Location(file: file, line: location?.line, column: location?.column),
            message: message, fix: fix)
    }
}
