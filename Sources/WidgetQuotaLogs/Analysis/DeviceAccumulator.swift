import WidgetQuotaModel

/// Counts of one device on one local day.
package struct DeviceDay: Sendable, Equatable {
    package var getTimeline = 0
    /// getTimeline calls WidgetKit started on its own (origin `system`, or origin unknown).
    package var getTimelineSystem = 0
    package var timelineErrors = 0
    package var snapshots = 0
    package var placeholders = 0
    package var reloadCalls = 0
    package var reloadOutcomes = 0
    package var appOpens = 0
    package var bgSubmits = 0
    package var bgSubmitFailures = 0
    package var bgLaunches = 0
    package var bgExpirations = 0
    package var bgCompletions = 0
    package var appRequests = 0
    package var extensionRequests = 0
    package var backgroundRequests = 0
    package var failedRequests = 0
    package var fetchErrors = 0
    package var cacheHits = 0
    package var cacheStale = 0
    package var lowPowerMode = false
    package var durationMsSum = 0.0
    package var durationCount = 0
    package var tokens = 0
    /// True when any record fell on this day (days between records with none are zero days).
    package var hasRecords = false

    package init() {}

    /// API requests by the app (foreground and background) and the extension.
    package var apiRequests: Int { appRequests + extensionRequests + backgroundRequests }
}

/// Network summaries of one process on one day, before we know whether it is the app.
struct ProcessDay: Hashable {
    let process: String
    let day: Int
}

struct NetworkCount {
    var total = 0
    var failed = 0
    var durationMsSum = 0.0
    var durationCount = 0
}

/// Everything counted for one device, in memory that grows with its days, never with lines.
struct DeviceAccumulator {
    var days: [Int: DeviceDay] = [:]
    var network: [ProcessDay: NetworkCount] = [:]
    /// What each process did that the pre-release checklist looks at, by `ChecklistTrail.key`.
    var trails: [String: ChecklistTrail] = [:]
    /// The trail of the previous event and where it is in `trails` (one process logs in runs):
    /// saves hashing the process name per event. Looked up again after an insertion.
    private var recentTrail: (key: String, index: Dictionary<String, ChecklistTrail>.Index)?
    var smartStack: Bool?
    var widgets: Set<String> = []
    var lowPowerState: Bool?
    var originKnown = false
    /// Background task launches by local hour of the day.
    var launchHours = [Int](repeating: 0, count: 24)
    var firstDay = Int.max
    private var lastWidget: (kind: String?, family: String?, instance: Int?) = (nil, nil, nil)
    var lastDay = Int.min
    /// The day of the previous event and where it is in `days` (events come in runs of one
    /// day): saves hashing the day per event. A new day may move every entry, so it is looked
    /// up again after an insertion.
    private var recentDay: (day: Int, index: Dictionary<Int, DeviceDay>.Index)?

    /// Counts one event into the checklist trail of its process (`ChecklistTrail.key`).
    mutating func addToTrail(_ key: String, _ e: LogEvent, at location: @autoclosure () -> Finding.Location) {
        if let recent = recentTrail, recent.key == key {
            trails.values[recent.index].add(e, at: location())
        } else {
            trails[key, default: ChecklistTrail()].add(e, at: location())
            recentTrail = (key, trails.index(forKey: key)!)
        }
    }

    /// Adds one event.
    mutating func add(_ e: LogEvent) {
        let day = e.time.localDay
        firstDay = min(firstDay, day)
        lastDay = max(lastDay, day)
        if let s = e.smartStack { smartStack = (smartStack ?? false) || s }
        if let lp = e.lowPowerMode { lowPowerState = lp }
        // Instances are counted from the events that render one: a reload call names only the
        // kind, and a request or cache read may name only the instance.
        if widgets.count < 64, e.kind == .getTimeline || e.kind == .getSnapshot || e.kind == .placeholder,
            e.widgetKind != nil || e.widgetFamily != nil || e.instance != nil,
            e.widgetKind != lastWidget.kind || e.widgetFamily != lastWidget.family || e.instance != lastWidget.instance
        {
            lastWidget = (e.widgetKind, e.widgetFamily, e.instance)
            if let w = e.widgetIdentity { widgets.insert(w) }
        }
        if e.kind == .apiRequest && e.actor == nil {
            let key = ProcessDay(process: e.process ?? "", day: day)
            var n = network[key] ?? NetworkCount()
            n.total += 1
            if e.outcome == .failure { n.failed += 1 }
            if let ms = e.durationMs {
                n.durationMsSum += ms
                n.durationCount += 1
            }
            network[key] = n
        }
        if e.origin != nil { originKnown = true }
        if e.kind == .bgTaskLaunch {
            let hour = Int((e.time.localSeconds - Double(day) * .secondsPerDay) / .secondsPerHour)
            launchHours[min(max(hour, 0), 23)] += 1
        }
        let lowPowerNow = lowPowerState == true
        if let recent = recentDay, recent.day == day {
            DeviceAccumulator.add(e, to: &days.values[recent.index], lowPower: lowPowerNow)
        } else {
            DeviceAccumulator.add(e, to: &days[day, default: DeviceDay()], lowPower: lowPowerNow)
            recentDay = (day, days.index(forKey: day)!)
        }
    }

    /// Counts one event into its day, in place.
    private static func add(_ e: LogEvent, to d: inout DeviceDay, lowPower: Bool) {
        d.hasRecords = true
        if lowPower { d.lowPowerMode = true }
        switch e.kind {
        case .getTimeline:
            d.getTimeline += 1
            if e.origin == nil || e.origin == .system { d.getTimelineSystem += 1 }
            if e.outcome == .failure { d.timelineErrors += 1 }
        case .getSnapshot: d.snapshots += 1
        case .placeholder: d.placeholders += 1
        case .reloadAllTimelines, .reloadTimelines: d.reloadCalls += 1
        case .reloadOutcome: d.reloadOutcomes += 1
        case .appForeground: d.appOpens += 1
        case .appBackground: break
        case .bgTaskSubmit:
            d.bgSubmits += 1
            if e.outcome == .failure { d.bgSubmitFailures += 1 }
        case .bgTaskLaunch: d.bgLaunches += 1
        case .bgTaskExpire: d.bgExpirations += 1
        case .bgTaskComplete: d.bgCompletions += 1
        case .apiRequest:
            if let actor = e.actor {
                switch actor {
                case .app: d.appRequests += 1
                case .widgetExtension: d.extensionRequests += 1
                case .background: d.backgroundRequests += 1
                }
                if e.outcome == .failure { d.failedRequests += 1 }
                if let ms = e.durationMs {
                    d.durationMsSum += ms
                    d.durationCount += 1
                }
                // Saturates: a log may claim any count, and a sum must not trap.
                let (tokens, overflow) = d.tokens.addingReportingOverflow(e.tokens ?? 0)
                d.tokens = overflow ? .max : tokens
            }
        case .fetchError: d.fetchErrors += 1
        case .cacheHit: d.cacheHits += 1
        case .cacheStale: d.cacheStale += 1
        case .lowPowerMode: break
        case .reloadBudgetExhausted: break
        }
    }
}
