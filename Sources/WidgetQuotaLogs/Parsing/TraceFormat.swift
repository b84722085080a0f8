import Foundation
import WidgetQuotaModel
import WidgetQuotaSupport

/// WidgetQuota's own trace format, as NDJSON (one object per line) or CSV (a header line, then
/// one row per event). Documented as a contract in docs/trace-format.md.
///
/// Every record carries `schemaVersion` (1), an ISO 8601 `timestamp` with offset, the `device`
/// and the `event` (a `LogEventKind` raw value); the other fields are optional.
package enum TraceFormat {
    /// The schema version this build writes and reads.
    package static let schemaVersion = 1

    /// The fields in CSV column order (NDJSON uses the same names as keys).
    package static let columns = [
        "schemaVersion", "timestamp", "device", "event", "widgetKind", "widgetFamily", "instance", "origin",
        "smartStack", "lowPowerMode", "state", "actor", "outcome", "durationMs", "tokens", "detail",
    ]

    /// The CSV header line (without line break).
    package static var csvHeader: String { columns.joined(separator: ",") }

    /// One NDJSON line (without line break) for `event` on `device`.
    package static func ndjsonLine(_ e: LogEvent, device: String) -> String {
        var s =
            "{\"schemaVersion\":\(schemaVersion),\"timestamp\":\"\(e.time.iso8601())\",\"device\":\(quoted(device)),\"event\":\"\(e.kind.rawValue)\""
        if let v = e.widgetKind { s += ",\"widgetKind\":" + quoted(v) }
        if let v = e.widgetFamily { s += ",\"widgetFamily\":" + quoted(v) }
        if let v = e.instance { s += ",\"instance\":\(v)" }
        if let v = e.origin { s += ",\"origin\":\"\(v.rawValue)\"" }
        if let v = e.smartStack { s += ",\"smartStack\":\(v)" }
        if let v = e.lowPowerMode { s += ",\"lowPowerMode\":\(v)" }
        if e.kind == .lowPowerMode, let v = e.lowPowerMode { s += ",\"state\":\"\(v ? "on" : "off")\"" }
        if let v = e.actor { s += ",\"actor\":\"\(v.rawValue)\"" }
        if let v = e.outcome { s += ",\"outcome\":\"\(v.rawValue)\"" }
        if let v = e.durationMs { s += ",\"durationMs\":" + NumberText.plain(v, maxFractionDigits: 3) }
        if let v = e.tokens { s += ",\"tokens\":\(v)" }
        if let v = e.detail { s += ",\"detail\":" + quoted(v) }
        return s + "}"
    }

    /// One CSV row (without line break) for `event` on `device`.
    package static func csvLine(_ e: LogEvent, device: String) -> String {
        let cells: [CSVWriter.Cell] = [
            .integer(schemaVersion), .text(e.time.iso8601()), .text(device), .text(e.kind.rawValue),
            e.widgetKind.map(CSVWriter.Cell.text) ?? .empty, e.widgetFamily.map(CSVWriter.Cell.text) ?? .empty,
            e.instance.map(CSVWriter.Cell.integer) ?? .empty, e.origin.map { .text($0.rawValue) } ?? .empty,
            e.smartStack.map { .text(String($0)) } ?? .empty, e.lowPowerMode.map { .text(String($0)) } ?? .empty,
            e.kind == .lowPowerMode ? e.lowPowerMode.map { .text($0 ? "on" : "off") } ?? .empty : .empty,
            e.actor.map { .text($0.rawValue) } ?? .empty, e.outcome.map { .text($0.rawValue) } ?? .empty,
            e.durationMs.map(CSVWriter.Cell.number) ?? .empty, e.tokens.map(CSVWriter.Cell.integer) ?? .empty,
            e.detail.map(CSVWriter.Cell.text) ?? .empty,
        ]
        return cells.map(CSVWriter.encode).joined(separator: ",")
    }

    /// A JSON string literal.
    package static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}

