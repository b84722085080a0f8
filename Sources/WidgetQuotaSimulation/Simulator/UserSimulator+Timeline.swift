import Foundation
import WidgetQuotaModel
import WidgetQuotaSupport

/// WidgetKit's side of a widget: getTimeline and what it spends, the fetch or cache read it
/// runs, the timeline policy's next reload, and the app's reload calls.
extension UserSimulator {
    @inline(__always) mutating func getTimeline(_ i: Int, at t: Double, origin: TimelineOrigin) {
        // A tap's reload is WidgetKit's promise to the App Intent: it spends no budget.
        var exempt = constants.foregroundReloadsExempt && t < foregroundUntil
        if case .tap = origin { exempt = true }
        guard spendReload(i, at: t, origin: origin, exempt: exempt, used: &instanceState.budgetUsed[i]) else {
            if counted(t) { tally.droppedReloads += 1 }
            return
        }
        if counted(t) { tally.getTimelines += 1 }
        observer.record(.getTimeline(instance: i, origin: origin, budgetExempt: exempt), local: t, utc: utc(t))
        buildTimeline(i, at: t, fetching: constants.fetchOnGetTimeline, cachedContent: contentTime)
        if !constants.policyNever {
            instanceState.nextPolicy[i] = policyTime(after: t)
            instanceState.policyDue[i] = policyDueTime
            updatePolicy()
        }
    }

    /// Spends one of instance `i`'s reloads for a getTimeline at `t`, and returns whether
    /// WidgetKit runs it: always in the foreground's exemption (`exempt`, nothing spent), else
    /// while the budget lasts (`used`, the reloads spent today, goes up by one). When it has run
    /// out, the instance is marked exhausted (recorded once) and a reload that was asked for (not
    /// the system's own) waits for the budget's renewal.
    ///
    /// `getTimeline(_:at:origin:)` and the fast path (`widgetRun`) both decide here; the fast
    /// path keeps `used` in a local.
    @inline(__always) mutating func spendReload(
        _ i: Int, at t: Double, origin: TimelineOrigin, exempt: Bool, used: inout Int
    ) -> Bool {
        if exempt { return true }
        guard used < traits.budgetPerInstance else {
            if !instanceState.exhausted[i] { observer.record(.budgetExhausted(instance: i), local: t, utc: utc(t)) }
            instanceState.exhausted[i] = true
            if origin != .system {
                instanceState.queued[i] = true
                // Queued for the renewal: no longer a reload a rotation into view could run.
                instanceState.policyDue[i] = .infinity
            }
            return false
        }
        used += 1
        return true
    }

    /// Builds instance `i`'s timeline at `t`: in a widget that fetches in getTimeline
    /// (`fetching`), from the cache or a fetch (`fetchOrReadCache`); in one that reads the cache
    /// only, from `cachedContent`, the content the app last wrote. Returns whether it fetched.
    @inline(__always) @discardableResult mutating func buildTimeline(
        _ i: Int, at t: Double, fetching: Bool, cachedContent: Double
    ) -> Bool {
        if fetching { return fetchOrReadCache(i, at: t) }
        let fresh = constants.hasTTL && t - cachedContent <= constants.ttl
        observer.record(fresh ? .cacheHit(instance: i) : .cacheStale(instance: i), local: t, utc: utc(t))
        instanceState.displayedContent[i] = cachedContent
        instanceState.displayedError[i] = false
        return false
    }

    /// Builds instance `i`'s timeline at `t` in a widget that fetches in getTimeline: from the
    /// cache while it is within its TTL, else from a fetch (on failure, the cache's older
    /// content, or an error without a cache). Returns whether it fetched.
    @inline(__always) @discardableResult mutating func fetchOrReadCache(_ i: Int, at t: Double) -> Bool {
        if constants.hasTTL && t - contentTime <= constants.ttl {
            observer.record(.cacheHit(instance: i), local: t, utc: utc(t))
            instanceState.displayedContent[i] = contentTime
            instanceState.displayedError[i] = false
            return false
        }
        if extensionFetch(i, at: t) {
            instanceState.displayedContent[i] = contentTime
            instanceState.displayedError[i] = false
        } else if !constants.hasTTL {
            instanceState.displayedError[i] = true
        } else {
            instanceState.displayedContent[i] = contentTime
        }
        return true
    }

