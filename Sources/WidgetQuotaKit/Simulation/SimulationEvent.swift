/// Something a simulated device did; `trace` writes these as logs.
public enum SimulationEvent: Sendable {
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
public protocol SimulationObserver {
    /// Whether the simulation draws the user's glances one by one and reports them (`.glance`).
    ///
    /// True by default. When false, glances are not drawn: the simulator integrates the glance
    /// rate over the time each content is shown, which gives the expected glance figures of
    /// the tally (the engine's path). Nothing else the user does depends on glances, so the
    /// rest of the run is the same either way.
    static var recordsGlances: Bool { get }

    /// `local` and `utc` are seconds since the start of the simulated window.
    mutating func record(_ event: SimulationEvent, local: Double, utc: Double)
}

extension SimulationObserver {
    /// Observers see glances unless they say otherwise.
    public static var recordsGlances: Bool { true }
}

/// Ignores everything: the engine's fast path, which integrates glances rather than drawing them.
public struct NoObserver: SimulationObserver {
    public static var recordsGlances: Bool { false }
    public init() {}
    @inline(__always) public mutating func record(_ event: SimulationEvent, local: Double, utc: Double) {}
}
