import Foundation

/// `reloadMisuse`: PLACEHOLDER, written by the rule's engineer (see `ChecklistRule.reloadMisuse`).
public struct ReloadMisuseRule: LintRule {
    public let rule = ChecklistRule.reloadMisuse
    public init() {}

    public func check(_ tree: AppSourceTree) -> [Finding] { [] }

    public var examples: [LintRuleExample] { [] }
}
