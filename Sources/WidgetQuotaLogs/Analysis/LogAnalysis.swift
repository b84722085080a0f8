import Foundation
import WidgetQuotaModel
import WidgetQuotaSupport

/// Mean, median, 95th percentile and maximum of a per-device-day figure.
public struct DayStats: Codable, Sendable, Equatable {
    /// The mean over device-days.
    public var mean: Double
    /// The median device-day.
    public var p50: Double
    /// The 95th percentile: one device-day in twenty is above it.
    public var p95: Double
    /// The busiest device-day.
    public var max: Double

    package init(_ values: [Double]) {
        let sorted = values.sorted()
        mean = sorted.isEmpty ? 0 : Statistics.mean(sorted)
        p50 = sorted.isEmpty ? 0 : Statistics.quantile(sorted: sorted, 0.5)
        p95 = sorted.isEmpty ? 0 : Statistics.quantile(sorted: sorted, 0.95)
        max = sorted.last ?? 0
    }
}

/// What `analyze` measured. Its JSON (`--format json`) keeps these keys stable for CI:
/// `schemaVersion`, `devices`, `deviceDays`, `linesRead`, `malformedLines` and
/// `perDeviceDay.{getTimeline, apiRequests, bgTaskLaunches}.{mean, p50, p95, max}`.
public struct LogAnalysis: Codable, Sendable {
    /// One file read.
    public struct FileSummary: Codable, Sendable, Equatable {
        /// The file as named on the command line (or found in a folder).
        public var path: String
        /// The log style detected: `trace-ndjson`, `trace-csv`, one of `log show`'s styles, or `unknown`.
        public var format: String
        /// Lines in the file.
        public var lines: Int
    }

    /// Per device-day figures.
    public struct PerDeviceDay: Codable, Sendable {
        /// getTimeline calls.
        public var getTimeline: DayStats
        /// API requests, from the app and the widget extension.
        public var apiRequests: DayStats
        /// API requests from the app (foreground and background tasks).
        public var appRequests: DayStats
        /// API requests from the widget extension.
        public var extensionRequests: DayStats
        /// Background task launches.
        public var bgTaskLaunches: DayStats
        /// Background tasks that ran out of time (their expiration handler ran).
        public var bgTaskExpirations: DayStats
        /// `reloadAllTimelines` and `reloadTimelines(ofKind:)` calls.
        public var reloadCalls: DayStats
        /// Times the app came to the foreground.
        public var appOpens: DayStats
    }

    /// Devices with and without the widget in a Smart Stack (only when records say so).
    public struct SmartStackSplit: Codable, Sendable {
        /// Devices whose widget is in a Smart Stack.
        public var devices: Int
        /// `devices` over `devicesWithData`.
        public var share: Double
        /// Devices whose logs say whether the widget is in a Smart Stack.
        public var devicesWithData: Int?
        /// getTimeline calls the system made, per widget instance per day, on devices with the
        /// widget in a Smart Stack.
        public var getTimelinePerInstanceDayInStack: Double?
        /// The same rate on devices without it in a Smart Stack.
        public var getTimelinePerInstanceDayOutside: Double?
        /// In-stack rate over outside rate.
        public var uplift: Double?
    }

    /// Days in Low Power Mode and what changed on them (only when records say so).
    public struct LowPowerSplit: Codable, Sendable {
        /// Device-days with Low Power Mode on.
        public var days: Int
        /// `days` over every device-day observed.
        public var share: Double
        /// Mean getTimeline calls per device-day with Low Power Mode on.
        public var getTimelineOnLowPowerDays: Double
        /// Mean getTimeline calls on the other device-days.
        public var getTimelineOnOtherDays: Double
        /// Mean background task launches per device-day with Low Power Mode on.
        public var bgTaskLaunchesOnLowPowerDays: Double
        /// Mean background task launches on the other device-days.
        public var bgTaskLaunchesOnOtherDays: Double
    }

