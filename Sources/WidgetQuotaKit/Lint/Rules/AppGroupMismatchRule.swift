import Foundation

/// `appGroupMismatch`: PLACEHOLDER, written by the rule's engineer (see `ChecklistRule.appGroupMismatch`).
public struct AppGroupMismatchRule: LintRule {
    public let rule = ChecklistRule.appGroupMismatch
    public init() {}

    public func check(_ tree: AppSourceTree) -> [Finding] { [] }

    public var examples: [LintRuleExample] { [] }
}
