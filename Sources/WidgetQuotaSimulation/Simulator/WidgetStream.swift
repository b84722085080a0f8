import WidgetQuotaSupport

/// What happens at a widget event.
package enum WidgetEventKind: UInt8 {
    /// WidgetKit calls the provider's getTimeline on its own.
    case getTimeline
    /// The user looks at the widget: it only reads what is displayed.
    case glance
    /// Smart Stack rotates the widget into view: it reloads only if its policy reload is due.
    case rotation
    /// The user taps one of the widget's buttons: it reloads the tapped instance in an
    /// interactive design, and does nothing in another.
    case tap
}

/// A user's widget activity over the whole simulated window, generated before the event loop
/// runs: the getTimeline calls WidgetKit makes on its own, the user's glances, Smart Stack's
/// rotations and the user's taps, in time order.
///
/// None depends on what the simulation does (the reload budget drops calls later, when they are
/// handled), and all follow the widget's day shape, so they are one inhomogeneous Poisson process
/// with the summed rate whose events are of each kind with probability its rate ÷ the sum of
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
    ///   - rotationsPerDay: the day's expected Smart Stack rotations, by local day.
    ///   - tapsPerDay: the day's expected taps on the widget's buttons, by local day.
    @inline(__always)
    package static func generate(
        in buffers: ActivityBuffers, days: Int,
        callsPerDay: (Int) -> Double, glancesPerDay: (Int) -> Double,
        rotationsPerDay: (Int) -> Double = { _ in 0 }, tapsPerDay: (Int) -> Double = { _ in 0 },
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
            let rotations = rotationsPerDay(d)
            let taps = tapsPerDay(d)
            let mass = callsPerDay(d) + glances + rotations + taps
            guard mass > 0 else { continue }  // an empty day passes; the process is memoryless
            let inverse = 1 / mass
            // The kind's draw below each threshold: a glance, a rotation, a tap; else a call.
            let glanceThreshold = UInt64(glances * inverse * scale)
            let rotationThreshold = UInt64((glances + rotations) * inverse * scale)
            let tapThreshold = UInt64((glances + rotations + taps) * inverse * scale)
            let dayStart = Double(d) * .secondsPerDay
            // Most days have neither rotations nor taps: two kinds, one comparison.
            let twoKinds = rotations <= 0 && taps <= 0
            while position < mass {
                if n == capacity {
                    buffers.reserveWidgetEvents(n + 1, keeping: n)
                    times = buffers.widgetTimes
                    kinds = buffers.widgetKinds
                    capacity = buffers.widgetCapacity
                }
                let r = rng.next()
                times[n] = dayStart + shape.seconds(atShare: position * inverse)
                let kind = (r >> kindShift) & mask
                if twoKinds {
                    kinds[n] = kind < glanceThreshold ? .glance : .getTimeline
                } else {
                    kinds[n] =
                        kind < glanceThreshold
                        ? .glance : kind < rotationThreshold ? .rotation : kind < tapThreshold ? .tap : .getTimeline
                }
                n += 1
                position += rng.exponential(first: r, tables)
            }
            position -= mass
        }
        times[n] = .infinity
        return WidgetStream(times: times, kinds: kinds, count: n)
    }
}
