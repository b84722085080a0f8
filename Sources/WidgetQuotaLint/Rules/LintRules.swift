import Foundation
import WidgetQuotaModel

/// Every rule `lint` checks, one per checklist rule, in the checklist's order.
package enum LintRules {
    package static let all: [any LintRule] = [
        AppGroupMismatchRule(),
        WidgetNetworkCallRule(),
        APIKeyInClientRule(),
        SnapshotNetworkRule(),
        SnapshotPreviewRule(),
        PolicyShorterThanTTLRule(),
        ReloadMisuseRule(),
        BackgroundTaskSetupRule(),
        BackgroundTaskCompletionRule(),
        RequestTimeoutRule(),
        OutputTokenCapRule(),
        RetryLoopRule(),
        NeverPolicyWithoutReloadRule(),
        IntentNetworkCallRule(),
        WidgetAsyncImageRule(),
        WidgetStandardDefaultsRule(),
        PolicyFixedClockRule(),
        BackgroundTaskRescheduleRule(),
        TimelineEntriesDenseRule(),
        TimelineCompletionRule(),
        ReloadBeforeWriteRule(),
        BackgroundTaskRegisterRule(),
        ReloadAllOnPushRule(),
    ]

    /// Each checklist rule's description, from its rule's file.
    static let descriptions: [ChecklistRule: LintRuleDescription] = Dictionary(
        all.map { (type(of: $0).description.rule, type(of: $0).description) }, uniquingKeysWith: { first, _ in first })
}

extension ChecklistRule {
    /// The rule's description as its file in `Rules/` gives it (`LintRules.all` holds a rule for
    /// every case; a test keeps it so).
    public var lintDescription: LintRuleDescription {
        guard let description = LintRules.descriptions[self] else {
            preconditionFailure("no rule in LintRules.all checks \(rawValue)")
        }
        return description
    }

    /// The rule's title, for tables and SARIF.
    public var title: String { lintDescription.title }
    /// The severity a finding of this rule has unless the finding says otherwise.
    public var defaultSeverity: FindingSeverity { lintDescription.severity }
    /// Why the rule exists, in a sentence a product owner can read.
    public var rationale: String { lintDescription.rationale }
}

extension Finding {
    /// A finding with its rule's default severity.
    package init(rule: ChecklistRule, location: Location, message: String, fix: String, cost: String? = nil) {
        self.init(rule: rule, severity: rule.defaultSeverity, location: location, message: message, fix: fix, cost: cost)
    }
}
