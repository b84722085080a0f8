import Foundation

/// The pre-release checklist of a widget that calls a paid, rate-limited API, as rules that
/// `lint` checks in an app's source and `analyze` checks in its logs (the Gemini widget report's
/// checklist and the WidgetKit reload-budget notes; see docs/sources.md).
///
/// The raw values are the stable rule ids of every output (JSON, SARIF, inline
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

    /// The rule's title, for tables and SARIF.
    public var title: String {
        switch self {
        case .appGroupMismatch: return "App Group identifiers match between app and widget"
        case .widgetNetworkCall: return "The widget extension makes no network call"
        case .apiKeyInClient: return "No API key in client code"
        case .snapshotNetwork: return "Placeholder and snapshot stay off the network"
        case .snapshotPreview: return "getSnapshot handles context.isPreview"
        case .policyShorterThanTTL: return "Timeline policy no shorter than the cache TTL"
        case .reloadMisuse: return "Reload timelines once, after a successful fetch"
        case .backgroundTaskSetup: return "Background task identifiers permitted, registered and submitted"
        case .backgroundTaskCompletion: return "Background tasks expire and complete on every path"
        case .requestTimeout: return "Requests set a timeout shorter than the background slice"
        case .outputTokenCap: return "Model requests cap their output tokens"
        case .retryLoop: return "No retry loop inside a background task or getTimeline"
        }
    }

    /// The severity a finding of this rule has unless the finding says otherwise.
    public var defaultSeverity: FindingSeverity {
        switch self {
        case .appGroupMismatch, .widgetNetworkCall, .apiKeyInClient, .snapshotNetwork, .backgroundTaskSetup:
            return .error
        case .snapshotPreview, .policyShorterThanTTL, .reloadMisuse, .backgroundTaskCompletion, .requestTimeout,
            .outputTokenCap, .retryLoop:
            return .warning
        }
    }

    /// Why the rule exists, in a sentence a product owner can read.
    public var rationale: String {
        switch self {
        case .appGroupMismatch:
            return "A widget that reads another App Group than the app writes finds no cache and shows nothing, or calls the API itself."
        case .widgetNetworkCall:
            return "Every getTimeline becomes an API request: about ten times the requests of a cache the app refreshes."
        case .apiKeyInClient:
            return "A key shipped in an app can be extracted and billed to you; call the API through your own server."
        case .snapshotNetwork:
            return "The widget gallery and Smart Stack ask for snapshots often and briefly; a network call there is slow and billed."
        case .snapshotPreview:
            return "In the widget gallery (context.isPreview) the snapshot should return sample content at once."
        case .policyShorterThanTTL:
            return "Reloading more often than the cached content changes spends the daily reload budget on identical timelines."
        case .reloadMisuse:
            return "Each reload call spends WidgetKit's daily budget; reloading after a failure or repeatedly empties it."
        case .backgroundTaskSetup:
            return
                "A task identifier missing from BGTaskSchedulerPermittedIdentifiers, or never submitted, means the background refresh never runs."
        case .backgroundTaskCompletion:
            return "A task that never completes, or has no expiration handler, is throttled by iOS and runs less and less."
        case .requestTimeout:
            return "URLRequest's 60 s default timeout can outlast the ~30 s a background refresh gets."
        case .outputTokenCap:
            return "Without an output-token cap a model may answer at length: cost and latency grow with every token."
        case .retryLoop:
            return "During an outage every device retries at once: one refresh becomes several requests exactly when the API is struggling."
        }
    }

    public static func < (a: Self, b: Self) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// How much a finding matters; `--fail-on` gates on it.
public enum FindingSeverity: String, CaseIterable, Sendable, Codable, Comparable {
    case note, warning, error

    public static func < (a: Self, b: Self) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}
