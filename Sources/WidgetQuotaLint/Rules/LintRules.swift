import Foundation

/// Every rule `lint` checks, one per checklist rule, in the checklist's order.
public enum LintRules {
    public static let all: [any LintRule] = [
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
    ]
}
