/// One built-in shape of Apple log line and the event it gives, with examples that must and must
/// not match it.
///
/// Like a lint rule's description: a short identifier, one line saying what is recognised, the
/// byte patterns that mark a candidate message, and examples that a test runs through the real
/// recogniser. `AppleLogRecognizer.table` lists them in the order they are tried; the first that
/// claims a message decides.
package struct BuiltInRecognizer: Sendable, CustomStringConvertible {
    /// A log line reduced to what the recognisers read: the process and the message.
    package struct Example: Sendable, CustomStringConvertible {
        package let process: String
        package let message: String
        /// The event the line gives, written as `LogEvent.summary` writes it; nil when the line
        /// must give no event at all.
        package let event: String?

        package init(process: String, message: String, event: String? = nil) {
            self.process = process
            self.message = message
            self.event = event
        }

        package var description: String { "\(process): \(message)" }
    }

    /// A short identifier (`cfnetworkSummary`): the name `docs/logs.md` lists.
    package let name: String
    /// What the recogniser looks for and what it gives, in one line.
    package let recognises: String
    /// Whether lines of `AppleLogRecognizer.systemProcesses` count; when not, a system process's
    /// line of this shape gives no event (and no later recogniser is tried).
    package let countsSystemProcesses: Bool
    /// Byte patterns one of which every message of this shape holds: lines holding none of any
    /// recogniser's patterns are not turned into Strings at all.
    package let needles: [String]
    /// Lines that must give the example's event, through this recogniser and through the whole table.
    package let triggeringExamples: [Example]
    /// Lines that must give no event from the whole table.
    package let nonTriggeringExamples: [Example]
    /// True when the message has this shape (the recogniser then decides the line).
    let claims: @Sendable (UnsafeBufferPointer<UInt8>) -> Bool
    /// The event of a claimed line, if any (`message` holds the entry's message bytes).
    let event: @Sendable (_ entry: AppleLogEntry, _ message: UnsafeBufferPointer<UInt8>) -> LogEvent?

    package var description: String { name }

    /// The event this recogniser gives for `entry`, or nil when it does not claim the line or the
    /// line is a system process's and does not count.
    package func recognise(_ entry: AppleLogEntry) -> LogEvent? {
        var message = entry.message
        return message.withUTF8 { m in
            guard claims(m) else { return nil }
            if !countsSystemProcesses && AppleLogRecognizer.systemProcesses.contains(entry.process) { return nil }
            return event(entry, m)
        }
    }
}