    /// One device's row.
    public struct DeviceSummary: Codable, Sendable {
        /// The device as the logs name it (keys redacted).
        public var device: String
        /// Days observed.
        public var days: Int
        /// Widget instances seen (Home Screen, Lock Screen, StandBy…).
        public var instances: Int
        /// Whether the widget is in a Smart Stack; nil when the records do not say.
        public var smartStack: Bool?
        /// Days with Low Power Mode on.
        public var lowPowerDays: Int
        /// getTimeline calls per observed day.
        public var getTimelinePerDay: Double
        /// API requests per observed day, from the app and the extension.
        public var apiRequestsPerDay: Double
        /// API requests from the app per observed day.
        public var appRequestsPerDay: Double
        /// API requests from the widget extension per observed day.
        public var extensionRequestsPerDay: Double
        /// Background task launches per observed day.
        public var bgTaskLaunchesPerDay: Double
        /// Background tasks that ran out of time.
        public var bgTaskExpirations: Int
        /// API requests that failed.
        public var failedRequests: Int
        /// Fetch errors the app or the extension logged.
        public var fetchErrors: Int
    }

    /// A checklist finding as the JSON holds it: `rule, severity, file, line, column, message, fix`
    /// (the same keys as `lint`'s findings).
    public struct FindingEntry: Codable, Sendable, Equatable {
        /// The checklist rule the logs breach.
        public var rule: ChecklistRule
        /// How much it matters.
        public var severity: FindingSeverity
        /// The log file of the first record that shows it.
        public var file: String
        /// That record's line (1-based); nil when the breach is not one line's.
        public var line: Int?
        /// The column on that line (1-based).
        public var column: Int?
        /// What the logs show.
        public var message: String
        /// How to fix it.
        public var fix: String

        package init(_ f: Finding) {
            rule = f.rule
            severity = f.severity
            file = f.location.file
            line = f.location.line
            column = f.location.column
            message = f.message
            fix = f.fix
        }

        private enum CodingKeys: String, CodingKey { case rule, severity, file, line, column, message, fix }

        /// Every key is written, `line` and `column` as null when unknown, so readers see one shape.
        public func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(rule, forKey: .rule)
            try c.encode(severity, forKey: .severity)
            try c.encode(file, forKey: .file)
            try c.encode(line, forKey: .line)
            try c.encode(column, forKey: .column)
            try c.encode(message, forKey: .message)
            try c.encode(fix, forKey: .fix)
        }

