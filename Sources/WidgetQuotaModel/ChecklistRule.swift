import Foundation

/// The ids of the pre-release checklist of a widget that calls a paid, rate-limited API: the rules
/// `lint` checks in an app's source and `analyze` checks in its logs (the Gemini widget report's
/// checklist and the WidgetKit reload-budget notes; see docs/sources.md).
///
/// Each rule's title, default severity, rationale and examples are in its file in lint's
/// `Rules/` folder. The raw values are the stable rule ids of every output (JSON, SARIF, inline
/// `// widget-quota:disable rule-id` comments, config files): never rename one.
public enum ChecklistRule: String, CaseIterable, Sendable, Codable, Comparable {
    /// The app's and the extension's App Group identifiers match, and every suite name the code
    /// uses is among them.
    case appGroupMismatch = "app-group-mismatch"
    /// The widget extension calls the network (the API belongs to the app and its background task).
    case widgetNetworkCall = "widget-network-call"
    /// An API key, a `key=` URL parameter or an API-key header in client code.
    case apiKeyInClient = "api-key-in-client"
    /// `placeholder(in:)` or `getSnapshot(in:completion:)` touch the network or wait on a task that does.
    case snapshotNetwork = "snapshot-network"
    /// `getSnapshot(in:completion:)` does not look at `context.isPreview`.
    case snapshotPreview = "snapshot-preview"
    /// The timeline policy asks for reloads much more often than the cache changes.
    case policyShorterThanTTL = "policy-shorter-than-ttl"
    /// Timelines are reloaded more than once per successful fetch: in a `catch`, in a loop, or on
    /// every foreground.
    case reloadMisuse = "reload-misuse"
    /// A background task identifier that is not permitted in Info.plist, registered but never
    /// submitted, or `UIBackgroundModes` without `fetch`.
    case backgroundTaskSetup = "bgtask-setup"
    /// A background task without an `expirationHandler`, or a path that never calls `setTaskCompleted`.
    case backgroundTaskCompletion = "bgtask-completion"
    /// A request without `timeoutInterval`: the 60 s default outlasts a ~30 s background slice.
    case requestTimeout = "request-timeout"
    /// A model request without an output-token cap (`maxOutputTokens`, `max_tokens`…).
    case outputTokenCap = "output-token-cap"
    /// A retry loop inside a background task or `getTimeline`: requests multiply during an outage.
    case retryLoop = "retry-loop"
    /// A `.never` timeline that nothing in the app reloads.
    case neverPolicyWithoutReload = "never-policy-without-reload"
    /// The App Intent a widget's button or toggle runs sends a request in `perform()`: one per tap.
    case intentNetworkCall = "intent-network-call"
    /// `AsyncImage` (or an image library's loading view) in a widget's view: it never loads there.
    case widgetAsyncImage = "widget-async-image"
    /// The widget reads from its own standard defaults a key the app writes to the app's.
    case widgetStandardDefaults = "widget-standard-defaults"
    /// A fetching widget's policy date is a clock time every device shares (the next hour, midnight).
    case policyFixedClock = "policy-fixed-clock"
    /// A background refresh handler that never submits the next request: the task runs once.
    case backgroundTaskReschedule = "bgtask-no-reschedule"
    /// Timeline entries closer than about five minutes, which WidgetKit does not honour.
    case timelineEntriesDense = "timeline-entries-dense"
    /// A `getTimeline`/`getSnapshot` path that returns without calling its completion.
    case timelineWithoutCompletion = "timeline-no-completion"
    /// A reload asked for before the store the widget reads is written.
    case reloadBeforeWrite = "reload-before-write"
    /// A background task handler registered after the app has finished launching.
    case backgroundTaskRegisterLate = "bgtask-register-late"
    /// `reloadAllTimelines()` on every push, with several widget kinds or a configurable one.
    case reloadAllOnPush = "reload-all-on-push"

    public static func < (a: Self, b: Self) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// How much a finding matters; `--fail-on` gates on it.
public enum FindingSeverity: String, CaseIterable, Sendable, Codable, Comparable {
    /// From least to most grave; `--fail-on warning` fails on warnings and errors.
    case note, warning, error

    public static func < (a: Self, b: Self) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}