extension AppleLogRecognizer {
    /// The built-in recognisers, in the order they are tried.
    package static let table: [BuiltInRecognizer] = [
        BuiltInRecognizer(
            name: "requestEnded",
            recognises:
                "WidgetKit's `Request ended for <kind>:<family>:<intent> - success|error: ...` in the widget extension → getTimeline",
            countsSystemProcesses: false,
            needles: ["Request ended for "],
            triggeringExamples: [
                .init(
                    process: "GeminiAppWidgetExtension",
                    message: "Request ended for AIMessageWidget:systemSmall:(noIntent) - success",
                    event: "getTimeline outcome=success widget=AIMessageWidget:systemSmall"),
                .init(
                    process: "GeminiAppWidgetExtension",
                    message: "Request ended for AIMessageWidget:systemMedium:(noIntent) - error: timed out",
                    event: "getTimeline outcome=failure widget=AIMessageWidget:systemMedium detail=\"error: timed out\""),
                .init(
                    process: "GeminiAppWidgetExtension", message: "Request ended for AIMessageWidget",
                    event: "getTimeline widget=AIMessageWidget:?"),
            ],
            nonTriggeringExamples: [
                .init(process: "chronod", message: "Request ended for AIMessageWidget:systemSmall:(noIntent) - success"),
                .init(process: "GeminiAppWidgetExtension", message: "request ended for AIMessageWidget:systemSmall"),
            ],
            claims: { ByteSearch.contains($0, Pattern.requestEnded) },
            event: requestEnded
        ),
        BuiltInRecognizer(
            name: "chronodLocalReload",
            recognises: "chronod's `on local reload: succeeded with N entries` (or a failure) → reloadOutcome, never a getTimeline",
            countsSystemProcesses: true,
            needles: ["on local reload"],
            triggeringExamples: [
                .init(
                    process: "chronod",
                    message: "[AIMessageWidget:systemSmall:(noIntent)] on local reload: succeeded with 1 entries",
                    event: "reloadOutcome outcome=success"),
                .init(
                    process: "chronod", message: "[AIMessageWidget:systemSmall:(noIntent)] on local reload: failed",
                    event: "reloadOutcome outcome=failure"),
            ],
            nonTriggeringExamples: [
                .init(process: "chronod", message: "[AIMessageWidget:systemSmall:(noIntent)] on remote reload: succeeded")
            ],
            claims: { ByteSearch.contains($0, Pattern.localReload) },
            event: localReload
        ),
        BuiltInRecognizer(
            name: "cfnetworkSummary",
            recognises: "CFNetwork's `Task <UUID>.<n> summary for task success|failure {... response_status=200 ...}` → apiRequest "
                + "(status 100–399 and success count as success: 1xx, such as 101 for a websocket upgrade, is no failure), "
                + "attributed later to the app or the extension",
            countsSystemProcesses: true,
            needles: ["summary for task"],
            triggeringExamples: [
                .init(
                    process: "GeminiApp",
                    message:
                        "Task <9B1C2A4E-1111-4E0E-9C55-2B7D0A3E9F11>.<3> summary for task success {transaction_duration_ms=120, response_status=200}",
                    event: "apiRequest outcome=success durationMs=120"),
                .init(
                    process: "GeminiApp",
                    message:
                        "Task <9B1C2A4E-1111-4E0E-9C55-2B7D0A3E9F11>.<3> summary for task success {transaction_duration_ms=80, response_status=503}",
                    event: "apiRequest outcome=failure durationMs=80"),
                .init(
                    process: "GeminiApp",
                    message: "Task <9B1C2A4E-1111-4E0E-9C55-2B7D0A3E9F11>.<3> summary for task failure {transaction_duration_ms=10000}",
                    event: "apiRequest outcome=failure durationMs=10000"),
                .init(
                    process: "trustd",
                    message: "Task <8B1C2A4E-1111-4E0E-9C55-2B7D0A3E9F11>.<2> summary for task success {response_status=200}",
                    event: "apiRequest outcome=success"),
                .init(
                    process: "GeminiApp",
                    message:
                        "Task <9B1C2A4E-1111-4E0E-9C55-2B7D0A3E9F11>.<4> summary for task success {transaction_duration_ms=35, response_status=101}",
                    event: "apiRequest outcome=success durationMs=35"),
                .init(
                    process: "GeminiApp",
                    message: "Task <9B1C2A4E-1111-4E0E-9C55-2B7D0A3E9F11>.<5> summary for task success {response_status=99}",
                    event: "apiRequest outcome=failure"),
            ],
            nonTriggeringExamples: [
                .init(process: "GeminiApp", message: "Task <9B1C2A4E-1111-4E0E-9C55-2B7D0A3E9F11>.<3> finished successfully")
            ],
            claims: { ByteSearch.contains($0, Pattern.summary) },
            event: cfnetworkSummary
        ),
        BuiltInRecognizer(
            name: "widgetQuotaConvention",
            recognises: "the WidgetQuota app convention `[WidgetQuota] <event> key=value ...` (what `trace` writes) → that event",
            countsSystemProcesses: true,
            needles: ["[WidgetQuota] "],
            triggeringExamples: [
                .init(
                    process: "GeminiApp", message: "[WidgetQuota] apiRequest actor=background outcome=success durationMs=1500",
                    event: "apiRequest outcome=success actor=background durationMs=1500"),
                .init(
                    process: "GeminiAppWidgetExtension",
                    message: "[WidgetQuota] getTimeline widget=AIMessageWidget:systemSmall:2 origin=policy smartStack=true",
                    event: "getTimeline widget=AIMessageWidget:systemSmall:2 origin=policy smartStack=true"),
                .init(process: "GeminiApp", message: "[WidgetQuota] lowPowerMode on", event: "lowPowerMode lowPowerMode=true"),
                .init(process: "GeminiApp", message: "[WidgetQuota] lowPowerMode state=off", event: "lowPowerMode lowPowerMode=false"),
            ],
            nonTriggeringExamples: [
                .init(process: "GeminiApp", message: "[WidgetQuota] launchedRockets count=3"),
                .init(process: "GeminiApp", message: "[WidgetQuota] lowPowerMode"),
                .init(process: "GeminiApp", message: "note: [WidgetQuota] apiRequest outcome=success"),
            ],
            claims: { ByteSearch.hasPrefix($0, Pattern.convention) },
            event: { entry, _ in convention(entry) }
        ),
        BuiltInRecognizer(
            name: "bgTaskRunRequest",
            recognises: "BackgroundTasks' `Received run request for <identifier>` in the app → bgTaskLaunch",
            countsSystemProcesses: false,
            needles: ["Received run request for"],
            triggeringExamples: [
                .init(process: "GeminiApp", message: "Received run request for com.example.myapp.gemini.refresh", event: "bgTaskLaunch")
            ],
            nonTriggeringExamples: [
                .init(process: "dasd", message: "Received run request for com.example.myapp.gemini.refresh")
            ],
            claims: { ByteSearch.contains($0, Pattern.runRequest) },
            event: { entry, _ in LogEvent(.bgTaskLaunch, entry) }
        ),
        BuiltInRecognizer(
            name: "bgTaskExpire",
            recognises: "BackgroundTasks' `Received request to expire <identifier>` in the app → bgTaskExpire",
            countsSystemProcesses: false,
            needles: ["Received request to expire"],
            triggeringExamples: [
                .init(process: "GeminiApp", message: "Received request to expire com.example.myapp.gemini.refresh", event: "bgTaskExpire")
            ],
            nonTriggeringExamples: [
                .init(process: "dasd", message: "Received request to expire com.example.myapp.gemini.refresh")
            ],
            claims: { ByteSearch.contains($0, Pattern.expire) },
            event: { entry, _ in LogEvent(.bgTaskExpire, entry) }
        ),
        BuiltInRecognizer(
            name: "bgTaskSubmit",
            recognises: "`submitTaskRequest: <BGAppRefreshTaskRequest: ...>` in the app → bgTaskSubmit with outcome success",
            countsSystemProcesses: false,
            needles: ["submitTaskRequest"],
            triggeringExamples: [
                .init(
                    process: "GeminiApp",
                    message:
                        "submitTaskRequest: <BGAppRefreshTaskRequest: com.example.myapp.gemini.refresh, earliestBeginDate: 2025-07-27 22:00:00 +0000>",
                    event: "bgTaskSubmit outcome=success")
            ],
            nonTriggeringExamples: [
                .init(process: "GeminiApp", message: "submitTaskRequest: <BGProcessingTaskRequest: com.example.myapp.cleanup>"),
                .init(process: "dasd", message: "submitTaskRequest: <BGAppRefreshTaskRequest: com.example.myapp.gemini.refresh>"),
            ],
            claims: { ByteSearch.contains($0, Pattern.submit) && ByteSearch.contains($0, Pattern.refreshRequest) },
            event: { entry, _ in LogEvent(.bgTaskSubmit, entry, outcome: .success) }
        ),
        BuiltInRecognizer(
            name: "geminiFetchError",
            recognises: "the Gemini widget report's `[GeminiWidget] Fetch error: ...` → fetchError with outcome failure and the error text",
            countsSystemProcesses: false,
            needles: ["Fetch error"],
            triggeringExamples: [
                .init(
                    process: "GeminiApp", message: "[GeminiWidget] Fetch error: The request timed out.",
                    event: "fetchError outcome=failure detail=\"Fetch error: The request timed out.\"")
            ],
            nonTriggeringExamples: [
                .init(process: "nsurlsessiond", message: "[GeminiWidget] Fetch error: The request timed out."),
                .init(process: "GeminiApp", message: "[GeminiWidget] fetch error: lowercase is another message"),
            ],
            claims: { ByteSearch.contains($0, Pattern.fetchError) },
            event: geminiFetchError
        ),
        BuiltInRecognizer(
            name: "geminiSubmitFailed",
            recognises: "the Gemini widget report's `[BGTask] submit failed: ...` → bgTaskSubmit with outcome failure",
            countsSystemProcesses: false,
            needles: ["submit failed"],
            triggeringExamples: [
                .init(
                    process: "GeminiApp", message: "[BGTask] submit failed: BGTaskSchedulerErrorDomain Code=1",
                    event: "bgTaskSubmit outcome=failure")
            ],
            nonTriggeringExamples: [
                .init(process: "GeminiApp", message: "[Upload] submit failed: quota")
            ],
            claims: { ByteSearch.contains($0, Pattern.bgTask) && ByteSearch.contains($0, Pattern.submitFailed) },
            event: { entry, _ in LogEvent(.bgTaskSubmit, entry, outcome: .failure) }
        ),
        BuiltInRecognizer(
            name: "reloadAllTimelines",
            recognises: "the app logging `reloadAllTimelines` (WidgetCenter) → reloadAllTimelines",
            countsSystemProcesses: false,
            needles: ["reloadAllTimelines"],
            triggeringExamples: [
                .init(process: "GeminiApp", message: "WidgetCenter.shared.reloadAllTimelines()", event: "reloadAllTimelines")
            ],
            nonTriggeringExamples: [
                .init(process: "SpringBoard", message: "reloadAllTimelines requested")
            ],
            claims: { ByteSearch.contains($0, Pattern.reloadAll) },
            event: { entry, _ in LogEvent(.reloadAllTimelines, entry) }
        ),
        BuiltInRecognizer(
            name: "reloadTimelinesOfKind",
            recognises: "the app logging `reloadTimelines(ofKind:` (WidgetCenter) → reloadTimelines",
            countsSystemProcesses: false,
            needles: ["reloadTimelines"],
            triggeringExamples: [
                .init(
                    process: "GeminiApp", message: "WidgetCenter.shared.reloadTimelines(ofKind: \"AIMessageWidget\")",
                    event: "reloadTimelines")
            ],
            nonTriggeringExamples: [
                .init(process: "GeminiApp", message: "reloadTimelines skipped: nothing changed")
            ],
            claims: { ByteSearch.contains($0, Pattern.reloadKind) },
            event: { entry, _ in LogEvent(.reloadTimelines, entry) }
        ),
    ]

