import Foundation
import WidgetQuotaModel
import WidgetQuotaSupport

/// The fast path of `advance(until:)`: runs of the widget's events and policy reloads between
/// the rarer events, with the budget and the policy reload kept in locals.
extension UserSimulator {
    /// `advanceInWidgetRuns(fetching:)` for a widget that reads the cache only, and for one
    /// that fetches in getTimeline: each out of line, with `fetching` a constant, so that each
    /// is compiled as if the other did not exist (and the general loop as if neither did).
    @inline(never) mutating func advanceInReadingWidgetRuns() { advanceInWidgetRuns(fetching: false) }
    @inline(never) mutating func advanceInFetchingWidgetRuns() { advanceInWidgetRuns(fetching: true) }

    /// `advance(until:)` when `usesWidgetRuns` holds: before each rare event or app open,
    /// `widgetRun` handles the widget's events and the policy reloads that come earlier. After
    /// it, no widget event or policy reload comes before that event, and one at the same time
    /// comes after it (ties go to the rare sources, then app opens, then policy reloads).
    ///
    /// A fetch in a run may move the next rare event: a retry, earlier, or one that replaces a
    /// pending retry, perhaps later. The run then stops at the earlier of the two, and the next
    /// run goes on to the new one if that is later.
    @inline(__always) mutating func advanceInWidgetRuns(fetching: Bool) {
        var widgetIndex = self.schedule.widget
        var appOpenTime = self.schedule.appOpen
        while true {
            let now = min(schedule.rareEvent, appOpenTime)
            widgetIndex = widgetRun(from: widgetIndex, before: now, fetching: fetching)
            if fetching && min(schedule.rareEvent, appOpenTime) != now { continue }
            if now >= endLocal { break }
            if schedule.rareEvent == now {
                if schedule.rareSource == .stop { break }
                rareEvent(at: now)
            } else {
                appOpenTime = appOpen(at: now)
            }
        }
        self.schedule.widget = widgetIndex
        self.schedule.appOpen = appOpenTime
    }

    /// Handles the widget's events (from index `first`) and the policy reloads that come before
    /// `end`, the next rare event or app open, or before a retry that a fetch of the run
    /// schedules, and returns the index of the next widget event (`advanceInWidgetRuns`).
    ///
    /// It exists for speed. With one instance, the general path's work per event (re-deriving
    /// the next other event, choosing the instance, `updatePolicy()`) reduces to a choice
    /// between the widget's next event and the policy reload, with the budget, the policy
    /// reload and its due date in locals. A widget that reads the cache only (`fetching` false)
    /// moves no other source, and its content stays in a local too. A widget that fetches moves
    /// no other source but the retry, which the run then stops before. The policy reload's
    /// lateness is drawn by `policyTime(after:)` in both paths, in the same order.
    ///
    /// It must match `advance(until:)`'s widget and policy-reload branches with `getTimeline`
    /// and `glance` exactly: events in the same order (a policy reload before a widget event at
    /// its time, nothing at or after the window's end), the same state, tallies, random draws
    /// and observer records. The budget decision and the timeline it builds are
    /// `getTimeline`'s own (`spendReload`, `buildTimeline`, `policyTime`); one instance needs
    /// no instance draw.
    @inline(__always) mutating func widgetRun(from first: Int, before end: Double, fetching: Bool) -> Int {
        let times = widget.times
        var policy = instanceState.nextPolicy[0]
        var due = instanceState.policyDue[0]
        // A third of the runs are empty: nothing else to read or write back for them.
        guard min(times[first], policy) < end else { return first }
        let kinds = widget.kinds
        let exemptUntil = constants.foregroundReloadsExempt ? foregroundUntil : -.infinity
        let cachedContent = contentTime  // what a widget that only reads the cache shows
        // A run lies within one local day: it ends at the next midnight (a rare event) at the
        // latest, and nothing before the last midnight is left. The counted window is whole
        // days, so the run is counted or not as a whole.
        let isCounted = counted(schedule.midnight - .secondsPerDay)
        var bound = end
        var k = first
        var used = instanceState.budgetUsed[0]
        var getTimelines: Int64 = 0
        var dropped: Int64 = 0
        while true {
            let t = times[k]
            let isWidget = t < policy
            let now = isWidget ? t : policy
            guard now < bound else { break }
            var origin = TimelineOrigin.policy
            var exempt = now < exemptUntil
            if isWidget {
                k += 1
                let kind = kinds[k - 1]
                if kind == .glance {
                    glance(at: t)
                    continue
                }
                if kind == .getTimeline {
                    origin = .system
                } else if kind == .rotation {
                    // Coming into view runs a due policy reload (`policy` is later than t).
                    guard due <= t else { continue }
                    policy = .infinity
                } else {
                    guard constants.interactive else { continue }
                    tapRequests(at: t, instance: 0)
                    origin = .tap
                    exempt = true
                }
            } else {
                guard now < endLocal else { break }
                policy = .infinity
            }
            guard spendReload(0, at: now, origin: origin, exempt: exempt, used: &used) else {
                dropped &+= 1
                // A refused reload that was asked for waits for the renewal (`spendReload`).
                if origin != .system { due = .infinity }
                continue
            }
            getTimelines &+= 1
            observer.record(.getTimeline(instance: 0, origin: origin, budgetExempt: exempt), local: now, utc: utc(now))
            // A failed fetch may have scheduled a retry.
            if buildTimeline(0, at: now, fetching: fetching, cachedContent: cachedContent) { bound = min(bound, schedule.rareEvent) }
            policy = policyTime(after: now)
            due = policyDueTime
        }
        instanceState.nextPolicy[0] = policy
        instanceState.policyDue[0] = due
        schedule.policyReload = policy
        instanceState.budgetUsed[0] = used
        if isCounted {
            tally.getTimelines += getTimelines
            tally.droppedReloads += dropped
        }
        return k
    }
}
