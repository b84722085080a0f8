import Foundation
import WidgetQuotaSupport

/// A widget architecture a product owner can choose, built from a few parts.
public struct Design: Codable, Sendable, Equatable {
    /// What may start a fetch from the API.
    public enum Trigger: String, Codable, Sendable, CaseIterable {
        /// The widget extension fetches inside getTimeline.
        case getTimeline
        /// The app fetches when it becomes active.
        case appForeground
        /// The app fetches in a BGAppRefreshTask.
        case backgroundTask
        /// The app fetches when a push says the data changed.
        case push
        /// A WidgetKit push notification (iOS 26) says the data changed: WidgetKit reloads the
        /// widget's timelines, as a reload call does (Apple's "Updating widgets with WidgetKit push
        /// notifications"), and getTimeline fetches if it is a trigger too.
        case widgetPush
    }

    /// When WidgetKit should ask for the next timeline.
    public enum ReloadPolicy: Sendable, Equatable {
        /// After the last entry's date ((entries − 1) × spacing after the timeline was built,
        /// at least the minimum spacing).
        case atEnd
        /// A fixed interval after the timeline was built.
        case after(minutes: Double)
        /// Only when the app asks (`reloadTimelines(ofKind:)`).
        case never
    }

    /// When the app calls `reloadAllTimelines()` / `reloadTimelines(ofKind:)`.
    public enum ReloadCalls: String, Codable, Sendable, CaseIterable {
        /// Once, after a successful fetch (the Gemini widget report's advice).
        case onceOnSuccess
        /// On every app foreground, whether or not anything changed (an anti-pattern the reload-budget notes warn of).
        /// Reloads while the app is in the foreground do not spend the budget, so what this costs
        /// is getTimeline calls, and requests when the widget fetches in getTimeline.
        case everyForeground
        /// After every fetch attempt, failures included.
        case everyFetch
        /// Never.
        case never
    }

    /// Which data changes send this design's pushes.
    public enum PushScope: String, Codable, Sendable, CaseIterable {
        /// Each user's data changes on its own, at its own random times.
        case perUser
        /// A data change of a content key is pushed to every device of the key at once, spread
        /// over the delivery window (`SharedContent`): a goal reaches every fan together.
        case broadcast
    }

    /// What happens after a failed fetch.
    public enum Retry: Sendable, Equatable {
        /// Nothing now: the next natural trigger finds the data stale and fetches (the Gemini widget report).
        case nextOpportunity
        /// Immediate retries after `baseSeconds × 2^attempt`, optionally with full jitter.
        case backoff(maxRetries: Int, baseSeconds: Double, jitter: Bool)
    }

