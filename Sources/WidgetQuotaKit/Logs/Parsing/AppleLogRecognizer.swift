import Foundation

/// Turns Apple log entries into events: the rules file first, then the built-in line shapes.
///
/// Built in (real line shapes):
/// - `Request ended for <kind>:<family>:<intent> - success|error: ...` → getTimeline (the process
///   logging it is the widget extension);
/// - chronod's `on local reload: succeeded with N entries` → reloadOutcome, never a getTimeline;
/// - `Received run request for <id>` → bgTaskLaunch; `Received request to expire <id>` → bgTaskExpire;
///   `submitTaskRequest: <BGAppRefreshTaskRequest: ...>` → bgTaskSubmit (the process is the app);
/// - CFNetwork `Task <UUID>.<n> summary for task success|failure {... response_status=200 ...}` →
///   apiRequest, attributed later to the app or extension (system daemons never count);
/// - the Gemini widget report's `[GeminiWidget] Fetch error: ...` → fetchError and `[BGTask] submit failed: ...` →
///   failed bgTaskSubmit; `reloadAllTimelines` / `reloadTimelines(ofKind:` in the app → reload calls;
/// - the WidgetQuota app convention `[WidgetQuota] <event> key=value ...` (what `trace` writes).
public struct AppleLogRecognizer: Sendable {
    public let rules: LogRules

    public init(rules: LogRules = LogRules()) { self.rules = rules }

    /// System processes whose lines never count as the app's (network noise, scheduler chatter).
    public static let systemProcesses: Set<String> = [
        "nsurlsessiond", "trustd", "chronod", "dasd", "runningboardd", "SpringBoard", "backboardd", "mDNSResponder",
        "symptomsd", "locationd", "kernel", "powerd", "duetexpertd", "apsd", "cloudd", "itunesstored", "networkd",
        "assertiond", "BTLEServer", "searchpartyd", "WidgetRenderer_Default", "launchd", "CommCenter", "mobileassetd",
    ]

    /// Byte patterns of every built-in line; other lines are not turned into Strings at all.
    static let needles = [
        "Request ended for ", "on local reload", "Received run request for", "Received request to expire",
        "submitTaskRequest", "summary for task", "Fetch error", "submit failed", "[WidgetQuota] ",
        "reloadAllTimelines", "reloadTimelines",
    ]
    private static let candidates = NeedleSet(needles)

    /// True when the message might be recognised (always true when rules are loaded).
    func isCandidate(_ message: UnsafeBufferPointer<UInt8>) -> Bool {
        if !rules.rules.isEmpty { return true }
        return AppleLogRecognizer.candidates.occurs(in: message)
    }

    /// The event an entry stands for, if any.
    public func recognise(_ entry: AppleLogEntry) -> LogEvent? {
        for rule in rules.rules where rule.matches(entry) {
            var e = event(rule.event, entry)
            e.outcome = rule.outcome
            e.actor = rule.actor
            if let state = rule.state { e.lowPowerMode = state }
            if rule.event == .fetchError { e.detail = entry.message }
            return e
        }
        return builtIn(entry)
    }

    private func event(_ kind: LogEventKind, _ entry: AppleLogEntry) -> LogEvent {
        var e = LogEvent(kind: kind, time: entry.time)
        e.process = entry.process
        return e
    }

    /// Byte patterns of the built-in lines.
    private enum P {
        static let requestEnded = Array("Request ended for ".utf8)
        static let dash = Array(" - ".utf8)
        static let localReload = Array("on local reload".utf8)
        static let succeeded = Array("succeeded".utf8)
        static let summary = Array("summary for task".utf8)
        static let summarySuccess = Array("summary for task success".utf8)
        static let status = Array("response_status=".utf8)
        static let duration = Array("transaction_duration_ms=".utf8)
        static let convention = Array("[WidgetQuota] ".utf8)
        static let runRequest = Array("Received run request for".utf8)
        static let expire = Array("Received request to expire".utf8)
        static let submit = Array("submitTaskRequest".utf8)
        static let refreshRequest = Array("BGAppRefreshTaskRequest".utf8)
        static let fetchError = Array("Fetch error".utf8)
        static let bgTask = Array("[BGTask]".utf8)
        static let submitFailed = Array("submit failed".utf8)
        static let reloadAll = Array("reloadAllTimelines".utf8)
        static let reloadKind = Array("reloadTimelines(ofKind".utf8)
    }

    private func builtIn(_ entry: AppleLogEntry) -> LogEvent? {
        var message = entry.message
        return message.withUTF8 { m in builtIn(entry, m) }
    }

