/// The glance figures of one user as expectations: the glance rate integrated over the time each
/// content is shown, instead of glances drawn one by one.
///
/// A glance reads what instance 0 shows, and glances arrive at a known rate (glances per day
/// spread over the day by the widget's shape, constant within each hour), independently of
/// everything else. So over a stretch from `a` to `b` in which instance 0 shows content from
/// time `c`, the expected glances are the rate's integral `G(b) − G(a)`, those older than a
/// threshold `x` are `G(b) − G(max(a, c + x))`, and so on. The integrator follows what instance 0
/// shows through the run (`show`) and, each time that changes, adds the stretch that ended:
///
/// - glances, errors (a placeholder or an error shown), stale and over-target glances, and the
///   outage figures: exact expectations.
/// - the content-age histogram: the stretch's expected glances spread over the ages it covers
///   (`b − a` seconds from `a − c`) as steps of an age density (see `AgeHistogram(steps:)`):
///   hour by hour of the day, following the rate, for a stretch longer than an hour (exact);
///   evenly for a shorter one. Even spreading is the one approximation: a stretch of at most
///   an hour that spans an hour boundary moves some of its glances between ages less than an
///   hour apart. `GlanceIntegrationTests` bounds its effect on the median and p95 age.
///
/// Only the counted window is integrated, as only glances in it are counted. A change costs one
/// evaluation of `G` and two steps (more for a stretch longer than an hour).
struct GlanceIntegrator {
    // Per user.
    private let perDay: Double
    private let countedStart: Double
    private let countedEnd: Double
    private let countedDays: Int
    private let staleThreshold: Double
    private let freshnessTarget: Double
    /// Share of the day per second, and the day's share before second 0 of the hour's slope, by hour.
    private let hourRate: UnsafePointer<Double>
    private let hourBase: UnsafePointer<Double>
    /// `binCount` step sums, then `binCount` moment sums (see `AgeHistogram(steps:)`).
    private let steps: UnsafeMutablePointer<Double>
    /// Outage windows in this user's local seconds (disjoint, ascending), and their span.
    private let outages: UnsafePointer<(start: Double, end: Double)>
    private let outageCount: Int
    private let outageFrom: Double
    private let outageTo: Double

    /// The content time instance 0 shows; −infinity while it shows a placeholder or an error.
    private var content = -Double.infinity
    /// Since when it shows it (clipped to the counted window), and the expected glances before then.
    private var since = 0.0
    private var glancesBefore = 0.0

    // Sums.
    private var errorGlances = 0.0
    private var staleGlances = 0.0
    private var overTargetGlances = 0.0
    private var outageErrorGlances = 0.0
    private var outageStaleGlances = 0.0

    init(
        glancesPerDay: Double, constants: SimulationConstants, workspace ws: SimulationWorkspace, utcOffset: Double,
        steps: UnsafeMutablePointer<Double>
    ) {
        perDay = glancesPerDay
        countedStart = constants.countedStartLocal
        countedEnd = constants.countedEndLocal
        countedDays = constants.countedEndDay - constants.countedFirstDay
        staleThreshold = constants.staleThreshold
        freshnessTarget = constants.freshnessTargetSeconds
        hourRate = UnsafePointer(ws.glanceHourRate)
        hourBase = UnsafePointer(ws.glanceHourBase)
        self.steps = steps
        outageCount = ws.outageUnionCount
        let local = ws.localOutages
        for k in 0..<outageCount {
            local[k] = (ws.outageUnion[k].start + utcOffset, ws.outageUnion[k].end + utcOffset)
        }
        outages = UnsafePointer(local)
        outageFrom = outageCount > 0 ? local[0].start : .infinity
        outageTo = outageCount > 0 ? local[outageCount - 1].end : -.infinity
        since = countedStart
    }

    /// Instance 0 shows `newContent` (a content time; −infinity: the placeholder) from `t` on,
    /// or an error when `error`. Calls must come in time order.
    @inline(__always) mutating func show(_ newContent: Double, error: Bool, at t: Double) {
        let shown = error ? -.infinity : newContent
        if shown != content { change(to: shown, at: t) }
    }

    private mutating func change(to newContent: Double, at t: Double) {
        let end = Swift.min(Swift.max(t, countedStart), countedEnd)
        if end > since { close(at: end) }
        content = newContent
    }