        /// The finding this entry describes.
        public var finding: Finding {
            Finding(
                rule: rule, severity: severity, location: .init(file: file, line: line, column: column), message: message, fix: fix)
        }
    }

    /// An error message the logs hold, and how often.
    public struct ErrorCount: Codable, Sendable {
        /// The message, with keys redacted.
        public var message: String
        /// Times it was logged.
        public var count: Int
    }

    /// One device's days, dense from its first to its last record, for calibration.
    package struct DeviceMeasurement: Sendable {
        package var device: String
        package var days: [DeviceDay]
        package var smartStack: Bool?
        package var instances: Int
        /// True when getTimeline records said why they ran (trace format).
        package var originKnown: Bool
        /// True when records said whether Low Power Mode was on.
        package var lowPowerKnown: Bool
        /// The local day of `days[0]` (days since 1970-01-01).
        package var firstDay: Int
        /// The local day of each entry of `days` (days since 1970-01-01).
        package var dayNumbers: [Int]
        /// Background task launches by local hour of the day (24 counts).
        package var launchHours = [Int](repeating: 0, count: 24)

        package init(
            device: String, days: [DeviceDay], smartStack: Bool?, instances: Int, originKnown: Bool, lowPowerKnown: Bool, firstDay: Int,
            dayNumbers: [Int]
        ) {
            self.device = device
            self.days = days
            self.smartStack = smartStack
            self.instances = instances
            self.originKnown = originKnown
            self.lowPowerKnown = lowPowerKnown
            self.firstDay = firstDay
            self.dayNumbers = dayNumbers
        }
    }

    /// Days without a line that still count as observed (with zeros) when they lie between
    /// observed days this close together; longer gaps mean the device was not logging.
    public static let maxUnobservedGap = 2

    /// The version of the JSON's shape: keys are added within a version, never renamed or removed.
    public var schemaVersion = 1
    /// Devices seen.
    public var devices: Int
    /// Device-days observed (days with records, and short gaps between them).
    public var deviceDays: Int
    /// Lines read in all files.
    public var linesRead: Int
    /// Lines that were a record the analysis counts.
    public var linesRecognised: Int
    /// Lines that could not be read as their file's style.
    public var malformedLines: Int
    /// Exact repeats of recent timestamped lines, counted once.
    public var duplicateLines: Int = 0
    /// The first malformed lines, as `file:line: problem`.
    public var malformedExamples: [String]
    /// Bytes read in all files.
    public var bytesRead: Int
    /// Each file read.
    public var files: [FileSummary]
    /// Figures per device-day.
    public var perDeviceDay: PerDeviceDay
    /// Reload calls (`reloadAllTimelines`, `reloadTimelines`) per successful API request.
    public var reloadCallsPerSuccessfulFetch: Double?
    /// Failed API requests over API requests.
    public var apiErrorRate: Double?
    /// getTimeline calls that ended in an error, over getTimeline calls.
    public var timelineErrorRate: Double?
    /// Mean API requests per device-day × 30; nil (`null` in the JSON) when nothing was
    /// recognised (see `recognisedNothing`), since nothing was measured.
    public var requestsPerUserPerMonth: Double? {
        get { impliedRequestsPerUserPerMonth.value }
        set { impliedRequestsPerUserPerMonth = NullableNumber(newValue) }
    }
    /// `requestsPerUserPerMonth` as the JSON holds it: always present, `null` when unmeasured.
    var impliedRequestsPerUserPerMonth: NullableNumber
    /// True when logs were read but no widget, background-task or network line was recognised:
    /// every figure is then unmeasured rather than zero.
    public var recognisedNothing = false
    /// A few process names of the Apple records read, for telling what the logs hold when
    /// nothing was recognised.
    public var processesSeen: [String] = []
    /// Devices with and without the widget in a Smart Stack; nil when no record says.
    public var smartStack: SmartStackSplit?
    /// Days in Low Power Mode and what changed on them; nil when no record says.
    public var lowPowerMode: LowPowerSplit?
    /// The processes read as the app.
    public var appProcesses: [String]
    /// The processes read as the widget extension.
    public var extensionProcesses: [String]
    /// Network summaries from processes that are neither the app nor its extension (not counted).
    public var otherProcessRequests: Int
    /// One row per device.
    public var perDevice: [DeviceSummary]
    /// The most frequent error messages.
    public var topErrors: [ErrorCount]
    /// What the analysis says of its input (time zones assumed, styles mixed).
    public var notes: [String]
    /// The checklist rules the logs were checked against (`ChecklistRule` ids).
    public var rulesChecked: [ChecklistRule] = []
    /// Breaches of the checklist the logs show, in `Finding.sorted` order; `findings` in the JSON.
    public var findingEntries: [FindingEntry] = []
    /// Not part of the JSON: the per-day data behind every figure.
    package var measurements: [DeviceMeasurement] = []

    enum CodingKeys: String, CodingKey {
        case schemaVersion, devices, deviceDays, linesRead, linesRecognised, malformedLines, duplicateLines, malformedExamples, bytesRead
        case files, perDeviceDay, reloadCallsPerSuccessfulFetch, apiErrorRate, timelineErrorRate
        case impliedRequestsPerUserPerMonth = "requestsPerUserPerMonth"
        case smartStack, lowPowerMode, appProcesses, extensionProcesses, otherProcessRequests, perDevice, topErrors, notes
        case recognisedNothing, processesSeen, rulesChecked
        case findingEntries = "findings"
    }

    /// Breaches of the checklist the logs show (`reload-misuse`, `widget-network-call`,
    /// `snapshot-network`), in `Finding.sorted` order.
    public var findings: [Finding] {
        get { findingEntries.map(\.finding) }
        set { findingEntries = Finding.sorted(newValue).map(FindingEntry.init) }
    }
}

