import Foundation

/// `snapshotPreview`: PLACEHOLDER, written by the rule's engineer (see `ChecklistRule.snapshotPreview`).
public struct SnapshotPreviewRule: LintRule {
    public let rule = ChecklistRule.snapshotPreview
    public init() {}

    public func check(_ tree: AppSourceTree) -> [Finding] { [] }

    public var examples: [LintRuleExample] { [] }
}
