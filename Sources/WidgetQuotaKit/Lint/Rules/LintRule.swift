import Foundation

/// One rule of the pre-release checklist, checked on an app's source tree.
///
/// A rule reads the tree (Swift files indexed, property lists, entitlements, targets) and returns
/// its findings, unsorted and unfiltered: the lint run sorts them, applies the configuration and
/// the inline `widget-quota:disable` directives. A finding never quotes a secret (see
/// `SourceVocabulary.redacted`).
public protocol LintRule: Sendable {
    /// The checklist rule this checks (its id is the findings' `rule`).
    var rule: ChecklistRule { get }
    func check(_ tree: AppSourceTree) -> [Finding]
    /// Small app trees the rule must and must not report on; one test runs every rule's examples.
    var examples: [LintRuleExample] { get }
}

/// A small app tree and what one rule must report in it.
public struct LintRuleExample: Sendable {
    /// What the example shows, in words (the test's label).
    public var name: String
    /// The tree's files by path (`Widget/Info.plist`, `App/Fetcher.swift`).
    public var files: [String: String]
    /// The findings the rule must report, as `path:line`, in any order; empty: it must report nothing.
    public var expected: [String]

    public init(_ name: String, files: [String: String], expected: [String] = []) {
        self.name = name
        self.files = files
        self.expected = expected
    }
}

extension LintRule {
    /// A finding of this rule at `location` in `file`, with the rule's default severity unless given.
    public func finding(
        _ file: String, _ location: SourceLocation?, _ message: String, fix: String, severity: FindingSeverity? = nil
    ) -> Finding {
        Finding(
            rule: rule, severity: severity, location: Finding.Location(file: file, line: location?.line, column: location?.column),
            message: message, fix: fix)
    }
}
