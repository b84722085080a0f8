import Foundation

/// The built-in designs, each traced to the article it comes from.
package enum DesignPresets {
    /// Every preset, in the order reports list them.
    package static let all: [Design] = [
        direct, directPoll15m, cacheOnOpen, cacheBGTask, prebuiltTimeline, pollAligned, pollJittered, backendShared,
    ]

    /// The preset called `name`, if any.
    package static func named(_ name: String) -> Design? {
        all.first { $0.name == name }
    }

    /// The widget calls the API inside getTimeline under the `.after(1 hour)` policy of the
    /// Gemini widget report's code (its widget before the cache): ≈30 requests a day.
    package static var direct: Design {
        var d = Design(name: "direct")
        d.summary =
            "The widget calls the API in every getTimeline and asks for a reload an hour later; WidgetKit runs it late and adds its own reloads (≈30/day)."
        d.source = "Gemini widget report (before the cache)"
        d.fetchTriggers = [.getTimeline]
        d.reloadPolicy = .after(minutes: 60)
        return d
    }

    /// The remote-data widget article's widget: `.after(15 min)`, one API call per refresh, capped by the budget. The
    /// image it then downloads comes from the service's image host, not from the metered API, so
    /// it is not a request here.
    package static var directPoll15m: Design {
        var d = Design(name: "direct-poll-15m")
        d.summary =
            "The widget polls every 15 min with .after(15 min), one API call per refresh (the image host is not metered); the budget caps it."
        d.source = "remote-data widget article"
        d.fetchTriggers = [.getTimeline]
        d.reloadPolicy = .after(minutes: 15)
        d.entrySpacingMinutes = 15
        return d
    }

    /// App Group cache refreshed when the app becomes active and the cache is older than 1 h.
    package static var cacheOnOpen: Design {
        var d = Design(name: "cache-on-open")
        d.summary = "The app refreshes an App Group cache on open when older than 1 h; the widget only reads."
        d.source = "Gemini widget report (first version)"
        d.fetchTriggers = [.appForeground]
        d.cacheTTLMinutes = 60
        d.reloadPolicy = .after(minutes: 60)
        d.reloadCalls = .onceOnSuccess
        return d
    }

    /// The same plus BGAppRefreshTask every ≥4 h (the Gemini widget report, final): ≈3 requests a day.
    package static var cacheBGTask: Design {
        var d = cacheOnOpen
        d.name = "cache-bgtask"
        d.summary = "App Group cache refreshed on open and by BGAppRefreshTask every ≥4 h; the widget only reads (≈3/day)."
        d.source = "Gemini widget report (final design)"
        d.fetchTriggers = [.appForeground, .backgroundTask]
        return d
    }

    /// One fetch builds a timeline of entries; reload at its end or when the data changes.
    package static var prebuiltTimeline: Design {
        var d = Design(name: "prebuilt-timeline")
        d.summary = "One fetch builds 12 entries 30 min apart (.atEnd); a push reloads only when the data changes."
        d.source = "reload-budget notes; timeline-model article"
        d.fetchTriggers = [.getTimeline, .push]
        d.timelineEntries = 12
        d.entrySpacingMinutes = 30
        // Under the 5.5 h to the last entry, so the .atEnd reload fetches (the Gemini widget report: keep the TTL
        // and the reload interval consistent) instead of rebuilding from the same data.
        d.cacheTTLMinutes = 300
        d.reloadPolicy = .atEnd
        d.reloadCalls = .onceOnSuccess
        return d
    }

    /// A 30-minute poll aligned to the wall clock: every device asks at :00 and :30.
    package static var pollAligned: Design {
        var d = Design(name: "poll-30m-aligned")
        d.summary =
            "The widget polls at :00 and :30 on every device at once (the remote-data widget article warns against this); keeps its last content (25-min cache) when a poll fails."
        d.source = "remote-data widget article (its warning)"
        d.fetchTriggers = [.getTimeline]
        // Slightly under the period so every policy reload finds the content due.
        d.cacheTTLMinutes = 25
        d.reloadPolicy = .after(minutes: 30)
        d.alignToWallClockMinutes = 30
        d.jitterSeconds = 0
        return d
    }

    /// The same poll, spread with up to 30 minutes of random jitter per device.
    package static var pollJittered: Design {
        var d = pollAligned
        d.name = "poll-30m-jittered"
        d.summary = "The same 30-min poll, each device at its own random offset within the 30 min: same total, no stampede."
        d.source = "remote-data widget article (its warning)"
        d.jitterSeconds = 1800
        return d
    }

    /// The `direct` widget, fetching from the owner's backend instead of the paid API: the backend
    /// calls the API once per content key when its 15-minute answer has expired and a device
    /// asks, and serves that answer to every device of the key.
    package static var backendShared: Design {
        var d = direct
        d.name = "backend-shared"
        d.summary =
            "The direct widget's fetches go to the owner's backend, which calls the paid API once per content key and 15 min, and serves every device of the key."
        d.source = "shared-backend pattern (an assumption: no article here measures it)"
        d.backend = BackendGeneration(regenerate: .afterTTL, cacheTTLMinutes: 15)
        return d
    }
}
