import Foundation

/// `requestTimeout`: PLACEHOLDER, written by the rule's engineer (see `ChecklistRule.requestTimeout`).
public struct RequestTimeoutRule: LintRule {
    public let rule = ChecklistRule.requestTimeout
    public init() {}

    public func check(_ tree: AppSourceTree) -> [Finding] { [] }

    public var examples: [LintRuleExample] { [] }
}
