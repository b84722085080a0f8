import WidgetQuotaModel

/// Something a simulated device did; `trace` writes these as logs.
package enum SimulationEvent: Sendable {
    case getTimeline(instance: Int, origin: TimelineOrigin, budgetExempt: Bool)
    case budgetExhausted(instance: Int)
    case reloadCall
    case appForeground
    case appBackground
    case bgTaskSubmit(accepted: Bool)
    case bgTaskLaunch
    case bgTaskExpire
    case bgTaskComplete(success: Bool)
    /// `instance`: the widget instance whose getTimeline sent it (nil for the app's requests and
    /// for retries, which refresh every instance).
    case apiRequest(actor: RequestActor, success: Bool, durationSeconds: Double, instance: Int?)
    /// A cache read that found fresh content; `instance` when the widget read it, nil for the app.
    case cacheHit(instance: Int?)
    /// The widget read content older than the TTL.
    case cacheStale(instance: Int?)
    case lowPowerMode(on: Bool)
    case glance(ageSeconds: Double?, error: Bool)
}

/// Receives every event of one simulated user, with its local time and UTC time in seconds.
package protocol SimulationObserver {
    /// `local` and `utc` are seconds since the start of the simulated window.
    mutating func record(_ event: SimulationEvent, local: Double, utc: Double)
}

/// Ignores everything: the engine's fast path.
package struct NoObserver: SimulationObserver {
    package init() {}
    @inline(__always) package mutating func record(_ event: SimulationEvent, local: Double, utc: Double) {}
}
