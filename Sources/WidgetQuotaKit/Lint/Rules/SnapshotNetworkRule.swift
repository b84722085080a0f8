import Foundation

/// `snapshotNetwork`: PLACEHOLDER, written by the rule's engineer (see `ChecklistRule.snapshotNetwork`).
public struct SnapshotNetworkRule: LintRule {
    public let rule = ChecklistRule.snapshotNetwork
    public init() {}

    public func check(_ tree: AppSourceTree) -> [Finding] { [] }

    public var examples: [LintRuleExample] { [] }
}