    /// Byte patterns of the built-in lines.
    enum Pattern {
        static let requestEnded = Array("Request ended for ".utf8)
        static let dash = Array(" - ".utf8)
        static let success = Array("success".utf8)
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

    /// `Request ended for AIMessageWidget:systemSmall:(noIntent) - success`.
    private static func requestEnded(_ entry: AppleLogEntry, _ m: UnsafeBufferPointer<UInt8>) -> LogEvent? {
        guard let at = ByteSearch.index(of: Pattern.requestEnded, in: m) else { return nil }
        var e = LogEvent(.getTimeline, entry)
        let start = at + Pattern.requestEnded.count
        let dash = ByteSearch.index(of: Pattern.dash, in: m, from: start)
        let identity = start..<(dash ?? m.count)
        if let colon = identity.first(where: { m[$0] == 0x3A }) {
            e.widgetKind = ByteSearch.string(m, identity.lowerBound..<colon)
            let rest = (colon + 1)..<identity.upperBound
            e.widgetFamily = ByteSearch.string(m, rest.lowerBound..<(rest.first(where: { m[$0] == 0x3A }) ?? rest.upperBound))
        } else {
            e.widgetKind = ByteSearch.string(m, identity)
        }
        if let dash {
            let outcome = (dash + Pattern.dash.count)..<m.count
            e.outcome = ByteSearch.hasPrefix(m, Pattern.success, at: outcome.lowerBound) ? .success : .failure
            if e.outcome == .failure { e.detail = ByteSearch.string(m, outcome) }
        }
        return e
    }

