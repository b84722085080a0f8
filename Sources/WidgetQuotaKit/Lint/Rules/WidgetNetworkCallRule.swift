import Foundation

/// `widgetNetworkCall`: PLACEHOLDER, written by the rule's engineer (see `ChecklistRule.widgetNetworkCall`).
public struct WidgetNetworkCallRule: LintRule {
    public let rule = ChecklistRule.widgetNetworkCall
    public init() {}

    public func check(_ tree: AppSourceTree) -> [Finding] { [] }

    public var examples: [LintRuleExample] { [] }
}
