import Foundation

/// `retryLoop`: PLACEHOLDER, written by the rule's engineer (see `ChecklistRule.retryLoop`).
public struct RetryLoopRule: LintRule {
    public let rule = ChecklistRule.retryLoop
    public init() {}

    public func check(_ tree: AppSourceTree) -> [Finding] { [] }

    public var examples: [LintRuleExample] { [] }
}
