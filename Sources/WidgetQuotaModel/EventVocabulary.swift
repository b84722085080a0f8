/// Who sent an API request.
package enum RequestActor: String, Sendable, Codable {
    /// The widget extension, inside getTimeline.
    case widgetExtension = "extension"
    /// The app, in the foreground or woken by a push.
    case app
    /// The app, inside a BGAppRefreshTask.
    case background
}

/// Why WidgetKit called getTimeline.
package enum TimelineOrigin: String, Sendable {
    /// The system decided (visibility, Smart Stack rotation, housekeeping).
    case system
    /// The timeline's reload policy came due.
    case policy
    /// The app called reloadTimelines / reloadAllTimelines.
    case reloadCall
    /// A reload queued while the budget was spent, run when it reset.
    case queued
    /// A tap on an interactive widget's button or toggle ran its App Intent.
    case tap
}
