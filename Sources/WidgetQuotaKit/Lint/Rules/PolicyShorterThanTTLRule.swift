import Foundation

/// `policyShorterThanTTL`: PLACEHOLDER, written by the rule's engineer (see `ChecklistRule.policyShorterThanTTL`).
public struct PolicyShorterThanTTLRule: LintRule {
    public let rule = ChecklistRule.policyShorterThanTTL
    public init() {}

    public func check(_ tree: AppSourceTree) -> [Finding] { [] }

    public var examples: [LintRuleExample] { [] }
}