    /// The extension's fetch for instance `i`'s timeline, out of line: the rest of getTimeline is
    /// then small enough to inline into the event loop, and only fetching calls pay for a call.
    @inline(never) mutating func extensionFetch(_ i: Int, at t: Double) -> Bool {
        extensionDeadline = t + constants.taskSliceSeconds
        return fetch(at: t, actor: .widgetExtension, instance: i)
    }

    /// When WidgetKit runs the reload of the timeline built at `t`, its policy honoured; the
    /// date the policy asks for is left in `policyDueTime`.
    ///
    /// An aligned poll asks for the next wall-clock boundary (:00, :30, ... shifted by this
    /// device's phase) a whole period after the previous one, so a getTimeline between two
    /// boundaries keeps the next boundary rather than skipping it; WidgetKit honours it as soon
    /// as its minimum spacing allows. Other designs ask `policyDelay` later. WidgetKit runs the
    /// reload a random lateness after that date (`late(_:)`); a reload the calendar's hours
    /// move to an opening runs there.
    @inline(__always) package mutating func policyTime(after t: Double) -> Double {
        let due = honouredPolicyTime(after: t)
        policyDueTime = due
        guard followsHours, due < .infinity else { return late(due) }
        let at = utc(due)
        let open = workspace.nextOpen(utc: at, hours: hourSet)
        guard open != at else { return late(due) }
        // Moved to an opening: every device asks for it, each at its own delay after it, and
        // WidgetKit runs it a lateness later as any other.
        policyDueTime = open + openingPhase + utcOffset
        return late(policyDueTime)
    }

    /// When WidgetKit runs a policy reload dated `due`: an exponential lateness after it, of
    /// mean `policyLatenessSeconds` (Apple: the date is the earliest WidgetKit asks).
    @inline(__always) mutating func late(_ due: Double) -> Double {
        constants.policyLatenessSeconds > 0 ? drawnLateness(after: due) : due
    }

    /// `due` plus a lateness drawn for it (out of line, so that a scenario without lateness
    /// carries none of its code in the event loop).
    @inline(never) mutating func drawnLateness(after due: Double) -> Double {
        guard due < .infinity else { return due }
        return due + constants.policyLatenessSeconds * random.policyLateness.exponential(exponentialTables)
    }

    /// The date the policy asks for, before the calendar's hours move it.
    @inline(__always) mutating func honouredPolicyTime(after t: Double) -> Double {
        if constants.policyNever { return .infinity }
        guard constants.aligned else { return afterIdle(aligned(t + constants.policyDelay)) }
        let period = constants.alignPeriod
        // The first boundary after t, or after t + delay − period for a delay longer than the period.
        let from = t + Swift.max(constants.policyDelay - period, 0)
        let index = UserSimulator.floor((from - wallClockPhase) / period)
        let boundary = (index + 1) * period + wallClockPhase
        // The boundary used is the predicted one, which is `boundary` itself (checked just
        // below); only its check waits for the division (see `predictedBoundary(from:)`).
        var predicted = predictedBoundary(from: from)
        if predicted != boundary { predicted = expectBoundary(index: index) }
        return afterIdle(max(predicted, t + constants.minReloadSpacing))
    }

    /// `time`, or the end of the night when the phone is idle at `time`: WidgetKit honours a
    /// timeline's reload date when the device is next in use, not while it lies idle overnight
    /// (Apple's "Keeping a widget up to date": the date is the earliest WidgetKit asks).
    @inline(__always) func afterIdle(_ time: Double) -> Double {
        let sinceIdle = time - idleStart
        let into = sinceIdle - UserSimulator.floor(sinceIdle * (1 / Double.secondsPerDay)) * .secondsPerDay
        // (`into` can come out a hair below 0 at the night's very start: still the night.)
        return idleLength > 0 && into < idleLength ? time - into + idleLength : time
    }

