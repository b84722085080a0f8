import WidgetQuotaModel

/// What a log line says happened, in one vocabulary for every format.
///
/// The raw values are the `event` column of WidgetQuota's trace format and the event names a
/// rules file maps lines to.
package enum LogEventKind: String, Sendable, CaseIterable, Codable {
    /// WidgetKit asked the widget extension for a timeline (`Request ended for ...`).
    case getTimeline
    case getSnapshot
    case placeholder
    /// The app called `WidgetCenter.shared.reloadAllTimelines()`.
    case reloadAllTimelines
    /// The app called `WidgetCenter.shared.reloadTimelines(ofKind:)`.
    case reloadTimelines
    /// chronod's outcome of a reload (`on local reload: succeeded with 1 entries`): not a getTimeline.
    case reloadOutcome
    case appForeground
    case appBackground
    /// A `BGAppRefreshTaskRequest` was submitted (outcome failure: `[BGTask] submit failed: ...`).
    case bgTaskSubmit
    /// iOS launched the app's background refresh task (`Received run request for ...`).
    case bgTaskLaunch
    /// The task ran out of time (`Received request to expire ...`).
    case bgTaskExpire
    case bgTaskComplete
    /// One HTTP request to the API (CFNetwork `summary for task ...`), with outcome and duration.
    case apiRequest
    /// The app or widget logged a failed fetch (`[GeminiWidget] Fetch error: ...`).
    case fetchError
    case cacheHit
    case cacheStale
    /// Low Power Mode turned on or off (`state` on/off).
    case lowPowerMode
    /// The widget's reload budget ran out for the day.
    case reloadBudgetExhausted

    /// Every raw value, for messages.
    package static let allNames = allCases.map(\.rawValue).joined(separator: ", ")

    /// The kind whose raw value equals `bytes`, without building a String.
    static func matching(_ bytes: UnsafeBufferPointer<UInt8>) -> LogEventKind? {
        table.match(bytes)
    }

    private static let table = ByteTable(cases: allCases)
}

/// Success or failure of a request, a task or a timeline.
package enum LogOutcome: String, Sendable, Codable {
    case success
    case failure
}

/// One recognised event, normalised from any input format.
package struct LogEvent: Sendable {
    package var kind: LogEventKind
    package var time: LogTimestamp
    /// The device the record names; nil means "the file's device".
    package var device: String?
    /// The process that logged it (Apple logs): decides app versus extension for network lines.
    package var process: String?
    /// Who sent an API request, when the record says so.
    package var actor: RequestActor?
    package var outcome: LogOutcome?
    /// The widget kind (`AIMessageWidget`), family (`systemSmall`) and instance number, when known.
    package var widgetKind: String?
    package var widgetFamily: String?
    package var instance: Int?
    /// Why getTimeline ran, when known (trace format).
    package var origin: TimelineOrigin?
    /// Smart Stack state the record carries.
    package var smartStack: Bool?
    /// Low Power Mode state the record carries (or the new state of a `lowPowerMode` event).
    package var lowPowerMode: Bool?
    package var durationMs: Double?
    package var tokens: Int?
    /// Redacted free text (error messages), for the report's error table.
    package var detail: String?

    package init(kind: LogEventKind, time: LogTimestamp) {
        self.kind = kind
        self.time = time
    }

    /// The widget instance this event belongs to, `kind:family[:instance]`, when known.
    package var widgetIdentity: String? {
        guard widgetKind != nil || widgetFamily != nil || instance != nil else { return nil }
        var parts = [widgetKind ?? "?", widgetFamily ?? "?"]
        if let instance { parts.append(String(instance)) }
        return parts.joined(separator: ":")
    }
}

/// Names as bytes, to tell which one some bytes spell without building a String: the names
/// one after another in one array, so a lookup touches no reference-counted storage per name,
/// and a small table from (length, first byte, last byte) to the one name that could match.
package struct ByteTable<Value: Sendable>: Sendable {
    private let bytes: [UInt8]
    /// Where each name ends in `bytes`.
    private let ends: [Int]
    private let values: [Value]
    /// Per `hint`, the index of the only name with it, `none` or `several`.
    private let hints: [Int]
    private static var none: Int { -1 }
    private static var several: Int { -2 }

    package init(_ pairs: [(name: String, value: Value)]) {
        bytes = pairs.flatMap { Array($0.name.utf8) }
        ends = pairs.reduce(into: []) { ends, pair in ends.append((ends.last ?? 0) + pair.name.utf8.count) }
        values = pairs.map(\.value)
        var hints = [Int](repeating: ByteTable.none, count: 64)
        for (i, pair) in pairs.enumerated() {
            let name = Array(pair.name.utf8)
            let h = name.withUnsafeBufferPointer(ByteTable.hint)
            hints[h] = hints[h] == ByteTable.none ? i : ByteTable.several
        }
        self.hints = hints
    }

    /// Where a name's candidates are in `hints` (names of no bytes share one place).
    @inline(__always)
    private static func hint(_ b: UnsafeBufferPointer<UInt8>) -> Int {
        guard let first = b.first, let last = b.last else { return 0 }
        return (b.count &* 7 &+ Int(first) &+ Int(last) &* 3) & 63
    }

    /// The value whose name is exactly `b`.
    package func match(_ b: UnsafeBufferPointer<UInt8>) -> Value? {
        let candidate = hints[ByteTable.hint(b)]
        if candidate == ByteTable.none { return nil }
        let index: Int? = bytes.withUnsafeBufferPointer { all in
            ends.withUnsafeBufferPointer { ends in
                @inline(__always) func equal(_ i: Int) -> Bool {
                    let start = i == 0 ? 0 : ends[i - 1]
                    return ends[i] - start == b.count && ByteSearch.sameBytes(UnsafeBufferPointer(rebasing: all[start..<ends[i]]), b)
                }
                if candidate != ByteTable.several { return equal(candidate) ? candidate : nil }
                return (0..<ends.count).first(where: equal)
            }
        }
        return index.map { values[$0] }
    }
}

extension ByteTable where Value: RawRepresentable, Value.RawValue == String {
    /// Enum cases by raw value.
    init(cases: [Value]) { self.init(cases.map { ($0.rawValue, $0) }) }
}