extension LogAnalyzer {
    /// The measurement of everything read so far.
    package func analysis() -> LogAnalysis {
        let (apps, extensions, guessedApps) = processRoles()
        var measurements = [LogAnalysis.DeviceMeasurement]()
        var other = 0
        var otherByProcess: [String: Int] = [:]
        var skippedDays = 0
        for name in devices.keys.sorted() {
            let acc = devices[name]!
            guard acc.firstDay <= acc.lastDay else { continue }
            // Observed days: days with a line, and short gaps between them (zeros, not silence).
            // A long gap, or one stray timestamp far away, must not add months of empty days.
            let active = Set(acc.days.keys).union(acc.network.keys.map(\.day)).sorted()
            var dayNumbers = [Int]()
            for (k, day) in active.enumerated() {
                if k > 0, day - active[k - 1] - 1 <= LogAnalysis.maxUnobservedGap {
                    dayNumbers.append(contentsOf: (active[k - 1] + 1)..<day)
                }
                dayNumbers.append(day)
            }
            skippedDays += (active.last! - active.first! + 1) - dayNumbers.count
            let index = Dictionary(uniqueKeysWithValues: dayNumbers.enumerated().map { ($0.element, $0.offset) })
            var days = dayNumbers.map { acc.days[$0] ?? DeviceDay() }
            for (key, count) in acc.network.sorted(by: { ($0.key.process, $0.key.day) < ($1.key.process, $1.key.day) }) {
                guard let i = index[key.day] else { continue }
                if extensions.contains(key.process) {
                    days[i].extensionRequests += count.total
                } else if apps.contains(key.process) {
                    days[i].appRequests += count.total
                } else {
                    other += count.total
                    otherByProcess[key.process, default: 0] += count.total
                    continue
                }
                days[i].failedRequests += count.failed
                days[i].durationMsSum += count.durationMsSum
                days[i].durationCount += count.durationCount
            }
            var measurement = LogAnalysis.DeviceMeasurement(
                device: name, days: days, smartStack: acc.smartStack,
                instances: max(1, acc.widgets.count), originKnown: acc.originKnown,
                lowPowerKnown: acc.lowPowerState != nil, firstDay: dayNumbers[0], dayNumbers: dayNumbers)
            measurement.launchHours = acc.launchHours
            measurements.append(measurement)
        }
        let allDays = measurements.flatMap(\.days)
        func stats(_ f: (DeviceDay) -> Int) -> DayStats { DayStats(allDays.map { Double(f($0)) }) }
        let perDay = LogAnalysis.PerDeviceDay(
            getTimeline: stats(\.getTimeline), apiRequests: stats(\.apiRequests),
            appRequests: stats { $0.appRequests + $0.backgroundRequests }, extensionRequests: stats(\.extensionRequests),
            bgTaskLaunches: stats(\.bgLaunches), bgTaskExpirations: stats(\.bgExpirations),
            reloadCalls: stats(\.reloadCalls), appOpens: stats(\.appOpens))
        func sum(_ f: (DeviceDay) -> Int) -> Int { allDays.reduce(0) { $0 + f($1) } }
        let requests = sum(\.apiRequests)
        let failed = sum(\.failedRequests)
        let successes = requests - failed
        let timelines = sum(\.getTimeline)

        var summaries = [LogAnalysis.DeviceSummary]()
        for m in measurements {
            let n = Double(m.days.count)
            func perDay(_ f: (DeviceDay) -> Int) -> Double { Double(m.days.reduce(0) { $0 + f($1) }) / n }
            summaries.append(
                .init(
                    device: m.device, days: m.days.count, instances: m.instances, smartStack: m.smartStack,
                    lowPowerDays: m.days.filter(\.lowPowerMode).count,
                    getTimelinePerDay: perDay(\.getTimeline), apiRequestsPerDay: perDay(\.apiRequests),
                    appRequestsPerDay: perDay { $0.appRequests + $0.backgroundRequests },
                    extensionRequestsPerDay: perDay(\.extensionRequests), bgTaskLaunchesPerDay: perDay(\.bgLaunches),
                    bgTaskExpirations: m.days.reduce(0) { $0 + $1.bgExpirations },
                    failedRequests: m.days.reduce(0) { $0 + $1.failedRequests },
                    fetchErrors: m.days.reduce(0) { $0 + $1.fetchErrors }))
        }

        var notes = self.notes
        let recognisedNothing = !files.isEmpty && linesRecognised == 0
        if recognisedNothing { notes.insert(nothingRecognisedText, at: 0) }
        if !guessedApps.isEmpty {
            let names = guessedApps.sorted().joined(separator: ", ")
            notes.append(
                "No process logged app or widget lines, so \(names) (not a known system process, logging network task summaries) "
                    + (guessedApps.count == 1 ? "is" : "are") + " taken as the app and the requests are counted; "
                    + "pass --app NAME if the app is another process.")
        }
        if other > 0 {
            let system = AppleLogRecognizer.systemProcesses
            let listed = otherByProcess.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            let shown = listed.prefix(5).map { "\($0.key.isEmpty ? "(no process)" : $0.key) \($0.value)" }.joined(separator: ", ")
            var text =
                "\(other) network \(other == 1 ? "summary" : "summaries") from processes that are neither the app nor its widget "
                + "extension (\(shown)" + (listed.count > 5 ? ", and \(listed.count - 5) more" : "")
                + ") \(other == 1 ? "is" : "are") not counted as API requests."
            if let candidate = listed.first(where: { !system.contains($0.key) && !$0.key.isEmpty }) {
                text += " If \(candidate.key) is your app, pass --app \(candidate.key)."
            }
            notes.append(text)
        }
        if let text = LogAnalysis.developerModeNote(summaries) { notes.append(text) }
        if duplicateLines > 0 {
            notes.append("\(duplicateLines) lines repeated an earlier line exactly (same timestamp and text) and were counted once.")
        }
        if skippedDays > 0 {
            notes.append(
                "\(skippedDays) days without a single log line (gaps longer than \(LogAnalysis.maxUnobservedGap) days between logged days) are not counted as device-days."
            )
        }
        let topErrors = errorCounts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            .prefix(5).map { LogAnalysis.ErrorCount(message: $0.key, count: $0.value) }

        var analysis = LogAnalysis(
            devices: measurements.count, deviceDays: allDays.count, linesRead: linesRead, linesRecognised: linesRecognised,
            malformedLines: malformedLines, duplicateLines: duplicateLines, malformedExamples: malformedExamples, bytesRead: bytesRead,
            files: files,
            perDeviceDay: perDay,
            reloadCallsPerSuccessfulFetch: successes > 0 ? Double(sum(\.reloadCalls)) / Double(successes) : nil,
            apiErrorRate: requests > 0 ? Double(failed) / Double(requests) : nil,
            timelineErrorRate: timelines > 0 ? Double(sum(\.timelineErrors)) / Double(timelines) : nil,
            impliedRequestsPerUserPerMonth: NullableNumber(recognisedNothing ? nil : perDay.apiRequests.mean * 30),
            smartStack: LogAnalyzer.smartStackSplit(measurements), lowPowerMode: LogAnalyzer.lowPowerSplit(measurements),
            appProcesses: apps.sorted(), extensionProcesses: extensions.sorted(), otherProcessRequests: other,
            perDevice: summaries, topErrors: Array(topErrors), notes: notes, measurements: measurements)
        analysis.recognisedNothing = recognisedNothing
        analysis.processesSeen = processesSeen
        analysis.rulesChecked = ChecklistWitness.rules
        analysis.findings = checklistFindings(measurements, apps: apps, extensions: extensions)
        return analysis
    }

