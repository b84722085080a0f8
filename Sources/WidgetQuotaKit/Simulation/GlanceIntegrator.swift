/// The glance figures of one user as expectations: the glance rate integrated over the time each
/// content is shown, instead of glances drawn one by one.
///
/// A glance reads what instance 0 shows, and glances arrive at a known rate (glances per day
/// spread over the day by the widget's shape, constant within each hour), independently of
/// everything else. So over a stretch in which instance 0 shows content from time `c`, the
/// expected glances at ages in any range are the integral of that rate over the matching times.
/// The integrator follows what instance 0 shows through the run (`show`) and keeps:
///
/// - the age density as steps: at age `t − c` the density rises by the rate when content `c`
///   appears at `t`, falls by it when the content is replaced, and moves by the change of rate
///   at each hour boundary. `AgeHistogram(steps:)` turns the steps into each bin's expected
///   glances, exactly (a step at age `p` puts `w × (bin end − p)` into its own bin, `w × width`
///   into each later one).
/// - the stale and over-target expectations from the same steps: `−Σ w × max(p − threshold, 0)`
///   is the density's mass above the threshold (the steps add up to zero by the window's end).
/// - the error expectation (a placeholder or an error is shown) and the outage figures by
///   integrating the rate over those stretches directly: they are rare.
///
/// Only the counted window is integrated, as only glances in it are counted.
struct GlanceIntegrator {
    // Per user.
    private let perDay: Double
    private let countedStart: Double
    private let countedEnd: Double
    private let countedHours: Int
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
    /// Since when it shows what it shows.
    private var since = 0.0
    /// The glance rate now (per second; 0 outside the counted window), when it next changes,
    /// and the hour of the day that change starts.
    private var rate = 0.0
    private var nextBoundary: Double
    private var boundaryHour = 0
    private var hoursCrossed = 0

    // Sums.
    private var staleMoment = 0.0
    private var overTargetMoment = 0.0
    private var errorGlances = 0.0
    private var outageErrorGlances = 0.0
    private var outageStaleGlances = 0.0

    init(
        glancesPerDay: Double, constants: SimulationConstants, workspace ws: SimulationWorkspace, utcOffset: Double,
        steps: UnsafeMutablePointer<Double>
    ) {
        perDay = glancesPerDay
        countedStart = constants.countedStartLocal
        countedEnd = constants.countedEndLocal
        countedHours = (constants.countedEndDay - constants.countedFirstDay) * TimeUnits.hoursPerDay
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
        nextBoundary = perDay > 0 ? countedStart : .infinity
    }

    /// Instance 0 shows `newContent` (a content time; −infinity: the placeholder) from `t` on,
    /// or an error when `error`. Calls must come in time order.
    @inline(__always) mutating func show(_ newContent: Double, error: Bool, at t: Double) {
        let shown = error ? -.infinity : newContent
        if shown != content { change(to: shown, at: t) }
    }

    private mutating func change(to newContent: Double, at t: Double) {
        if t >= nextBoundary { advance(to: t) }
        // Errors and outages are integrated directly; they are rare.
        if content == -.infinity || (t > outageFrom && since < outageTo) { close(until: t) }
        let r = rate
        if r > 0 {
            if content != -.infinity { step(at: t - content, -r) }
            if newContent != -.infinity { step(at: t - newContent, r) }
        }
        content = newContent
        since = t
    }

    /// Applies the rate's changes at the hour boundaries up to `t`.
    private mutating func advance(to t: Double) {
        while nextBoundary <= t {
            var newRate = 0.0
            if hoursCrossed < countedHours {
                newRate = perDay * hourRate[boundaryHour]
                boundaryHour = boundaryHour == TimeUnits.hoursPerDay - 1 ? 0 : boundaryHour + 1
            }
            if content != -.infinity && newRate != rate { step(at: nextBoundary - content, newRate - rate) }
            rate = newRate
            hoursCrossed += 1
            nextBoundary = hoursCrossed <= countedHours ? nextBoundary + .secondsPerHour : .infinity
        }
    }

    /// Adds a step of `w` (glances per second) to the age density at age `age`.
    @inline(__always) private mutating func step(at age: Double, _ w: Double) {
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
        let stale = age - staleThreshold
        if stale > 0 { staleMoment += w * stale }
        let over = age - freshnessTarget
        if over > 0 { overTargetMoment += w * over }
    }

    /// Integrates the error and outage figures over what was shown from `since` to `t`.
    private mutating func close(until t: Double) {
        let a = Swift.max(since, countedStart)
        let b = Swift.min(t, countedEnd)
        guard a < b, perDay > 0 else { return }
        if content == -.infinity { errorGlances += expected(a, b) }
        guard b > outageFrom && a < outageTo else { return }
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
    private func cumulative(_ t: Double) -> Double {
        let offset = t - countedStart
        let day = Int(offset * (1 / Double.secondsPerDay))
        let seconds = offset - Double(day) * .secondsPerDay
        let hour = Swift.min(Swift.max(Int(seconds * (1 / Double.secondsPerHour)), 0), TimeUnits.hoursPerDay - 1)
        return perDay * (Double(day) + hourBase[hour] + seconds * hourRate[hour])
    }

    /// Ends the run at `end` (at or after the counted window's end) and adds the figures to `tally`.
    mutating func finish(at end: Double, into tally: inout UserTally) {
        guard perDay > 0 else { return }
        if end >= nextBoundary { advance(to: end) }
        close(until: end)
        let glances = perDay * Double(countedHours / TimeUnits.hoursPerDay)
        var outageGlances = 0.0
        for k in 0..<outageCount {
            let from = Swift.min(Swift.max(outages[k].start, countedStart), countedEnd)
            let to = Swift.min(Swift.max(outages[k].end, countedStart), countedEnd)
            if from < to { outageGlances += expected(from, to) }
        }
        tally.glances += glances
        tally.errorGlances += errorGlances
        tally.staleGlances += Swift.max(-staleMoment, 0)
        tally.overTargetGlances += Swift.min(errorGlances + Swift.max(-overTargetMoment, 0), glances)
        tally.outageGlances += outageGlances
        tally.outageErrorGlances += outageErrorGlances
        tally.outageStaleGlances += outageStaleGlances
    }
}