    /// The design's name, as reports and `--design` name it.
    public var name: String
    /// One line for `widget-quota designs`.
    public var summary: String = ""
    /// The article the design comes from.
    public var source: String = ""
    /// When the paid call is made: in getTimeline, on app opens, in background runs, on silent or
    /// WidgetKit pushes.
    public var fetchTriggers: [Trigger] = [.getTimeline]
    /// Cache lifetime; `nil` means no cache: every trigger fetches and a failure shows an error.
    public var cacheTTLMinutes: Double?
    /// When WidgetKit asks for the next timeline.
    public var reloadPolicy: ReloadPolicy = .never
    /// Entries in one timeline (for `atEnd` and prebuilt timelines).
    public var timelineEntries: Int = 1
    /// Minutes between the entries of a timeline.
    public var entrySpacingMinutes: Double = 60
    /// When the app calls `reloadTimelines`.
    public var reloadCalls: ReloadCalls = .onceOnSuccess
    /// Metered API requests per fetch (a refresh that calls the API twice: 2). Downloads from
    /// hosts outside the API, such as an image CDN, are not requests here.
    public var requestsPerFetch: Int = 1
    /// BGAppRefreshTask earliestBeginDate; `nil` uses the platform default.
    public var backgroundIntervalHours: Double?
    /// What a failed fetch does next.
    public var retry: Retry = .nextOpportunity
    /// Align policy reloads and background begin dates to wall-clock boundaries of this many
    /// minutes (every device at :00, :15, ...); `nil` leaves them where they fall.
    public var alignToWallClockMinutes: Double?
    /// Random delay added to aligned times, and to a policy reload `policyFollowsHours` moves to
    /// an opening: each device's own, 0 ... this many seconds.
    public var jitterSeconds: Double = 0
    /// Whose data changes send the pushes of a design with the `push` trigger.
    public var pushes: PushScope = .perUser
    /// Where the paid call happens: nil on each device (every fetch is a paid request), or the
    /// owner's backend, which calls the API per content key and serves the devices' fetches.
    public var backend: BackendGeneration?
    /// The timeline's policy follows the open hours of the user's keys (`calendar.hours`, or the
    /// hours of the `content.groups` the user follows, any of them open): a reload that would
    /// fall while closed asks for the next opening instead (`.after(next open)`), so the widget
    /// spends no reload on data that cannot change.
    public var policyFollowsHours = false
    /// A fetch sends one request per content key its user follows (`content.keysPerUser`, or its own count of `content.keysPerUserMix`), each
    /// asking for one key; false: one request asks for them all. A backend's generation asks for
    /// one key whatever this says.
    public var requestPerKey = false
    /// The widget has buttons or toggles that run App Intents (iOS 17+): each tap
    /// (`population.interactiveTapsPerDay`) reloads the tapped instance at once, outside the
    /// reload budget, and its getTimeline runs as any other.
    public var interactive = false
    /// Requests each tap's App Intent sends itself in `perform()` (a to-do toggle that tells the
    /// server), before the tap's reload; 0 when `perform()` only writes local state. Counted only
    /// with `interactive`.
    public var requestsPerTap = 0
    /// A Live Activity for each live event of the user's key, updated by the backend's pushes;
    /// nil: none. Needs a `backend`, which calls the paid API per change of a key.
    public var liveActivity: LiveActivity?

    /// A design named `name`, every other field its default (fetch on every getTimeline, `.never`).
    public init(name: String) { self.name = name }

    /// True when the widget reads a shared cache that outlives a failed fetch.
    public var hasCache: Bool { cacheTTLMinutes != nil }

    /// True when data changes reach the device: a silent push to the app, a WidgetKit push, or both.
    public var sendsPushes: Bool { fetchTriggers.contains(.push) || fetchTriggers.contains(.widgetPush) }