    /// The checklist findings of every measured device, once the app and extension are known.
    func checklistFindings(
        _ measurements: [LogAnalysis.DeviceMeasurement], apps: Set<String>, extensions: Set<String>
    ) -> [Finding] {
        let trails = measurements.map { m -> ChecklistWitness.DeviceTrails in
            var d = ChecklistWitness.DeviceTrails(device: m.device, days: m.days.count, app: .init(), widgetExtension: .init())
            for (key, trail) in devices[m.device]?.trails ?? [:] {
                if key == ChecklistTrail.extensionKey || extensions.contains(key) {
                    d.widgetExtension.merge(trail)
                } else if key.isEmpty || apps.contains(key) {
                    d.app.merge(trail)
                }
            }
            return d
        }
        return ChecklistWitness.findings(trails, claimedDesign: options.claimedDesign)
    }

    /// What to say when logs were read but no line was recognised.
    package var nothingRecognisedText: String {
        let seen = processesSeen.isEmpty ? "" : " (processes seen: \(processesSeen.joined(separator: ", ")))"
        return "No widget, background-task or network line was recognised in \(linesRead) lines\(seen), so nothing was measured: "
            + "check that the export covers the app, its widget extension and chronod (the predicate and time range of `log show`), "
            + "or describe the app's own lines in a rules file (--rules FILE)."
    }