    /// Adds what was shown from `since` to `end` (in the counted window, after `since`).
    private mutating func close(at end: Double) {
        let a = since
        let before = glancesBefore
        let after = cumulative(end)
        since = end
        glancesBefore = after
        let mass = after - before
        guard mass > 0 else { return }
        let c = content
        if c == -.infinity {
            errorGlances += mass
        } else {
            if end - a <= .secondsPerHour {
                // The age density: `mass` spread evenly over ages a − c ..< end − c.
                let density = mass / (end - a)
                step(at: a - c, density)
                step(at: end - c, -density)
            } else {
                spreadByHour(from: a, before, to: end, after)
            }
            let stale = c + staleThreshold
            if stale < end { staleGlances += stale <= a ? mass : after - cumulative(stale) }
            let over = c + freshnessTarget
            if over < end { overTargetGlances += over <= a ? mass : after - cumulative(over) }
        }
        if end > outageFrom && a < outageTo { closeOutages(a, end) }
    }

    /// Spreads what was shown from `a` to `b` (`ga` and `gb` expected glances before them) over
    /// its ages hour by hour of the day, following the rate: a long stretch spans hours whose
    /// rates differ.
    private func spreadByHour(from a: Double, _ ga: Double, to b: Double, _ gb: Double) {
        let c = content
        var from = a
        var glancesBefore = ga
        var boundary = countedStart + Double(Int((a - countedStart) * (1 / Double.secondsPerHour)) + 1) * .secondsPerHour
        while from < b {
            let to = Swift.min(boundary, b)
            let glancesAfter = to == b ? gb : cumulative(to)
            let mass = glancesAfter - glancesBefore
            if mass > 0 {
                let density = mass / (to - from)
                step(at: from - c, density)
                step(at: to - c, -density)
            }
            from = to
            glancesBefore = glancesAfter
            boundary += .secondsPerHour
        }
    }

    /// Adds a step of `w` (glances per second) to the age density at age `age`.
    @inline(__always) private func step(at age: Double, _ w: Double) {
        let fineEnd = Double(AgeHistogram.fineBins) * AgeHistogram.fineWidth
        let clamped = age > 0 ? age : 0
        let bin: Int
        let binEnd: Double
        if clamped < fineEnd {
            // ⌊age ÷ width⌋ through the float's bits (or one less at an exact bin edge, which
            // adds the same to every bin); no range checks.
            let rounded = (clamped * (1 / AgeHistogram.fineWidth) - 0.5) + 0x1.8p52
            bin = Int(truncatingIfNeeded: rounded.bitPattern) & 0x3FF
            binEnd = Double(bin + 1) * AgeHistogram.fineWidth
        } else {
            let coarse = Swift.min(Int((age - fineEnd) * (1 / Double.secondsPerDay)), AgeHistogram.coarseBins - 1)
            bin = AgeHistogram.fineBins + coarse
            binEnd = fineEnd + Double(coarse + 1) * .secondsPerDay
        }
        steps[bin] += w
        steps[AgeHistogram.binCount + bin] += w * (binEnd - age)
    }

    /// Adds the outage figures of what was shown from `a` to `b`.
    private mutating func closeOutages(_ a: Double, _ b: Double) {
        for k in 0..<outageCount {
            let from = Swift.max(a, outages[k].start)
            let to = Swift.min(b, outages[k].end)
            guard from < to else { continue }
            if content == -.infinity {
                outageErrorGlances += expected(from, to)
            } else {
                let stale = Swift.max(from, content + staleThreshold)
                if stale < to { outageStaleGlances += expected(stale, to) }
            }
        }
    }

    /// Expected glances from `a` to `b`, both in the counted window.
    private func expected(_ a: Double, _ b: Double) -> Double {
        cumulative(b) - cumulative(a)
    }

    /// Expected glances from the counted window's start to `t` (in the window).
    @inline(__always) private func cumulative(_ t: Double) -> Double {
        let offset = t - countedStart
        let day = Int(offset * (1 / Double.secondsPerDay))
        let seconds = offset - Double(day) * .secondsPerDay
        let hour = Swift.min(Int(seconds * (1 / Double.secondsPerHour)), TimeUnits.hoursPerDay - 1)
        return perDay * (Double(day) + hourBase[hour] + seconds * hourRate[hour])
    }

    /// Ends the run (after the counted window) and adds the figures to `tally`.
    mutating func finish(into tally: inout UserTally) {
        guard perDay > 0 else { return }
        if countedEnd > since { close(at: countedEnd) }
        let glances = perDay * Double(countedDays)
        var outageGlances = 0.0
        for k in 0..<outageCount {
            let from = Swift.min(Swift.max(outages[k].start, countedStart), countedEnd)
            let to = Swift.min(Swift.max(outages[k].end, countedStart), countedEnd)
            if from < to { outageGlances += expected(from, to) }
        }
        tally.glances += glances
        tally.errorGlances += errorGlances
        tally.staleGlances += staleGlances
        tally.overTargetGlances += errorGlances + overTargetGlances
        tally.outageGlances += outageGlances
        tally.outageErrorGlances += outageErrorGlances
        tally.outageStaleGlances += outageStaleGlances
    }
}
