/// What happens at a widget event.
enum WidgetEventKind: UInt8 {
    /// WidgetKit calls the provider's getTimeline on its own schedule (including Smart Stack rotation).
    case getTimeline
    /// The user looks at the widget: it only reads what is displayed.
    case glance
}

/// A user's widget activity over the whole simulated window, generated before the event loop
/// runs: the system's getTimeline calls and, for observers that see them, the user's glances,
/// in time order.
///
/// Neither depends on what the simulation does (the reload budget drops calls later, when they
/// are handled). Each is an inhomogeneous Poisson process with its day's rate spread by the
/// widget's day shape, drawn from its own random stream: the calls are the same whether or not
/// glances are drawn. Generating either is a tight loop of one random draw per event.
struct WidgetStream {
    /// Event times in local seconds, ascending, followed by +infinity.
    let times: UnsafePointer<Double>
    /// Each event's kind; all `.getTimeline` when glances were not drawn.
    let kinds: UnsafePointer<WidgetEventKind>
    let count: Int

    /// Fills `buffers`' widget events for one user, spread over each day by the widget's shape.
    /// - Parameters:
    ///   - callsPerDay: the day's expected system getTimeline calls (all instances), by local day.
    ///   - glancesPerDay: expected glances per day.
    ///   - glanceRNG: the glances' stream; nil draws no glances (the engine integrates them).
    @inline(__always)
    static func generate(
        in buffers: ActivityBuffers, days: Int,
        callsPerDay: (Int) -> Double, glancesPerDay glances: Double,
        rng: inout RandomStream, glanceRNG: UnsafeMutablePointer<RandomStream>?, tables: ExponentialTables
    ) -> WidgetStream {
        let calls = fill(buffers, days: days, mass: callsPerDay, rng: &rng, tables: tables, into: .calls)
        guard let glanceRNG, glances > 0 else {
            buffers.widgetTimes[calls] = .infinity
            buffers.widgetKinds.update(repeating: .getTimeline, count: calls)
            return WidgetStream(times: buffers.widgetTimes, kinds: buffers.widgetKinds, count: calls)
        }
        let seen = fill(buffers, days: days, mass: { _ in glances }, rng: &glanceRNG.pointee, tables: tables, into: .glances)
        // Merge the two ascending lists from the back, into the calls' buffers.
        let n = calls + seen
        buffers.reserveWidgetEvents(n, keeping: calls)
        let times = buffers.widgetTimes
        let kinds = buffers.widgetKinds
        let glanceTimes = buffers.glanceTimes
        var c = calls - 1
        var g = seen - 1
        var k = n - 1
        while g >= 0 {
            if c >= 0 && times[c] > glanceTimes[g] {
                times[k] = times[c]
                kinds[k] = .getTimeline
                c -= 1
            } else {
                times[k] = glanceTimes[g]
                kinds[k] = .glance
                g -= 1
            }
            k -= 1
        }
        kinds.update(repeating: .getTimeline, count: c + 1)
        times[n] = .infinity
        return WidgetStream(times: times, kinds: kinds, count: n)
    }

    private enum Target { case calls, glances }

    /// Draws one process's event times into the calls' or the glances' buffer; returns how many.
    @inline(__always)
    private static func fill(
        _ buffers: ActivityBuffers, days: Int, mass dayMass: (Int) -> Double,
        rng: inout RandomStream, tables: ExponentialTables, into target: Target
    ) -> Int {
        let shape = buffers.widgetShape
        var times = target == .calls ? buffers.widgetTimes : buffers.glanceTimes
        var capacity = target == .calls ? buffers.widgetCapacity : buffers.glanceCapacity
        var n = 0
        // Position in the day's operational time (expected events since the day began).
        var position = rng.exponential(tables)
        for d in 0..<days {
            let mass = dayMass(d)
            guard mass > 0 else { continue }  // an empty day passes; the process is memoryless
            let inverse = 1 / mass
            let dayStart = Double(d) * .secondsPerDay
            while position < mass {
                if n == capacity {
                    if target == .calls {
                        buffers.reserveWidgetEvents(n + 1, keeping: n)
                        times = buffers.widgetTimes
                        capacity = buffers.widgetCapacity
                    } else {
                        buffers.reserveGlances(n + 1, keeping: n)
                        times = buffers.glanceTimes
                        capacity = buffers.glanceCapacity
                    }
                }
                times[n] = dayStart + shape.seconds(atShare: position * inverse)
                n += 1
                position += rng.exponential(tables)
            }
            position -= mass
        }
        return n
    }
}