    /// `on local reload: succeeded with 1 entries`.
    private static func localReload(_ entry: AppleLogEntry, _ m: UnsafeBufferPointer<UInt8>) -> LogEvent? {
        LogEvent(.reloadOutcome, entry, outcome: ByteSearch.contains(m, Pattern.succeeded) ? .success : .failure)
    }

    /// `Task <UUID>.<n> summary for task success {transaction_duration_ms=12, response_status=200}`.
    private static func cfnetworkSummary(_ entry: AppleLogEntry, _ m: UnsafeBufferPointer<UInt8>) -> LogEvent? {
        var ok = ByteSearch.contains(m, Pattern.summarySuccess)
        // 1xx is informational (101: switching protocols, a websocket upgrade), not a failure.
        if let status = number(after: Pattern.status, in: m) { ok = ok && status >= 100 && status < 400 }
        var e = LogEvent(.apiRequest, entry, outcome: ok ? .success : .failure)
        e.durationMs = number(after: Pattern.duration, in: m).map(Double.init)
        return e
    }

    /// `[GeminiWidget] Fetch error: The request timed out.`: the detail starts at `Fetch error`.
    private static func geminiFetchError(_ entry: AppleLogEntry, _ m: UnsafeBufferPointer<UInt8>) -> LogEvent? {
        guard let at = ByteSearch.index(of: Pattern.fetchError, in: m) else { return nil }
        var e = LogEvent(.fetchError, entry, outcome: .failure)
        e.detail = ByteSearch.string(m, at..<m.count)
        return e
    }
}

extension LogEvent {
    /// An event of `kind` at the entry's time, from its process.
    init(_ kind: LogEventKind, _ entry: AppleLogEntry, outcome: LogOutcome? = nil) {
        self.init(kind: kind, time: entry.time)
        process = entry.process
        self.outcome = outcome
    }

    /// The kind, then every field set besides the time, the process and the device, as
    /// `key=value` in a fixed order: `getTimeline outcome=success widget=AIMessageWidget:systemSmall`.
    /// The recognisers' examples are written this way.
    package var summary: String {
        var parts = [kind.rawValue]
        if let outcome { parts.append("outcome=\(outcome.rawValue)") }
        if let actor { parts.append("actor=\(actor.rawValue)") }
        if let widgetIdentity { parts.append("widget=\(widgetIdentity)") }
        if let origin { parts.append("origin=\(origin.rawValue)") }
        if let smartStack { parts.append("smartStack=\(smartStack)") }
        if let lowPowerMode { parts.append("lowPowerMode=\(lowPowerMode)") }
        if let durationMs {
            parts.append(
                "durationMs="
                    + (durationMs == durationMs.rounded() && abs(durationMs) < 1e15 ? String(Int(durationMs)) : String(durationMs)))
        }
        if let tokens { parts.append("tokens=\(tokens)") }
        if let detail { parts.append("detail=\(detail.debugDescription)") }
        return parts.joined(separator: " ")
    }
}
