import Foundation

/// `backgroundTaskCompletion`: PLACEHOLDER, written by the rule's engineer (see `ChecklistRule.backgroundTaskCompletion`).
public struct BackgroundTaskCompletionRule: LintRule {
    public let rule = ChecklistRule.backgroundTaskCompletion
    public init() {}

    public func check(_ tree: AppSourceTree) -> [Finding] { [] }

    public var examples: [LintRuleExample] { [] }
}
