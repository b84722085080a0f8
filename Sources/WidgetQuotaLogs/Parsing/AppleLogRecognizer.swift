import Foundation
import WidgetQuotaModel

/// Turns Apple log entries into events: the rules file first, then the built-in recognisers of
/// `AppleLogRecognizer.table` in order, each with its name, what it recognises and examples that
/// must and must not match.
package struct AppleLogRecognizer: Sendable {
    package let rules: LogRules

    package init(rules: LogRules = LogRules()) { self.rules = rules }

    /// System processes whose lines never count as the app's (network noise, scheduler chatter).
    package static let systemProcesses: Set<String> = [
        "nsurlsessiond", "trustd", "chronod", "dasd", "runningboardd", "SpringBoard", "backboardd", "mDNSResponder",
        "symptomsd", "locationd", "kernel", "powerd", "duetexpertd", "apsd", "cloudd", "itunesstored", "networkd",
        "assertiond", "BTLEServer", "searchpartyd", "WidgetRenderer_Default", "launchd", "CommCenter", "mobileassetd",
    ]

    /// Byte patterns of every built-in line; other lines are not turned into Strings at all.
    package static let needles = table.flatMap(\.needles)
    private static let candidates = NeedleSet(needles)

    /// True when the message might be recognised (always true when rules are loaded).
    package func isCandidate(_ message: UnsafeBufferPointer<UInt8>) -> Bool {
        if !rules.rules.isEmpty { return true }
        return AppleLogRecognizer.candidates.occurs(in: message)
    }

    /// The event an entry stands for, if any.
    package func recognise(_ entry: AppleLogEntry) -> LogEvent? {
        for rule in rules.rules where rule.matches(entry) {
            var e = LogEvent(rule.event, entry)
            e.outcome = rule.outcome
            e.actor = rule.actor
            if let state = rule.state { e.lowPowerMode = state }
            if rule.event == .fetchError { e.detail = entry.message }
            return e
        }
        var message = entry.message
        return message.withUTF8 { m in AppleLogRecognizer.builtIn(entry, m) }
    }

    /// What the per-line loop reads of each built-in recogniser: no names, needles or examples to
    /// retain and release per line.
    private struct Matcher: Sendable {
        let claims: @Sendable (UnsafeBufferPointer<UInt8>) -> Bool
        let event: @Sendable (AppleLogEntry, UnsafeBufferPointer<UInt8>) -> LogEvent?
        let countsSystemProcesses: Bool
    }

    private static let matchers = table.map {
        Matcher(claims: $0.claims, event: $0.event, countsSystemProcesses: $0.countsSystemProcesses)
    }

    /// The event of the first built-in recogniser that claims the message, if it gives one.
    private static func builtIn(_ entry: AppleLogEntry, _ m: UnsafeBufferPointer<UInt8>) -> LogEvent? {
        for matcher in matchers where matcher.claims(m) {
            if !matcher.countsSystemProcesses && systemProcesses.contains(entry.process) { return nil }
            return matcher.event(entry, m)
        }
        return nil
    }

    /// `[WidgetQuota] apiRequest actor=background outcome=success durationMs=1500`.
    static func convention(_ entry: AppleLogEntry) -> LogEvent? {
        let words = entry.message.dropFirst("[WidgetQuota] ".count).split(separator: " ")
        guard let name = words.first, let kind = LogEventKind(rawValue: String(name)) else { return nil }
        var e = LogEvent(kind, entry)
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
        while i < text.count, text[i] &- 0x30 < 10, i - start < 12 {
            value = value * 10 + Int(text[i] &- 0x30)
            i += 1
        }
        return i > start ? value : nil
    }
}
