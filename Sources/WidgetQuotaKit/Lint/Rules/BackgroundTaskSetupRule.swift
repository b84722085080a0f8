import Foundation

/// `backgroundTaskSetup`: PLACEHOLDER, written by the rule's engineer (see `ChecklistRule.backgroundTaskSetup`).
public struct BackgroundTaskSetupRule: LintRule {
    public let rule = ChecklistRule.backgroundTaskSetup
    public init() {}

    public func check(_ tree: AppSourceTree) -> [Finding] { [] }

    public var examples: [LintRuleExample] { [] }
}