    /// The app's and the extension's process names: given, or identified from the logs.
    ///
    /// The extension is the process that logs `Request ended for`; the app is the process that logs
    /// BackgroundTasks or reload lines, or whose name is the extension's without `WidgetExtension`.
    /// When no process is identified so, every process that logs network task summaries and is
    /// neither a known system process nor the extension is taken as the app (`guessedApps`).
    func processRoles() -> (apps: Set<String>, extensions: Set<String>, guessedApps: Set<String>) {
        let system = AppleLogRecognizer.systemProcesses
        let extensions =
            options.extensionProcesses.isEmpty
            ? extensionEvidence.subtracting(system) : Set(options.extensionProcesses)
        if !options.appProcesses.isEmpty { return (Set(options.appProcesses), extensions, []) }
        var apps = appEvidence.subtracting(system).subtracting(extensions)
        let networkProcesses = Set(devices.values.flatMap { $0.network.keys.map(\.process) })
        for ext in extensions {
            var stem = ext
            for suffix in ["WidgetExtension", "WidgetsExtension", "Extension", "Widgets", "Widget"]
            where stem.hasSuffix(suffix) && stem.count > suffix.count {
                stem = String(stem.dropLast(suffix.count))
                break
            }
            for p in networkProcesses where p == stem && !system.contains(p) && !extensions.contains(p) { apps.insert(p) }
        }
        if apps.isEmpty {
            let guessed = networkProcesses.filter { !$0.isEmpty && !system.contains($0) && !extensions.contains($0) }
            return (guessed, extensions, guessed)
        }
        return (apps, extensions, [])
    }

    /// Per-instance system getTimeline rates of a device: one value per device.
    package static func instanceRate(_ m: LogAnalysis.DeviceMeasurement) -> Double {
        Double(m.days.reduce(0) { $0 + $1.getTimelineSystem }) / Double(m.days.count) / Double(m.instances)
    }

    static func smartStackSplit(_ ms: [LogAnalysis.DeviceMeasurement]) -> LogAnalysis.SmartStackSplit? {
        let known = ms.filter { $0.smartStack != nil }
        guard !known.isEmpty else { return nil }
        let inStack = known.filter { $0.smartStack == true }.map(instanceRate)
        let outside = known.filter { $0.smartStack == false }.map(instanceRate)
        let a: Double? = inStack.isEmpty ? nil : Statistics.mean(inStack)
        let b: Double? = outside.isEmpty ? nil : Statistics.mean(outside)
        var uplift: Double?
        if let a, let b, b > 0 { uplift = a / b }
        let share = Double(inStack.count) / Double(known.count)
        return LogAnalysis.SmartStackSplit(
            devices: inStack.count, share: share, devicesWithData: known.count,
            getTimelinePerInstanceDayInStack: a, getTimelinePerInstanceDayOutside: b, uplift: uplift)
    }

    static func lowPowerSplit(_ ms: [LogAnalysis.DeviceMeasurement]) -> LogAnalysis.LowPowerSplit? {
        let days = ms.flatMap(\.days)
        let lowPower = days.filter(\.lowPowerMode)
        guard !lowPower.isEmpty else { return nil }
        let others = days.filter { !$0.lowPowerMode }
        func mean(_ d: [DeviceDay], _ f: (DeviceDay) -> Int) -> Double {
            d.isEmpty ? 0 : Double(d.reduce(0) { $0 + f($1) }) / Double(d.count)
        }
        return .init(
            days: lowPower.count, share: Double(lowPower.count) / Double(days.count),
            getTimelineOnLowPowerDays: mean(lowPower, \.getTimeline), getTimelineOnOtherDays: mean(others, \.getTimeline),
            bgTaskLaunchesOnLowPowerDays: mean(lowPower, \.bgLaunches), bgTaskLaunchesOnOtherDays: mean(others, \.bgLaunches))
    }
}