    /// True when the design acts on each change of a content key as it happens: broadcast pushes,
    /// or a backend that regenerates on each change. The engine then draws every key's changes.
    package var followsKeyChanges: Bool { (pushes == .broadcast && sendsPushes) || backend?.regenerate == .onChange }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case name, summary, source, fetchTriggers, cacheTTLMinutes, reloadPolicy, timelineEntries
        case entrySpacingMinutes, reloadCalls, requestsPerFetch, backgroundIntervalHours, retry
        case alignToWallClockMinutes, jitterSeconds, pushes, backend, policyFollowsHours, requestPerKey
        case interactive, requestsPerTap, liveActivity
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let name = try c.decode(String.self, forKey: .name)
        let base = DesignPresets.named(name) ?? Design(name: name)
        self = base
        summary = try c.value(.summary, or: base.summary)
        source = try c.value(.source, or: base.source.isEmpty ? "scenario file" : base.source)
        fetchTriggers = try c.value(.fetchTriggers, or: base.fetchTriggers)
        if c.contains(.cacheTTLMinutes) {
            cacheTTLMinutes = try c.decodeIfPresent(Double.self, forKey: .cacheTTLMinutes)
        }
        reloadPolicy = try c.value(.reloadPolicy, or: base.reloadPolicy)
        timelineEntries = try c.value(.timelineEntries, or: base.timelineEntries)
        entrySpacingMinutes = try c.value(.entrySpacingMinutes, or: base.entrySpacingMinutes)
        reloadCalls = try c.value(.reloadCalls, or: base.reloadCalls)
        requestsPerFetch = try c.value(.requestsPerFetch, or: base.requestsPerFetch)
        if c.contains(.backgroundIntervalHours) {
            backgroundIntervalHours = try c.decodeIfPresent(Double.self, forKey: .backgroundIntervalHours)
        }
        retry = try c.value(.retry, or: base.retry)
        if c.contains(.alignToWallClockMinutes) {
            alignToWallClockMinutes = try c.decodeIfPresent(Double.self, forKey: .alignToWallClockMinutes)
        }
        jitterSeconds = try c.value(.jitterSeconds, or: base.jitterSeconds)
        pushes = try c.value(.pushes, or: base.pushes)
        if c.contains(.backend) { backend = try c.decodeIfPresent(BackendGeneration.self, forKey: .backend) }
        policyFollowsHours = try c.value(.policyFollowsHours, or: base.policyFollowsHours)
        requestPerKey = try c.value(.requestPerKey, or: base.requestPerKey)
        interactive = try c.value(.interactive, or: base.interactive)
        requestsPerTap = try c.value(.requestsPerTap, or: base.requestsPerTap)
        if c.contains(.liveActivity) { liveActivity = try c.decodeIfPresent(LiveActivity.self, forKey: .liveActivity) }
        // A preset changed by the file no longer is what its one-line summary says.
        if let preset = DesignPresets.named(name), !c.contains(.summary) {
            let changed = differences(from: preset)
            if !changed.isEmpty {
                summary = preset.summary + " Modified by the scenario: " + changed.joined(separator: ", ") + "."
            }
        }
    }

    /// The behaviour fields in which this design differs from `other`.
    package func differences(from other: Design) -> [String] {
        let fields: [(String, Bool)] = [
            ("fetchTriggers", Set(fetchTriggers) != Set(other.fetchTriggers)),
            ("cacheTTLMinutes", cacheTTLMinutes != other.cacheTTLMinutes),
            ("reloadPolicy", reloadPolicy != other.reloadPolicy),
            ("timelineEntries", timelineEntries != other.timelineEntries),
            ("entrySpacingMinutes", entrySpacingMinutes != other.entrySpacingMinutes),
            ("reloadCalls", reloadCalls != other.reloadCalls),
            ("requestsPerFetch", requestsPerFetch != other.requestsPerFetch),
            ("backgroundIntervalHours", backgroundIntervalHours != other.backgroundIntervalHours),
            ("retry", retry != other.retry),
            ("alignToWallClockMinutes", alignToWallClockMinutes != other.alignToWallClockMinutes),
            ("jitterSeconds", jitterSeconds != other.jitterSeconds),
            ("pushes", pushes != other.pushes),
            ("backend", backend != other.backend),
            ("policyFollowsHours", policyFollowsHours != other.policyFollowsHours),
            ("requestPerKey", requestPerKey != other.requestPerKey),
            ("interactive", interactive != other.interactive),
            ("requestsPerTap", requestsPerTap != other.requestsPerTap),
            ("liveActivity", liveActivity != other.liveActivity),
        ]
        return fields.filter(\.1).map(\.0)
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encode(summary, forKey: .summary)
        try c.encode(source, forKey: .source)
        try c.encode(fetchTriggers, forKey: .fetchTriggers)
        try c.encode(cacheTTLMinutes, forKey: .cacheTTLMinutes)
        try c.encode(reloadPolicy, forKey: .reloadPolicy)
        try c.encode(timelineEntries, forKey: .timelineEntries)
        try c.encode(entrySpacingMinutes, forKey: .entrySpacingMinutes)
        try c.encode(reloadCalls, forKey: .reloadCalls)
        try c.encode(requestsPerFetch, forKey: .requestsPerFetch)
        try c.encode(backgroundIntervalHours, forKey: .backgroundIntervalHours)
        try c.encode(retry, forKey: .retry)
        try c.encode(alignToWallClockMinutes, forKey: .alignToWallClockMinutes)
        try c.encode(jitterSeconds, forKey: .jitterSeconds)
        try c.encode(pushes, forKey: .pushes)
        try c.encode(backend, forKey: .backend)
        if policyFollowsHours { try c.encode(policyFollowsHours, forKey: .policyFollowsHours) }
        if requestPerKey { try c.encode(requestPerKey, forKey: .requestPerKey) }
        if interactive { try c.encode(interactive, forKey: .interactive) }
        if requestsPerTap != 0 { try c.encode(requestsPerTap, forKey: .requestsPerTap) }
        if let liveActivity { try c.encode(liveActivity, forKey: .liveActivity) }
    }
}

