import Foundation
import WidgetQuotaModel
import WidgetQuotaSwiftSource

/// One rule of the pre-release checklist, checked on an app's source tree.
///
/// A rule reads the tree (Swift files indexed, property lists, entitlements, targets) and returns
/// its findings, unsorted and unfiltered: the lint run sorts them, applies the configuration and
/// the inline `widget-quota:disable` directives. A finding never quotes a secret (see
/// `APIKeyInClientRule.redacted`).
public protocol LintRule: Sendable {
    /// The checklist rule this checks (its id is the findings' `rule`).
    var rule: ChecklistRule { get }
    func check(_ source: LintSource) -> [Finding]
    /// False when the tree holds nothing the rule looks at (no background task for the task
    /// rules, no timeline provider for the snapshot rules): the report says "nothing to check"
    /// rather than "passed". True by default.
    func hasSomethingToCheck(_ source: LintSource) -> Bool
    /// Small app trees the rule must and must not report on; one test runs every rule's examples.
    var examples: [LintRuleExample] { get }
}

/// An app's source tree as the rules read it, with what several rules look up computed once
/// per run: the call graph (where each call goes, which functions send a request) and the
/// refresh rules' call index.
public struct LintSource: Sendable {
    package let tree: AppSourceTree
    package let graph: CallGraph
    let refresh: RefreshRulesIndex

    package init(_ tree: AppSourceTree) {
        self.tree = tree
        let graph = CallGraph(tree)
        self.graph = graph
        refresh = RefreshRulesIndex(tree, graph: graph)
    }
}

/// A small app tree and what one rule must report in it.
public struct LintRuleExample: Sendable {
    /// What the example shows, in words (the test's label).
    package var name: String
    /// The tree's files by path (`Widget/Info.plist`, `App/Fetcher.swift`).
    package var files: [String: String]
    /// The findings the rule must report, as `path:line`, in any order; empty: it must report nothing.
    package var expected: [String]

    package init(_ name: String, files: [String: String], expected: [String] = []) {
        self.name = name
        self.files = files
        self.expected = expected
    }
}

extension LintRule {
    public func hasSomethingToCheck(_ source: LintSource) -> Bool { true }

    /// A finding of this rule at `location` in `file`, with the rule's default severity unless given.
    package func finding(
        _ file: String, _ location: SourceLocation?, _ message: String, fix: String, severity: FindingSeverity? = nil
    ) -> Finding {
        Finding(
            rule: rule, severity: severity, location: Finding.Location(file: file, line: location?.line, column: location?.column),
            message: message, fix: fix)
    }
}
