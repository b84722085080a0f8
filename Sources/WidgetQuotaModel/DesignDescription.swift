import Foundation
import WidgetQuotaSupport

/// "What it does": a design said back in words, generated from its fields.
extension Design {
    /// A few sentences built from the design's fields: who fetches and when, the cache and its
    /// TTL, how the widget reloads, when the app asks it to, and what a failed fetch does.
    public var whatItDoes: String {
        var fetchers = [String]()
        if fetchTriggers.contains(.getTimeline) { fetchers.append("the widget in getTimeline") }
        if fetchTriggers.contains(.appForeground) { fetchers.append("the app when it is opened") }
        if fetchTriggers.contains(.backgroundTask) {
            fetchers.append(
                "a BGAppRefreshTask "
                    + (backgroundIntervalHours.map { "asked for every \(Self.duration(hours: $0))" } ?? "at the platform's default interval")
            )
        }
        if fetchTriggers.contains(.push) { fetchers.append("the app when a push says the data changed") }
        if fetchTriggers.contains(.widgetPush) { fetchers.append("a WidgetKit push, which reloads the widget's timelines") }
        let requests = requestsPerFetch == 1 ? "one API request" : "\(requestsPerFetch) API requests"
        var text = "Fetched by " + Self.list(fetchers) + " (\(requests) a fetch)"
        if let ttl = cacheTTLMinutes {
            text += ", into an App Group cache with a \(Self.duration(minutes: ttl)) TTL: a trigger fetches only when the cache is older."
        } else {
            text += ", with no cache: every trigger fetches, and a failed fetch shows an error."
        }

        let widgetFetches = fetchTriggers.contains(.getTimeline)
        var widget: String
        switch reloadPolicy {
        case .after(let minutes): widget = "The widget reloads its timeline after \(Self.duration(minutes: minutes))"
        case .atEnd:
            widget =
                timelineEntries > 1
                ? "The widget builds \(timelineEntries) entries \(Self.duration(minutes: entrySpacingMinutes)) apart and reloads after the last"
                : "The widget reloads when its one entry's date has passed"
        case .never: widget = "The widget asks for no reload: it reloads when the app asks, or when WidgetKit reloads on its own"
        }
        if let align = alignToWallClockMinutes {
            widget += ", on wall-clock boundaries every \(Self.duration(minutes: align))"
            widget +=
                jitterSeconds > 0
                ? " plus up to \(Self.duration(minutes: jitterSeconds / 60)) of random offset per device" : " on every device at once"
        }
        if policyFollowsHours, case .after = reloadPolicy {
            widget += " while the data's hours are open, and at the next opening while closed"
        }
        if !widgetFetches && hasCache { widget += ", and only reads the cache" }
        let appFetches = fetchTriggers.contains { $0 != .getTimeline }
        if appFetches || reloadCalls == .everyForeground {
            switch reloadCalls {
            case .onceOnSuccess: widget += "; the app asks it to reload once after each successful fetch"
            case .everyForeground: widget += "; the app asks it to reload on every open, whether or not anything changed"
            case .everyFetch: widget += "; the app asks it to reload after every fetch attempt, failures included"
            case .never: widget += "; the app never asks it to reload"
            }
        }
        text += " " + widget + "."
        if let backend {
            let when: String
            switch backend.regenerate {
            case .onChange: when = "on each change of a key"
            case .every: when = "on a schedule, " + backend.scheduleSummary
            case .afterTTL: when = "when a device asks and its answer is older than \(Self.duration(minutes: backend.cacheTTLMinutes))"
            }
            text += " The fetches go to the owner's backend, which calls the paid API per content key \(when)."
        }
        if let liveActivity {
            text +=
                " For each live event, \(NumberText.percent(liveActivity.startShare, digits: 0)) of a key's users follow it in a Live "
                + "Activity, updated by an ActivityKit push at each change (\(liveActivity.updatesSummary))."
        }

        switch retry {
        case .nextOpportunity: text += " A failed fetch waits for the next trigger."
        case .backoff(let n, let base, let jitter):
            text +=
                n == 0
                ? " A failed fetch is not retried."
                : " A failed fetch is retried at once up to \(n) time\(n == 1 ? "" : "s"), \(NumberText.plain(base)) s apart and doubling"
                    + (jitter ? ", with jitter." : ", without jitter.")
        }
        return text
    }

    /// The summary a report or `widget-quota designs` shows: the hand-written one, or "What it
    /// does" when there is none or when the scenario changed a preset without writing one.
    public var shownSummary: String {
        if summary.isEmpty { return whatItDoes }
        if let preset = DesignPresets.named(name), summary.hasPrefix(preset.summary) {
            let changed = differences(from: preset)
            if !changed.isEmpty {
                return whatItDoes + " (The \(name) preset, changed by the scenario: " + changed.joined(separator: ", ") + ".)"
            }
        }
        return summary
    }

    /// `45 min`, `2 h`, `1.5 h`.
    package static func duration(minutes: Double) -> String {
        minutes >= 60 && (minutes / 30).rounded() == minutes / 30
            ? duration(hours: minutes / 60) : NumberText.plain(minutes, maxFractionDigits: 1) + " min"
    }

    /// `2 h`, `30 min` for half an hour.
    package static func duration(hours: Double) -> String {
        hours < 1 ? duration(minutes: hours * 60) : NumberText.plain(hours, maxFractionDigits: 2) + " h"
    }

    /// `a`, `a and b`, `a, b and c`.
    package static func list(_ items: [String]) -> String {
        items.count <= 1 ? (items.first ?? "nothing") : items.dropLast().joined(separator: ", ") + " and " + items.last!
    }
}
