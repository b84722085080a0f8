import Foundation
import WidgetQuotaModel
import WidgetQuotaSwiftSource

extension DesignCodeReader {
    /// "the widget calls the API itself on every getTimeline and reloads after 10 min", or "the
    /// app fetches into a 6 h App Group cache on open and in a background task; the widget reads it".
    /// The design in words; a field of `assumed` (not read from the code) is said to be assumed.
    static func sentence(_ d: Design, assumed: Set<String> = []) -> String {
        let reload: String
        switch d.reloadPolicy {
        case .after(let m): reload = "reloads after \(Design.duration(minutes: m))"
        case .atEnd: reload = "reloads at its timeline's end"
        case .never: reload = "reloads only when the app asks (or WidgetKit on its own)"
        }
        var appTriggers = [String]()
        if d.fetchTriggers.contains(.appForeground) { appTriggers.append("on open") }
        if d.fetchTriggers.contains(.backgroundTask) { appTriggers.append("in a background task") }
        if d.fetchTriggers.contains(.push) { appTriggers.append("on a push") }
        let sent = d.requestsPerTap > 1 ? "sends \(d.requestsPerTap) requests" : "sends a request"
        let taps = d.interactive ? "; a tap on its buttons \(sent) and reloads it" : ""
        if d.fetchTriggers.contains(.getTimeline) {
            var text = "the widget calls the API itself on every getTimeline and \(reload)"
            if let ttl = d.cacheTTLMinutes { text += " (\(Design.duration(minutes: ttl)) cache)" }
            if !appTriggers.isEmpty { text += "; the app fetches too, " + Design.list(appTriggers) }
            return text + taps
        }
        let cache =
            d.cacheTTLMinutes.map {
                assumed.contains("cacheTTLMinutes")
                    ? "an App Group cache (its TTL not read from the code: \(Design.duration(minutes: $0)) assumed)"
                    : "a \(Design.duration(minutes: $0)) App Group cache"
            } ?? "an App Group cache"
        let when =
            assumed.contains("fetchTriggers")
            ? "(when is not read from the code: \(Design.list(appTriggers)) assumed)" : Design.list(appTriggers)
        let policy = assumed.contains("reloadPolicy") ? "\(reload) (assumed: no policy read)" : reload
        return "the app fetches into \(cache) \(when); the widget reads it and \(policy)\(taps)"
    }
}
