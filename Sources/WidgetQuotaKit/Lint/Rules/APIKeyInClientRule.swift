import Foundation

/// `apiKeyInClient`: PLACEHOLDER, written by the rule's engineer (see `ChecklistRule.apiKeyInClient`).
public struct APIKeyInClientRule: LintRule {
    public let rule = ChecklistRule.apiKeyInClient
    public init() {}

    public func check(_ tree: AppSourceTree) -> [Finding] { [] }

    public var examples: [LintRuleExample] { [] }
}
