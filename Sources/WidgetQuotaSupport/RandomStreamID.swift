/// The first key of every random stream the library draws from: what the stream is for.
///
/// A stream is keyed by the seed, this id and then the run, the user or whatever else it
/// belongs to. Two purposes sharing an id would draw the same numbers and be correlated, and
/// a changed id changes every result drawn from it, so every id lives here, once; an enum's
/// raw values cannot repeat. The values are arbitrary but fixed: results are reproducible
/// only while they stay as they are.
package enum RandomStreamID: UInt64, CaseIterable, Sendable {
    /// Per user: when the system asks the widget for a timeline and when the user glances at it.
    case widgetRequests = 1
    /// Per user: when the app is opened.
    case appOpens = 2
    /// Per user: when iOS runs the app's background refresh.
    case backgroundRuns = 3
    /// Per user: when pushes arrive.
    case pushes = 4
    /// Per user: which widget instance a timeline request goes to.
    case instances = 5
    /// Per user: whether each API request fails, how long a failure takes, and retry jitter.
    case apiOutcomes = 6
    /// Per user: the jitter the design's reload policy adds to reload times.
    case reloadPolicy = 7
    /// Per user: how busy each local day is and whether it is a Low Power Mode day.
    case days = 8
    /// Per user: the phase of the daily reload budget and of an aligned poll.
    case phases = 9
    /// Per user: which content key the user follows and whether they force-quit the app.
    case contentKey = 10
    /// Per user: whether each silent push is delivered.
    case pushDelivery = 11
    /// Per user: how old the backend's answer is when a device fetches it.
    case backendLag = 12
    /// Per run and content key: when the key's data changes.
    case contentChanges = 13
    /// Per user: how late WidgetKit runs each policy reload after its date.
    case policyLateness = 14
    /// Per user: which live events they follow with a Live Activity, and its pushes' delays.
    case liveActivities = 15
    /// Per user: the traits drawn once per run (time zone, Smart Stack, instances, budget, rates).
    case userTraits = 0x7EA1_75
    /// Per run: the value of each uncertain assumption (the next key is the assumption's path hash).
    case runParameters = 0xA55E_2710
    /// Per run: the normal deviates of the per-minute load projection.
    case minuteLoad = 0x10AD
    /// Per generated device: the identifiers and jitter of a synthetic Apple log export.
    case appleLogWriter = 0x1065
}

extension RandomStream {
    /// A stream for `id`, keyed further by `path` (run, user, ...).
    package init(seed: UInt64, _ id: RandomStreamID, _ path: UInt64...) {
        var h = RandomStream.mix(seed ^ 0x5851_F42D_4C95_7F2D)
        h = RandomStream.step(h, id.rawValue)
        for component in path { h = RandomStream.step(h, component) }
        self.init(state: h)
    }

    /// A stream for `id` keyed by two more keys, without allocating: the engine's per-user streams.
    @inlinable package init(seed: UInt64, _ id: RandomStreamID, _ b: UInt64, _ c: UInt64) {
        self.init(seed: seed, id.rawValue, b, c)
    }

    /// A stream for `id` keyed by three more keys, without allocating.
    @inlinable package init(seed: UInt64, _ id: RandomStreamID, _ b: UInt64, _ c: UInt64, _ d: UInt64) {
        self.init(seed: seed, id.rawValue, b, c, d)
    }
}