/// The typed fields of one trace record, before validation.
///
/// Fields an event carries as they are read go straight into `draft`, the event itself, so a
/// valid record reaches the analyzer without copying its Strings from one value to another.
package struct TraceFields {
    /// The event being read: device, widget, instance, origin, Smart Stack, actor, outcome,
    /// duration, tokens and detail. `validate()` sets its kind, time and Low Power Mode.
    var draft = LogEvent(kind: .getTimeline, time: LogTimestamp(localSeconds: 0, utcOffsetSeconds: nil))
    var schemaVersion: Int?
    var timestamp: LogTimestamp?
    var timestampText: Bool = false
    var event: LogEventKind?
    var eventPresent = false
    var lowPowerMode: Bool?
    var state: Bool?
    /// The first field whose value was not what the schema allows.
    var problem: String?

    package init(
        schemaVersion: Int? = nil, timestamp: LogTimestamp? = nil, timestampText: Bool = false, event: LogEventKind? = nil,
        lowPowerMode: Bool? = nil, state: Bool? = nil, problem: String? = nil
    ) {
        self.schemaVersion = schemaVersion
        self.timestamp = timestamp
        self.timestampText = timestampText
        self.event = event
        self.lowPowerMode = lowPowerMode
        self.state = state
        self.problem = problem
    }

    /// Completes `draft` (its kind, time and Low Power Mode state) when the record is a valid
    /// event; otherwise returns what was expected.
    mutating func validate() -> LineProblem? {
        if let problem { return LineProblem(problem) }
        guard let version = schemaVersion else { return LineProblem("expected \"schemaVersion\": \(TraceFormat.schemaVersion)") }
        guard version == TraceFormat.schemaVersion else {
            return LineProblem("unsupported schemaVersion \(version); this version reads \(TraceFormat.schemaVersion)")
        }
        guard let time = timestamp else {
            return LineProblem(
                timestampText
                    ? "expected an ISO 8601 timestamp such as 2026-09-01T07:12:03.120-04:00"
                    : "expected a \"timestamp\"")
        }
        // The schema requires the offset: without it, neither the device's day nor the UTC minute is known.
        guard time.utcOffsetSeconds != nil else {
            return LineProblem("the timestamp has no UTC offset; expected Z or ±hh:mm, as in 2026-09-01T07:12:03.120-04:00")
        }
        guard let kind = event else {
            return LineProblem(eventPresent ? "unknown event type; expected one of \(LogEventKind.allNames)" : "expected an \"event\"")
        }
        draft.kind = kind
        draft.time = time
        draft.lowPowerMode = kind == .lowPowerMode ? (state ?? lowPowerMode) : lowPowerMode
        if kind == .lowPowerMode && draft.lowPowerMode == nil {
            return LineProblem("expected \"state\": \"on\" or \"off\" for a lowPowerMode event")
        }
        return nil
    }

    /// A field of the schema, for columns named once per file instead of once per cell.
    package enum Field {
        case schemaVersion, timestamp, device, event, widgetKind, widgetFamily, instance, origin
        case smartStack, lowPowerMode, state, actor, outcome, durationMs, tokens, detail, unknown

        /// The field `set` assigns for `name` (the same comparisons).
        package init(name: String) {
            switch name {
            case "schemaVersion": self = .schemaVersion
            case "timestamp": self = .timestamp
            case "device": self = .device
            case "event": self = .event
            case "widgetKind": self = .widgetKind
            case "widgetFamily": self = .widgetFamily
            case "instance": self = .instance
            case "origin": self = .origin
            case "smartStack": self = .smartStack
            case "lowPowerMode": self = .lowPowerMode
            case "state": self = .state
            case "actor": self = .actor
            case "outcome": self = .outcome
            case "durationMs": self = .durationMs
            case "tokens": self = .tokens
            case "detail": self = .detail
            default: self = .unknown
            }
        }

        /// The field ASCII key bytes name (what `init(name:)` gives for them), without a String.
        init(ascii key: UnsafeBufferPointer<UInt8>) {
            self = Field.byName.match(key) ?? .unknown
        }

        private static let byName = ByteTable(TraceFormat.columns.map { ($0, Field(name: $0)) })

        /// The field's name in the schema (empty for `unknown`).
        var name: String {
            switch self {
            case .schemaVersion: return "schemaVersion"
            case .timestamp: return "timestamp"
            case .device: return "device"
            case .event: return "event"
            case .widgetKind: return "widgetKind"
            case .widgetFamily: return "widgetFamily"
            case .instance: return "instance"
            case .origin: return "origin"
            case .smartStack: return "smartStack"
            case .lowPowerMode: return "lowPowerMode"
            case .state: return "state"
            case .actor: return "actor"
            case .outcome: return "outcome"
            case .durationMs: return "durationMs"
            case .tokens: return "tokens"
            case .detail: return "detail"
            case .unknown: return ""
            }
        }

        /// Free text, redacted: device, widgetKind, widgetFamily, detail.
        var isText: Bool {
            switch self {
            case .device, .widgetKind, .widgetFamily, .detail: return true
            default: return false
            }
        }
    }

    /// Sets a text field to its already redacted, non-empty value.
    mutating func setText(_ field: Field, _ value: String) {
        switch field {
        case .device: draft.device = value
        case .widgetKind: draft.widgetKind = value
        case .widgetFamily: draft.widgetFamily = value
        case .detail: draft.detail = value
        default: break
        }
    }

    static let origins = ByteTable(cases: [TimelineOrigin.system, .policy, .reloadCall, .queued, .tap])
    static let actors = ByteTable(cases: [RequestActor.app, .widgetExtension, .background])
    static let outcomes = ByteTable(cases: [LogOutcome.success, .failure])
    static let trueBytes = Array("true".utf8), falseBytes = Array("false".utf8)
    private static let onBytes = Array("on".utf8), offBytes = Array("off".utf8)

    /// Sets a typed field from the bytes of a non-empty value when they are a spelling whose
    /// meaning is certain (plain digits, an exact raw value); false leaves `self` unchanged, for
    /// `set` to handle the text with its full rules and messages.
    package mutating func setFast(_ field: Field, _ v: UnsafeBufferPointer<UInt8>) -> Bool {
        @inline(__always) func digits(_ maxCount: Int) -> Int? {
            guard v.count <= maxCount else { return nil }
            var n = 0
            for c in v {
                guard c &- 0x30 < 10 else { return nil }
                n = n &* 10 &+ Int(c &- 0x30)
            }
            return n
        }
        @inline(__always) func bool() -> Bool? {
            ByteSearch.equal(v, TraceFields.trueBytes) ? true : ByteSearch.equal(v, TraceFields.falseBytes) ? false : nil
        }
        switch field {
        case .schemaVersion:
            guard let n = digits(18) else { return false }
            schemaVersion = n
        case .timestamp:
            guard let (ts, end) = LogTimestamp.parse(v), end == v.count else { return false }
            timestampText = true
            timestamp = ts
        case .event:
            guard let kind = LogEventKind.matching(v) else { return false }
            eventPresent = true
            event = kind
        case .instance:
            guard let n = digits(18) else { return false }
            draft.instance = n
        case .origin:
            guard let o = TraceFields.origins.match(v) else { return false }
            draft.origin = o
        case .smartStack:
            guard let x = bool() else { return false }
            draft.smartStack = x
        case .lowPowerMode:
            guard let x = bool() else { return false }
            lowPowerMode = x
        case .state:
            if ByteSearch.equal(v, TraceFields.onBytes) {
                state = true
            } else if ByteSearch.equal(v, TraceFields.offBytes) {
                state = false
            } else {
                return false
            }
        case .actor:
            guard let a = TraceFields.actors.match(v) else { return false }
            draft.actor = a
        case .outcome:
            guard let o = TraceFields.outcomes.match(v) else { return false }
            draft.outcome = o
        // Whole numbers below 10^15 convert to Double exactly, as Double(text) does.
        case .durationMs:
            guard let n = digits(15) else { return false }
            draft.durationMs = Double(n)
        case .tokens:
            guard let n = digits(18) else { return false }
            draft.tokens = n
        case .device, .widgetKind, .widgetFamily, .detail, .unknown: return false
        }
        return true
    }

    /// Sets the field `name` from its text (CSV cells; NDJSON strings and numbers).
    package mutating func set(_ name: String, _ text: String, redactor: SecretRedactor) {
        if text.isEmpty { return }
        func fail(_ expected: String) { if problem == nil { problem = "\(name): expected \(expected)" } }
        switch name {
        case "schemaVersion": if let v = Int(text) { schemaVersion = v } else { fail("a whole number") }
        case "timestamp":
            timestampText = true
            timestamp = LogTimestamp.parse(text)
        case "device": draft.device = redactor.redact(text)
        case "event":
            eventPresent = true
            event = LogEventKind(rawValue: text)
        case "widgetKind": draft.widgetKind = redactor.redact(text)
        case "widgetFamily": draft.widgetFamily = redactor.redact(text)
        case "instance": if let v = Int(text), v >= 0 { draft.instance = v } else { fail("a whole number ≥ 0") }
        case "origin":
            if let v = TimelineOrigin(rawValue: text) { draft.origin = v } else { fail("system, policy, reloadCall, queued or tap") }
        case "smartStack": if let v = Bool(text) { draft.smartStack = v } else { fail("true or false") }
        case "lowPowerMode": if let v = Bool(text) { lowPowerMode = v } else { fail("true or false") }
        case "state":
            switch text {
            case "on": state = true
            case "off": state = false
            default: fail("on or off")
            }
        case "actor": if let v = RequestActor(rawValue: text) { draft.actor = v } else { fail("app, extension or background") }
        case "outcome": if let v = LogOutcome(rawValue: text) { draft.outcome = v } else { fail("success or failure") }
        case "durationMs":
            if let v = Double(text), v.isFinite, v >= 0 { draft.durationMs = v } else { fail("a number of milliseconds ≥ 0") }
        case "tokens": if let v = Int(text), v >= 0 { draft.tokens = v } else { fail("a whole number ≥ 0") }
        case "detail": draft.detail = redactor.redact(text)
        default: break  // unknown fields are allowed (newer writers)
        }
    }
}

/// What was wrong with a line: a sentence that completes `file:line: ...`.
package struct LineProblem: Error {
    package let text: String
    init(_ text: String) { self.text = text }
}