extension Design.ReloadPolicy: Codable {
    private enum Keys: String, CodingKey { case kind, minutes }

    public init(from decoder: Decoder) throws {
        // Accept the short string forms "atEnd", "never", "after(15)" as well as objects.
        if let single = try? decoder.singleValueContainer(), let text = try? single.decode(String.self) {
            switch text {
            case "atEnd":
                self = .atEnd
                return
            case "never":
                self = .never
                return
            default:
                if text.hasPrefix("after("), text.hasSuffix(")"),
                    let minutes = Double(text.dropFirst(6).dropLast())
                {
                    self = .after(minutes: minutes)
                    return
                }
                throw DecodingError.dataCorruptedError(
                    in: single,
                    debugDescription:
                        "unknown reload policy \(quoted(text)); expected \"atEnd\", \"never\" or \"after(MINUTES)\"")
            }
        }
        let c = try decoder.container(keyedBy: Keys.self)
        switch try c.decode(String.self, forKey: .kind) {
        case "atEnd": self = .atEnd
        case "never": self = .never
        case "after": self = .after(minutes: try c.decode(Double.self, forKey: .minutes))
        case let other:
            throw DecodingError.dataCorruptedError(
                forKey: .kind, in: c,
                debugDescription:
                    "unknown reload policy \(quoted(other)); expected atEnd, after or never")
        }
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .atEnd: try c.encode("atEnd")
        case .never: try c.encode("never")
        case .after(let minutes): try c.encode("after(\(NumberText.plain(minutes)))")
        }
    }

    /// `atEnd`, `after(15 min)`, `never`.
    public var summary: String {
        switch self {
        case .atEnd: return "atEnd"
        case .never: return "never"
        case .after(let m): return "after(\(NumberText.plain(m)) min)"
        }
    }
}

extension Design.Retry: Codable {
    private enum Keys: String, CodingKey { case kind, maxRetries, baseSeconds, jitter }

    public init(from decoder: Decoder) throws {
        if let single = try? decoder.singleValueContainer(), let text = try? single.decode(String.self) {
            guard text == "nextOpportunity" else {
                throw DecodingError.dataCorruptedError(
                    in: single,
                    debugDescription:
                        "unknown retry \(quoted(text)); expected \"nextOpportunity\" or {\"kind\": \"backoff\", ...}")
            }
            self = .nextOpportunity
            return
        }
        let c = try decoder.container(keyedBy: Keys.self)
        switch try c.decode(String.self, forKey: .kind) {
        case "nextOpportunity": self = .nextOpportunity
        case "backoff":
            self = .backoff(
                maxRetries: try c.value(.maxRetries, or: 3),
                baseSeconds: try c.value(.baseSeconds, or: 2),
                jitter: try c.value(.jitter, or: true))
        case let other:
            throw DecodingError.dataCorruptedError(
                forKey: .kind, in: c,
                debugDescription:
                    "unknown retry kind \(quoted(other)); expected nextOpportunity or backoff")
        }
    }

    public func encode(to encoder: Encoder) throws {
        switch self {
        case .nextOpportunity:
            var c = encoder.singleValueContainer()
            try c.encode("nextOpportunity")
        case .backoff(let n, let base, let jitter):
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode("backoff", forKey: .kind)
            try c.encode(n, forKey: .maxRetries)
            try c.encode(base, forKey: .baseSeconds)
            try c.encode(jitter, forKey: .jitter)
        }
    }

    /// The retry policy in words, for reports.
    public var summary: String {
        switch self {
        case .nextOpportunity: return "next opportunity"
        case .backoff(let n, let b, let j):
            return "backoff ×\(n) from \(NumberText.plain(b)) s\(j ? " with jitter" : " without jitter")"
        }
    }
}
