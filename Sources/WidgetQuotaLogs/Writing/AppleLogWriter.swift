import WidgetQuotaSupport

/// Renders events as Apple `log show` output, the way the real processes log them: the app, its
/// widget extension, chronod, dasd and nsurlsessiond noise. Used by `trace --style ndjson|json|default|syslog|compact`.
package struct AppleLogWriter {
    /// A failed request this long or longer timed out (status 0, "The request timed out.").
    static let timeoutMs = 10_000.0

    /// What the app logs when a request fails after `durationMs`: URLSession's words for a
    /// timeout, or for a server error.
    package static func fetchErrorReason(durationMs: Double) -> String {
        durationMs >= timeoutMs ? "The request timed out." : "The operation couldn’t be completed. (NSURLErrorDomain error -1011.)"
    }

    package enum Style: String, CaseIterable {
        case ndjson, json, `default`, syslog, compact
    }

    let style: Style
    let app: String
    let taskIdentifier: String
    private var rng: RandomStream
    private var traceID: UInt64
    private(set) var count = 0
    private var taskNumber = 0
    /// The microsecond of the last line written.
    private var lastMicros = Int64.min

    package init(style: Style, app: String, seed: UInt64) {
        self.style = style
        self.app = app
        self.taskIdentifier = "com.example.\(app.lowercased()).refresh"
        rng = RandomStream(seed: seed, .appleLogWriter)
        traceID = 0x2_0000_0000 + (rng.next() & 0xFFFF_FFFF)
    }

    var extensionName: String { app + "WidgetExtension" }

    /// What comes before the first record.
    package func header() -> String {
        switch style {
        case .ndjson: return ""
        case .json: return "["
        case .default: return "Timestamp                       Thread     Type        Activity             PID    TTL  \n"
        case .syslog: return "Timestamp                       (process)[PID]    \n"
        case .compact: return "Timestamp               Ty Process[PID:TID]\n"
        }
    }

    /// What comes after the last record.
    package func footer() -> String {
        switch style {
        case .ndjson: return "{\"count\":\(count),\"finished\":1}\n"
        case .json: return count == 0 ? "]\n" : "\n}]\n"
        default: return ""
        }
    }

    struct Line {
        var process: String
        var pid: Int
        var sender: String
        var subsystem: String
        var category: String
        var type = "Default"
        var message: String
    }

    /// The lines one event produces (the app's, the extension's and the system's), rendered.
    package mutating func render(_ e: LogEvent, pids: (app: Int, ext: Int)) -> String {
        var out = ""
        for line in lines(for: e, pids: pids) { out += format(line, at: e.time) }
        return out
    }

    private mutating func lines(for e: LogEvent, pids: (app: Int, ext: Int)) -> [Line] {
        let widget = "\(e.widgetKind ?? "AIMessageWidget"):\(e.widgetFamily ?? "systemSmall"):(noIntent)"
        func appLine(_ message: String, sender: String = "", subsystem: String = "", category: String = "") -> Line {
            Line(
                process: app, pid: pids.app, sender: sender.isEmpty ? app : sender, subsystem: subsystem, category: category,
                message: message)
        }
        func convention(_ text: String) -> Line { appLine("[WidgetQuota] " + text) }
        switch e.kind {
        case .getTimeline:
            var result = [
                Line(
                    process: extensionName, pid: pids.ext, sender: "WidgetKit", subsystem: "com.apple.chrono", category: "timeline",
                    message: "Request ended for \(widget) - " + (e.outcome == .failure ? "error: \(e.detail ?? "unknown")" : "success"))
            ]
            if e.origin == .reloadCall {
                result.append(
                    Line(
                        process: "chronod", pid: 112, sender: "ChronoCore", subsystem: "com.apple.chrono", category: "reloads",
                        message: "[\(widget)] on local reload: succeeded with 1 entries"))
            }
            return result
        case .reloadAllTimelines:
            return [appLine("reloadAllTimelines()", sender: "WidgetKit", subsystem: "com.apple.widgetkit", category: "WidgetCenter")]
        case .reloadTimelines:
            return [
                appLine(
                    "reloadTimelines(ofKind: \(e.widgetKind ?? "AIMessageWidget"))", sender: "WidgetKit", subsystem: "com.apple.widgetkit",
                    category: "WidgetCenter")
            ]
        case .bgTaskSubmit:
            if e.outcome == .failure {
                return [appLine("[BGTask] submit failed: Error Domain=BGTaskSchedulerErrorDomain Code=1 \"(null)\"")]
            }
            let begin = LogTimestamp(localSeconds: e.time.localSeconds + 4 * .secondsPerHour, utcOffsetSeconds: 0)
            return [
                appLine(
                    "submitTaskRequest: <BGAppRefreshTaskRequest: \(taskIdentifier), earliestBeginDate: \(begin.wallClock(fractionDigits: 0)) +0000>",
                    sender: "BackgroundTasks", subsystem: "com.apple.BackgroundTasks", category: "scheduler"),
                Line(
                    process: "dasd", pid: 97, sender: "DuetActivityScheduler", subsystem: "com.apple.duetactivityscheduler",
                    category: "scheduler",
                    message: "Submitted: \(taskIdentifier):\(String(rng.next() % 100_000, radix: 16)) at priority 5"),
            ]
        case .bgTaskLaunch:
            return [
                Line(
                    process: "dasd", pid: 97, sender: "DuetActivityScheduler", subsystem: "com.apple.duetactivityscheduler",
                    category: "lifecycle",
                    message: "STARTING <_DASActivity: \"\(taskIdentifier)\", Utility, 0 min, [\(begin(e))]>"),
                appLine(
                    "Received run request for \(taskIdentifier)", sender: "BackgroundTasks", subsystem: "com.apple.BackgroundTasks",
                    category: "scheduler"),
            ]
        case .bgTaskExpire:
            return [
                appLine(
                    "Received request to expire \(taskIdentifier) with reason: 1", sender: "BackgroundTasks",
                    subsystem: "com.apple.BackgroundTasks", category: "scheduler")
            ]
        case .apiRequest:
            taskNumber += 1
            let process = e.actor == .widgetExtension ? extensionName : app
            let pid = e.actor == .widgetExtension ? pids.ext : pids.app
            let ok = e.outcome != .failure
            let ms = Int((e.durationMs ?? 0).rounded())
            let status = ok ? "200" : (Double(ms) >= Self.timeoutMs ? "0" : "503")
            return [
                Line(
                    process: process, pid: pid, sender: "CFNetwork", subsystem: "com.apple.CFNetwork", category: "Summary",
                    message:
                        "Task <\(uuid())>.<\(taskNumber)> summary for task \(ok ? "success" : "failure") {transaction_duration_ms=\(ms), response_status=\(status), connection=\(taskNumber % 40 + 1), protocol=\"h2\", domain_lookup_duration_ms=0, connect_duration_ms=0, secure_connection_duration_ms=0, private_relay=false, request_start_ms=1, request_duration_ms=0, response_start_ms=\(max(ms - 20, 0)), response_duration_ms=\(min(ms, 20)), request_bytes=412, response_bytes=\(ok ? 1_187 : 96), cache_hit=false}"
                )
            ]
        case .appForeground:
            // A system daemon's transfer at the same moment: network noise that must not count.
            return [
                convention("appForeground"),
                Line(
                    process: "nsurlsessiond", pid: 131, sender: "CFNetwork", subsystem: "com.apple.CFNetwork", category: "Summary",
                    message:
                        "Task <\(uuid())>.<1> summary for task success {transaction_duration_ms=84, response_status=200, connection=3, protocol=\"h2\", cache_hit=false}"
                ),
            ]
        case .appBackground: return [convention("appBackground")]
        case .bgTaskComplete: return [convention("bgTaskComplete outcome=\(e.outcome?.rawValue ?? "success")")]
        case .cacheHit, .cacheStale:
            // The widget's reads name their instance (two instances can read at one moment).
            let widget = e.widgetKind.map { " widget=\($0):\(e.widgetFamily ?? "?"):\(e.instance ?? 0)" } ?? ""
            return [convention(e.kind.rawValue + widget)]
        case .lowPowerMode: return [convention("lowPowerMode state=\(e.lowPowerMode == true ? "on" : "off")")]
        case .fetchError:
            // The side that fetched logs its failure, as the app's and the extension's code do.
            let process = e.actor == .widgetExtension ? extensionName : app
            let pid = e.actor == .widgetExtension ? pids.ext : pids.app
            return [
                Line(
                    process: process, pid: pid, sender: process, subsystem: "", category: "", type: "Error",
                    message: "[GeminiWidget] Fetch error: \(e.detail ?? "unknown")")
            ]
        case .getSnapshot, .placeholder, .reloadOutcome, .reloadBudgetExhausted: return []
        }
    }

    private func begin(_ e: LogEvent) -> String { "\(Int(e.time.localSeconds) % TimeUnits.secondsPerDay / TimeUnits.secondsPerMinute) min" }

    private mutating func uuid() -> String {
        let a = rng.next()
        let b = rng.next()
        func hex(_ v: UInt64, _ digits: Int) -> String {
            let s = String(v, radix: 16, uppercase: true)
            return String(repeating: "0", count: max(0, digits - s.count)) + s.suffix(digits)
        }
        return "\(hex(a >> 32, 8))-\(hex(a >> 16 & 0xFFFF, 4))-\(hex(a & 0xFFFF, 4))-\(hex(b >> 48, 4))-\(hex(b & 0xFFFF_FFFF_FFFF, 12))"
    }

    private mutating func format(_ l: Line, at eventTime: LogTimestamp) -> String {
        count += 1
        // No two lines share a microsecond, as in a real log, whose clock moves on between two
        // calls: identical lines (two instances failing at once, in a style without thread IDs)
        // would otherwise read as one line repeated.
        var time = eventTime
        let micros = Int64((time.localSeconds * 1_000_000).rounded(.down))
        if micros <= lastMicros {
            lastMicros += 1
            time = LogTimestamp(localSeconds: (Double(lastMicros) + 0.5) / 1_000_000, utcOffsetSeconds: time.utcOffsetSeconds)
        } else {
            lastMicros = micros
        }
        traceID &+= 1 + (rng.next() & 0xFF)
        let thread = 0x1000 + Int(rng.next() % 0x3_0000)
        let offset = LogTimestamp.offsetText(time.utcOffsetSeconds ?? 0, colon: false)
        let stamp = time.wallClock(fractionDigits: 6) + offset
        let bracket = l.subsystem.isEmpty ? "" : "[\(l.subsystem):\(l.category)] "
        switch style {
        case .ndjson, .json:
            let path = imagePath(l.process)
            let fields: [(String, String)] = [
                ("traceID", String(traceID)), ("eventMessage", jsonString(l.message)), ("eventType", "\"logEvent\""),
                ("source", "null"), ("formatString", "\"%{public}s\""), ("activityIdentifier", "0"),
                ("subsystem", jsonString(l.subsystem)), ("category", jsonString(l.category)), ("threadID", String(thread)),
                ("senderImageUUID", "\"\(uuid())\""), ("bootUUID", "\"\""), ("processImagePath", jsonString(path)),
                ("senderImagePath", jsonString(senderPath(l.sender))), ("timestamp", "\"\(stamp)\""),
                ("machTimestamp", String(UInt64(max(0, time.localSeconds)) &* 24_000_000)), ("messageType", "\"\(l.type)\""),
                ("processImageUUID", "\"\(uuid())\""), ("processID", String(l.pid)),
                ("senderProgramCounter", String(rng.next() % 2_000_000)),
                ("parentActivityIdentifier", "0"), ("timezoneName", "\"\""),
            ]
            if style == .ndjson {
                return "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}\n"
            }
            let body = fields.map { "  \"\($0.0)\" : \($0.1)" }.joined(separator: ",\n")
            return (count == 1 ? "{\n" : "\n},{\n") + body
        case .default:
            let type = l.type.padding(toLength: 11, withPad: " ", startingAt: 0)
            let threadText = ("0x" + String(thread, radix: 16)).padding(toLength: 10, withPad: " ", startingAt: 0)
            let pid = String(l.pid).padding(toLength: 6, withPad: " ", startingAt: 0)
            return "\(stamp) \(threadText) \(type) 0x0                  \(pid) 0    \(l.process): (\(l.sender)) \(bracket)\(l.message)\n"
        case .syslog:
            return "\(stamp)  localhost \(l.process)[\(l.pid)]: (\(l.sender)) \(bracket)\(l.message)\n"
        case .compact:
            let type = l.type == "Error" ? "E " : "Df"
            return
                "\(time.wallClock(fractionDigits: 3)) \(type) \(l.process)[\(l.pid):\(String(thread, radix: 16))] \(bracket)\(l.message)\n"
        }
    }

    private func imagePath(_ process: String) -> String {
        if process == app { return "/private/var/containers/Bundle/Application/6A1F0C22-4C1B-4E0E-9C55-2B7D0A3E9F11/\(app).app/\(app)" }
        if process == extensionName {
            return
                "/private/var/containers/Bundle/Application/6A1F0C22-4C1B-4E0E-9C55-2B7D0A3E9F11/\(app).app/PlugIns/\(extensionName).appex/\(extensionName)"
        }
        if process == "chronod" { return "/System/Library/PrivateFrameworks/ChronoCore.framework/Support/chronod" }
        return "/usr/libexec/\(process)"
    }

    private func senderPath(_ sender: String) -> String {
        if sender == app || sender == extensionName { return imagePath(sender) }
        return "/System/Library/Frameworks/\(sender).framework/\(sender)"
    }

    /// A JSON string as `log show` writes it: slashes escaped.
    private func jsonString(_ text: String) -> String {
        TraceFormat.quoted(text).replacingOccurrences(of: "/", with: "\\/")
    }
}
