import Foundation
import WidgetQuotaLogs
import WidgetQuotaModel
import WidgetQuotaSimulation

/// Collects one simulated device's events (the engine calls it for everything it simulates).
struct TraceObserver: SimulationObserver {
    var events: [(local: Double, event: SimulationEvent)] = []
    mutating func record(_ event: SimulationEvent, local: Double, utc: Double) {
        if case .glance = event { return }
        events.append((local, event))
    }
}

/// The style of a synthetic log: WidgetQuota's trace formats or one of `log show`'s.
public enum TraceStyle: String, Sendable, CaseIterable {
    /// WidgetQuota trace NDJSON (the default).
    case trace
    /// WidgetQuota trace CSV.
    case traceCSV = "trace-csv"
    /// `log show`'s styles: `--style ndjson`, `json`, `default`, `syslog` and `compact`.
    case ndjson, json, `default`, syslog, compact

    /// True for Apple `log show` styles, which carry no device id: one device per file.
    public var isApple: Bool { self != .trace && self != .traceCSV }

    /// The file name ending for this style.
    public var fileExtension: String {
        switch self {
        case .trace, .ndjson: return "ndjson"
        case .traceCSV: return "csv"
        case .json: return "json"
        default: return "log"
        }
    }
}

/// Synthetic logs from the model: `widget-quota trace`.
///
/// Every device is one user of the engine's `UserSimulator` (the same code `simulate` runs),
/// with the scenario's uncertain assumptions at their central values, so a trace is what the
/// model believes devices log. The counted days start on `startDate` in each device's local time.
package struct TraceGenerator: Sendable {
    /// The output style.
    package typealias Style = TraceStyle

    package let scenario: Scenario
    package let design: Design
    package let devices: Int
    package let style: Style
    /// Local date of the first counted day, as days since 1970-01-01 (2026-09-01 by default).
    package let startDay: Int
    /// The app's process name in Apple styles (its extension is `<app>WidgetExtension`).
    package let app = "AIMessage"
    package let widgetKind = "AIMessageWidget"
    /// The model every device runs (its background calibration is costly; built once).
    private let model: SimulationModel

    package init(
        scenario: Scenario, design: Design, devices: Int, style: Style,
        startDay: Int = LogTimestamp.daysFromCivil(year: 2026, month: 9, day: 1)
    ) {
        self.scenario = scenario
        self.design = design
        self.devices = devices
        self.style = style
        self.startDay = startDay
        self.model = SimulationModel(scenario: scenario, design: design, run: 0, parameters: RunParameters.central(scenario))
    }

    /// The parameters every device shares: the scenario's central values.
    package var parameters: RunParameters { RunParameters.central(scenario) }

    /// The name of device `index` (0-based): `direct-001`.
    package func deviceName(_ index: Int) -> String {
        let n = String(index + 1)
        return "\(design.name)-" + String(repeating: "0", count: max(0, 3 - n.count)) + n
    }

    /// The events device `index` logs on its counted days, in time order.
    package func events(device index: Int) -> [LogEvent] {
        var sim = UserSimulator(model: model, user: index, observer: TraceObserver())
        sim.run()
        let traits = sim.traits
        let first = Double(model.countedFirstDay) * .secondsPerDay
        let end = Double(model.countedEndDay) * .secondsPerDay
        var lowPower = sim.calendar.lowPower[model.countedFirstDay]
        let offset = Int(traits.utcOffsetSeconds.rounded())
        let tokens = Int((parameters.inputTokensPerRequest + parameters.outputTokensPerRequest).rounded())
        let families = ["systemSmall", "systemMedium", "systemLarge", "accessoryRectangular"]
        var out = [LogEvent]()
        // The app logs its Low Power Mode state when the log starts, so every day's state is known.
        var initial = LogEvent(
            kind: .lowPowerMode, time: LogTimestamp(localSeconds: Double(startDay) * .secondsPerDay, utcOffsetSeconds: offset))
        initial.smartStack = traits.smartStack
        initial.lowPowerMode = lowPower
        out.append(initial)
        for (local, event) in sim.observer.events {
            if case .lowPowerMode(let on) = event, local >= first { lowPower = on }
            guard local >= first && local < end else { continue }
            // The first day's state is already logged (the initial record above).
            if case .lowPowerMode = event, local == first { continue }
            let time = LogTimestamp(localSeconds: Double(startDay) * .secondsPerDay + (local - first), utcOffsetSeconds: offset)
            func make(_ kind: LogEventKind) -> LogEvent {
                var e = LogEvent(kind: kind, time: time)
                e.smartStack = traits.smartStack
                e.lowPowerMode = lowPower
                return e
            }
            /// A cache read; the widget's names its instance (two can read at one moment).
            func cacheRead(_ kind: LogEventKind, _ instance: Int?) -> LogEvent {
                var e = make(kind)
                if let instance {
                    e.widgetKind = widgetKind
                    e.widgetFamily = families[instance % families.count]
                    e.instance = instance
                }
                return e
            }
            var e: LogEvent
            switch event {
            case .getTimeline(let instance, let origin, _):
                e = make(.getTimeline)
                e.widgetKind = widgetKind
                e.widgetFamily = families[instance % families.count]
                e.instance = instance
                e.origin = origin
                e.outcome = .success
            case .budgetExhausted(let instance):
                e = make(.reloadBudgetExhausted)
                e.widgetKind = widgetKind
                e.widgetFamily = families[instance % families.count]
                e.instance = instance
            case .reloadCall: e = make(.reloadAllTimelines)
            case .appForeground: e = make(.appForeground)
            case .appBackground: e = make(.appBackground)
            case .bgTaskSubmit(let accepted):
                e = make(.bgTaskSubmit)
                e.outcome = accepted ? .success : .failure
            case .bgTaskLaunch: e = make(.bgTaskLaunch)
            case .bgTaskExpire: e = make(.bgTaskExpire)
            case .bgTaskComplete(let success):
                e = make(.bgTaskComplete)
                e.outcome = success ? .success : .failure
            case .apiRequest(let actor, let success, let duration, let instance):
                e = make(.apiRequest)
                e.actor = actor
                // Two instances reloaded at once fetch at the same moment: the instance keeps
                // their lines distinct, so a reader's duplicate check does not fold them.
                e.instance = instance
                e.outcome = success ? .success : .failure
                e.durationMs = (duration * 1_000).rounded()
                if success { e.tokens = tokens }
            case .cacheHit(let instance): e = cacheRead(.cacheHit, instance)
            case .cacheStale(let instance): e = cacheRead(.cacheStale, instance)
            case .lowPowerMode(let on):
                e = make(.lowPowerMode)
                e.lowPowerMode = on
            case .glance: continue
            }
            out.append(e)
            // The fetching side logs each failure, in every style alike.
            if e.kind == .apiRequest && e.outcome == .failure {
                var failure = make(.fetchError)
                failure.actor = e.actor
                failure.instance = e.instance
                failure.detail = AppleLogWriter.fetchErrorReason(durationMs: e.durationMs ?? 0)
                out.append(failure)
            }
        }
        return out
    }

    /// Writes device `index`'s log in the chosen style through `write` (one call per chunk of text).
    /// Trace styles write records only; Apple styles write a whole export (header, records, trailer).
    package func write(device index: Int, header: Bool, _ write: (String) -> Void) {
        let name = deviceName(index)
        let events = events(device: index)
        var buffer = ""
        func flush(force: Bool = false) {
            if force || buffer.utf8.count > 1 << 16 {
                write(buffer)
                buffer = ""
            }
        }
        switch style {
        case .trace:
            for e in events {
                buffer += TraceFormat.ndjsonLine(e, device: name) + "\n"
                flush()
            }
        case .traceCSV:
            if header { buffer += TraceFormat.csvHeader + "\r\n" }
            for e in events {
                buffer += TraceFormat.csvLine(e, device: name) + "\r\n"
                flush()
            }
        case .ndjson, .json, .default, .syslog, .compact:
            var writer = AppleLogWriter(
                style: AppleLogWriter.Style(rawValue: style.rawValue)!, app: app,
                seed: scenario.horizon.seed &+ UInt64(index))
            buffer += writer.header()
            let pids = (app: 400 + index % 500, ext: 900 + index % 500)
            for e in events {
                buffer += writer.render(e, pids: pids)
                flush()
            }
            buffer += writer.footer()
        }
        flush(force: true)
    }
}
