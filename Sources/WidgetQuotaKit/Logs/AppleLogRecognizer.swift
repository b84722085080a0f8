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
/// - seed 000's `[GeminiWidget] Fetch error: ...` → fetchError and `[BGTask] submit failed: ...` →
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
    static let needles: [[UInt8]] = [
        "Request ended for ", "on local reload", "Received run request for", "Received request to expire",
        "submitTaskRequest", "summary for task", "Fetch error", "submit failed", "[WidgetQuota] ",
        "reloadAllTimelines", "reloadTimelines",
    ].map { Array($0.utf8) }

    /// True when the message might be recognised (always true when rules are loaded).
    func isCandidate(_ message: UnsafeBufferPointer<UInt8>) -> Bool {
        if !rules.rules.isEmpty { return true }
        return AppleLogRecognizer.needles.contains { ByteSearch.contains(message, $0) }
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

    private func builtIn(_ entry: AppleLogEntry) -> LogEvent? {
        let m = entry.message
        let system = AppleLogRecognizer.systemProcesses.contains(entry.process)
        if let r = m.range(of: "Request ended for ") {
            guard !system else { return nil }
            var e = event(.getTimeline, entry)
            let rest = m[r.upperBound...]
            let identity = rest.range(of: " - ").map { rest[..<$0.lowerBound] } ?? rest
            let parts = identity.split(separator: ":", maxSplits: 2)
            if parts.count >= 1 { e.widgetKind = String(parts[0]) }
            if parts.count >= 2 { e.widgetFamily = String(parts[1]) }
            if let dash = rest.range(of: " - ") {
                let outcome = rest[dash.upperBound...]
                e.outcome = outcome.hasPrefix("success") ? .success : .failure
                if e.outcome == .failure { e.detail = String(outcome) }
            }
            return e
        }
        if m.contains("on local reload") {
            var e = event(.reloadOutcome, entry)
            e.outcome = m.contains("succeeded") ? .success : .failure
            return e
        }
        if m.contains("summary for task") {
            var e = event(.apiRequest, entry)
            var ok = m.contains("summary for task success")
            if let status = AppleLogRecognizer.number(after: "response_status=", in: m) {
                ok = ok && status >= 200 && status < 400
            }
            e.outcome = ok ? .success : .failure
            e.durationMs = AppleLogRecognizer.number(after: "transaction_duration_ms=", in: m).map(Double.init)
            return e
        }
        if m.hasPrefix("[WidgetQuota] ") { return convention(entry) }
        if system { return nil }
        if m.contains("Received run request for") { return event(.bgTaskLaunch, entry) }
        if m.contains("Received request to expire") { return event(.bgTaskExpire, entry) }
        if m.contains("submitTaskRequest"), m.contains("BGAppRefreshTaskRequest") {
            var e = event(.bgTaskSubmit, entry)
            e.outcome = .success
            return e
        }
        if m.contains("Fetch error") {
            var e = event(.fetchError, entry)
            e.outcome = .failure
            e.detail = m.range(of: "Fetch error").map { String(m[$0.lowerBound...]) } ?? m
            return e
        }
        if m.contains("[BGTask]"), m.contains("submit failed") {
            var e = event(.bgTaskSubmit, entry)
            e.outcome = .failure
            return e
        }
        if m.contains("reloadAllTimelines") { return event(.reloadAllTimelines, entry) }
        if m.contains("reloadTimelines(ofKind") { return event(.reloadTimelines, entry) }
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
            case "durationMs": e.durationMs = Double(value)
            case "tokens": e.tokens = Int(value)
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
    static func number(after key: String, in text: String) -> Int? {
        guard let r = text.range(of: key) else { return nil }
        let digits = text[r.upperBound...].prefix { $0.isASCII && $0.isNumber }
        return Int(digits)
    }
}
