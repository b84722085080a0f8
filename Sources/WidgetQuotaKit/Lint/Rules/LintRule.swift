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
