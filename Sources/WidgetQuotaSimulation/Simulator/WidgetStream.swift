import WidgetQuotaSupport

/// What happens at a widget event.
package enum WidgetEventKind: UInt8 {
    /// WidgetKit calls the provider's getTimeline on its own schedule (including Smart Stack rotation).
    case getTimeline
    /// The user looks at the widget: it only reads what is displayed.
    case glance
}

/// A user's widget activity over the whole simulated window, generated before the event loop
/// runs: the getTimeline calls WidgetKit makes on its own (Smart Stack rotation included) and the
/// user's glances, in time order.
///
/// Neither depends on what the simulation does (the reload budget drops calls later, when they are
/// handled), and both follow the widget's day shape, so they are one inhomogeneous Poisson process
/// with the summed rate whose events are glances with probability glances ÷ (calls + glances) of
/// that day (superposition and thinning). Generating it is a tight loop of one random draw per
/// event: the draw that spaces the next event also chooses this one's kind from bits the spacing
/// does not use, so the two are independent.
package struct WidgetStream {
    /// Event times in local seconds, ascending, followed by +infinity.
    package let times: UnsafePointer<Double>
    package let kinds: UnsafePointer<WidgetEventKind>
    package let count: Int

    /// Bits of a draw that choose an event's kind (the exponential spacing reads bits 0–31 and 56–63).
    private static let kindShift: UInt64 = 32
    private static let kindBits: UInt64 = 24

    /// Fills `buffers`' widget events for one user, spread over each day by the widget's shape.
    /// - Parameters:
    ///   - callsPerDay: the day's expected getTimeline calls of WidgetKit's own (all instances), by local day.
    ///   - glancesPerDay: the day's expected glances, by local day.
    @inline(__always)
    package static func generate(
        in buffers: ActivityBuffers, days: Int,
        callsPerDay: (Int) -> Double, glancesPerDay: (Int) -> Double,
        rng: inout RandomStream, tables: ExponentialTables
    ) -> WidgetStream {
        let shape = buffers.widgetShape
        var times = buffers.widgetTimes
        var kinds = buffers.widgetKinds
        var capacity = buffers.widgetCapacity
        var n = 0
        let scale = Double(1 << kindBits)
        let mask: UInt64 = (1 << kindBits) - 1
        // Position in the day's operational time (expected events since the day began).
        var position = rng.exponential(tables)
        for d in 0..<days {
            let glances = glancesPerDay(d)
            let mass = callsPerDay(d) + glances
            guard mass > 0 else { continue }  // an empty day passes; the process is memoryless
            let inverse = 1 / mass
            let glanceThreshold = UInt64(glances * inverse * scale)
            let dayStart = Double(d) * .secondsPerDay
            while position < mass {
                if n == capacity {
                    buffers.reserveWidgetEvents(n + 1, keeping: n)
                    times = buffers.widgetTimes
                    kinds = buffers.widgetKinds
                    capacity = buffers.widgetCapacity
                }
                let r = rng.next()
                times[n] = dayStart + shape.seconds(atShare: position * inverse)
                kinds[n] = (r >> kindShift) & mask < glanceThreshold ? .glance : .getTimeline
                n += 1
                position += rng.exponential(first: r, tables)
            }
            position -= mass
        }
        times[n] = .infinity
        return WidgetStream(times: times, kinds: kinds, count: n)
    }
}
