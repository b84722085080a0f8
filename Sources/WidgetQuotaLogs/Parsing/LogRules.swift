import Foundation
import WidgetQuotaModel
import WidgetQuotaSupport

/// A rules file: patterns that map an app's own log lines to events.
///
/// ```json
/// {"rules": [
///   {"name": "fetch failed", "process": "^MyApp$", "message": "Fetch error", "event": "fetchError"},
///   {"name": "low power on", "message": "Low Power Mode (on|enabled)", "event": "lowPowerMode", "state": "on"}
/// ]}
/// ```
/// `process`, `subsystem`, `category` and `message` are regular expressions (NSRegularExpression);
/// every one given must match. Rules are tried in order before the built-in recognisers; the
/// first match wins.
package struct LogRules: Sendable {
    /// One rule.
    package struct Rule: @unchecked Sendable {
        package let name: String
        package let event: LogEventKind
        let process: NSRegularExpression?
        let subsystem: NSRegularExpression?
        let category: NSRegularExpression?
        let message: NSRegularExpression?
        package let outcome: LogOutcome?
        package let actor: RequestActor?
        package let state: Bool?

        /// True when every pattern the rule has matches.
        func matches(_ e: AppleLogEntry) -> Bool {
            func test(_ regex: NSRegularExpression?, _ text: String) -> Bool {
                guard let regex else { return true }
                return regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
            }
            return test(process, e.process) && test(subsystem, e.subsystem) && test(category, e.category) && test(message, e.message)
        }
    }

    package let rules: [Rule]

    package init(rules: [Rule] = []) { self.rules = rules }

    /// Loads a rules file; every problem names the file, the rule and what was expected (exit 65).
    package static func load(path: String) throws -> LogRules {
        let data = try InputFile.contents(of: path)
        return try parse(data, file: InputFile.name(path))
    }

    /// Parses rules JSON; `file` names the source in messages.
    package static func parse(_ data: Data, file: String) throws -> LogRules {
        let data = JSONSyntax.withoutByteOrderMark(data)
        if data.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { throw WidgetQuotaError.emptyInput(file: file) }
        func fail(_ problem: String) -> WidgetQuotaError { .malformedInput(file: file, line: nil, problem: problem) }
        try WidgetQuotaError.checkJSONSyntax(data, file: file)
        guard let tree = try? JSONSerialization.jsonObject(with: data) else {
            throw fail("not valid JSON; expected {\"rules\": [{\"name\": ..., \"message\": ..., \"event\": ...}]}")
        }
        guard let top = tree as? [String: Any], let list = top["rules"] as? [Any] else {
            throw fail("expected an object with a \"rules\" array")
        }
        let known: Set<String> = ["name", "event", "process", "subsystem", "category", "message", "outcome", "actor", "state", "comment"]
        var rules = [Rule]()
        for (index, item) in list.enumerated() {
            guard let object = item as? [String: Any] else { throw fail("rules[\(index)]: expected an object") }
            let name = object["name"] as? String ?? "rules[\(index)]"
            let label = "rule \"\(name)\" (rules[\(index)])"
            for key in object.keys.sorted() where !known.contains(key) {
                let hint = Levenshtein.nearest(to: key, in: known).map { "; did you mean \"\($0)\"?" } ?? ""
                throw fail("\(label): unknown key \"\(key)\"\(hint)")
            }
            guard let eventName = object["event"] as? String else {
                throw fail("\(label): expected \"event\", one of \(LogEventKind.allNames)")
            }
            guard let event = LogEventKind(rawValue: eventName) else {
                throw fail("\(label): unknown event \"\(eventName)\"; expected one of \(LogEventKind.allNames)")
            }
            func pattern(_ key: String) throws -> NSRegularExpression? {
                guard let value = object[key] else { return nil }
                guard let text = value as? String else { throw fail("\(label): \"\(key)\" must be a string (a regular expression)") }
                do {
                    return try NSRegularExpression(pattern: text)
                } catch {
                    throw fail("\(label): invalid \(key) pattern \"\(text)\": expected a valid regular expression (NSRegularExpression)")
                }
            }
            let process = try pattern("process")
            let subsystem = try pattern("subsystem")
            let category = try pattern("category")
            let message = try pattern("message")
            guard process != nil || subsystem != nil || category != nil || message != nil else {
                throw fail("\(label): expected at least one of \"process\", \"subsystem\", \"category\", \"message\"")
            }
            var outcome: LogOutcome?
            if let text = object["outcome"] {
                guard let t = text as? String, let v = LogOutcome(rawValue: t) else {
                    throw fail("\(label): \"outcome\" must be \"success\" or \"failure\"")
                }
                outcome = v
            }
            var actor: RequestActor?
            if let text = object["actor"] {
                guard let t = text as? String, let v = RequestActor(rawValue: t) else {
                    throw fail("\(label): \"actor\" must be \"app\", \"extension\" or \"background\"")
                }
                actor = v
            }
            var state: Bool?
            if let text = object["state"] {
                guard let t = text as? String, t == "on" || t == "off" else { throw fail("\(label): \"state\" must be \"on\" or \"off\"") }
                state = t == "on"
            }
            if event == .lowPowerMode && state == nil { throw fail("\(label): a lowPowerMode rule needs \"state\": \"on\" or \"off\"") }
            rules.append(
                Rule(
                    name: name, event: event, process: process, subsystem: subsystem, category: category,
                    message: message, outcome: outcome, actor: actor, state: state))
        }
        return LogRules(rules: rules)
    }
}