    /// The boundary an aligned timeline built at `from` (after any delay beyond the period) is
    /// expected to ask for: the one expected so far or, from it on, the one after (which it then
    /// expects from now on).
    ///
    /// It exists for speed. The exact boundary takes a division, a floor and a multiplication,
    /// some 50 cycles from the timeline's time, and the event loop's next choice between the
    /// widget's next event and the policy reload waits for it: that choice flips at every
    /// reload, and each time it is mispredicted the processor stalls until the boundary is
    /// known. The prediction is a comparison and a selection, a few cycles. `policyTime(after:)`
    /// still computes the exact boundary, but only to check the prediction, which is right
    /// except after a gap of more than a period (or a rounding at a boundary's very edge); the
    /// check is predicted to pass, so the processor goes on without waiting for it.
    @inline(__always) private mutating func predictedBoundary(from: Double) -> Double {
        guard from >= expectedBoundary else { return expectedBoundary }
        expectedBoundaryIndex += 1
        expectedBoundary = boundaryAfterExpected
        boundaryAfterExpected = (expectedBoundaryIndex + 1 + 1) * constants.alignPeriod + wallClockPhase
        return expectedBoundary
    }

    /// Expects the aligned boundary of index `index` (the floor of (from − phase) ÷ period) from
    /// now on, and returns it: (index + 1) × period + phase, computed as `policyTime(after:)`
    /// does. Out of line, as a wrong prediction is rare.
    @inline(never) private mutating func expectBoundary(index: Double) -> Double {
        let period = constants.alignPeriod
        expectedBoundaryIndex = index
        expectedBoundary = (index + 1) * period + wallClockPhase
        boundaryAfterExpected = (index + 1 + 1) * period + wallClockPhase
        return expectedBoundary
    }

    /// Applies wall-clock alignment and jitter to a requested time.
    ///
    /// Aligned designs ask at the next boundary (:00, :15, ...) shifted by this device's fixed
    /// phase (0 ... jitter), so jitter spreads devices without stretching the period; unaligned
    /// designs add a fresh random delay to each request.
    @inline(__always) mutating func aligned(_ time: Double) -> Double {
        if constants.aligned {
            let period = constants.alignPeriod
            return UserSimulator.ceil((time - wallClockPhase) / period) * period + wallClockPhase
        }
        if constants.jitterSeconds > 0 { return time + random.reloadJitter.uniform() * constants.jitterSeconds }
        return time
    }

    /// `x.rounded(.up)` without a libm call (the baseline x86-64 target has no `roundsd`) and
    /// without the range checks of a conversion to `Int`; exact for |x| < 2⁵¹, which every time
    /// in a simulated window is.
    @inline(__always) package static func ceil(_ x: Double) -> Double {
        let nearest = nearestInteger(x)
        return nearest < x ? nearest + 1 : nearest
    }

    /// `x.rounded(.down)`, likewise.
    @inline(__always) static func floor(_ x: Double) -> Double {
        let nearest = nearestInteger(x)
        return nearest > x ? nearest - 1 : nearest
    }

    /// `x` rounded to the nearest integer (ties to even) for |x| < 2⁵¹: adding 1.5 × 2⁵² leaves
    /// no bits below the units, so the addition itself rounds.
    @inline(__always) static func nearestInteger(_ x: Double) -> Double {
        (x + 0x1.8p52) - 0x1.8p52
    }

    mutating func reloadCall(at t: Double) {
        if counted(t) { tally.reloadCalls += 1 }
        observer.record(.reloadCall, local: t, utc: utc(t))
        for i in 0..<instances { getTimeline(i, at: t, origin: .reloadCall) }
    }
}