    private func builtIn(_ entry: AppleLogEntry, _ m: UnsafeBufferPointer<UInt8>) -> LogEvent? {
        func has(_ needle: [UInt8]) -> Bool { ByteSearch.contains(m, needle) }
        let system = AppleLogRecognizer.systemProcesses.contains(entry.process)
        if let at = ByteSearch.index(of: P.requestEnded, in: m) {
            guard !system else { return nil }
            var e = event(.getTimeline, entry)
            let start = at + P.requestEnded.count
            let dash = ByteSearch.index(of: P.dash, in: m, from: start)
            let identity = start..<(dash ?? m.count)
            if let colon = identity.first(where: { m[$0] == 0x3A }) {
                e.widgetKind = ByteSearch.string(m, identity.lowerBound..<colon)
                let rest = (colon + 1)..<identity.upperBound
                e.widgetFamily = ByteSearch.string(m, rest.lowerBound..<(rest.first(where: { m[$0] == 0x3A }) ?? rest.upperBound))
            } else {
                e.widgetKind = ByteSearch.string(m, identity)
            }
            if let dash {
                let outcome = (dash + P.dash.count)..<m.count
                e.outcome = ByteSearch.hasPrefix(m, Array("success".utf8), at: outcome.lowerBound) ? .success : .failure
                if e.outcome == .failure { e.detail = ByteSearch.string(m, outcome) }
            }
            return e
        }
        if has(P.localReload) {
            var e = event(.reloadOutcome, entry)
            e.outcome = has(P.succeeded) ? .success : .failure
            return e
        }
        if has(P.summary) {
            var e = event(.apiRequest, entry)
            var ok = has(P.summarySuccess)
            if let status = AppleLogRecognizer.number(after: P.status, in: m) { ok = ok && status >= 200 && status < 400 }
            e.outcome = ok ? .success : .failure
            e.durationMs = AppleLogRecognizer.number(after: P.duration, in: m).map(Double.init)
            return e
        }
        if ByteSearch.hasPrefix(m, P.convention) { return convention(entry) }
        if system { return nil }
        if has(P.runRequest) { return event(.bgTaskLaunch, entry) }
        if has(P.expire) { return event(.bgTaskExpire, entry) }
        if has(P.submit) && has(P.refreshRequest) {
            var e = event(.bgTaskSubmit, entry)
            e.outcome = .success
            return e
        }
        if let at = ByteSearch.index(of: P.fetchError, in: m) {
            var e = event(.fetchError, entry)
            e.outcome = .failure
            e.detail = ByteSearch.string(m, at..<m.count)
            return e
        }
        if has(P.bgTask) && has(P.submitFailed) {
            var e = event(.bgTaskSubmit, entry)
            e.outcome = .failure
            return e
        }
        if has(P.reloadAll) { return event(.reloadAllTimelines, entry) }
        if has(P.reloadKind) { return event(.reloadTimelines, entry) }
        return nil
    }

    /// `[WidgetQuota] apiRequest actor=background outcome=success durationMs=1500`.
    private func convention(_ entry: AppleLogEntry) -> LogEvent? {
        let words = entry.message.dropFirst("[WidgetQuota] ".count).split(separator: " ")
        guard let name = words.first, let kind = LogEventKind(rawValue: String(name)) else { return nil }
        var e = event(kind, entry)
        for word in words.dropFirst() {
            let pair = word.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else {
                if kind == .lowPowerMode && (word == "on" || word == "off") { e.lowPowerMode = word == "on" }
                continue
            }
            let value = String(pair[1])
            switch pair[0] {
            case "outcome": e.outcome = LogOutcome(rawValue: value)
            case "actor": e.actor = RequestActor(rawValue: value)
            case "origin": e.origin = TimelineOrigin(rawValue: value)
            case "state": e.lowPowerMode = value == "on"
            case "smartStack": e.smartStack = Bool(value)
            case "lowPowerMode": if kind != .lowPowerMode { e.lowPowerMode = Bool(value) }
            // Like the trace format: a finite duration and a count, both ≥ 0, or nothing.
            case "durationMs": e.durationMs = Double(value).flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
            case "tokens": e.tokens = Int(value).flatMap { $0 >= 0 ? $0 : nil }
            case "widget":
                let parts = value.split(separator: ":")
                if parts.count >= 1 { e.widgetKind = String(parts[0]) }
                if parts.count >= 2 { e.widgetFamily = String(parts[1]) }
                if parts.count >= 3 { e.instance = Int(parts[2]) }
            default: break
            }
        }
        if kind == .lowPowerMode && e.lowPowerMode == nil { return nil }
        return e
    }

    /// The integer after `key` in `text` (`response_status=200`).
    static func number(after key: [UInt8], in text: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let at = ByteSearch.index(of: key, in: text) else { return nil }
        var i = at + key.count
        var value = 0
        let start = i
        while i < text.count, text[i] &- 0x30 < 10, i - start < 12 { value = value * 10 + Int(text[i] &- 0x30); i += 1 }
        return i > start ? value : nil
    }
}
