import Foundation

/// `outputTokenCap`: PLACEHOLDER, written by the rule's engineer (see `ChecklistRule.outputTokenCap`).
public struct OutputTokenCapRule: LintRule {
    public let rule = ChecklistRule.outputTokenCap
    public init() {}

    public func check(_ tree: AppSourceTree) -> [Finding] { [] }

    public var examples: [LintRuleExample] { [] }
}
