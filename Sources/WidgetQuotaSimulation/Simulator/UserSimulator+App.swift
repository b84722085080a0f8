import Foundation
import WidgetQuotaModel
import WidgetQuotaSupport

/// The user's side: the app coming to the foreground, and glances at the widget (what they see, and how stale).
extension UserSimulator {
    /// The app opens at `now`; returns the next open.
    @inline(__always) mutating func appOpen(at now: Double) -> Double {
        let alreadyOpen = now < foregroundUntil
        // A new session, or the open one goes on. Set before the app's own work, so a
        // reload it asks for after its fetch (seconds later) is exempt from the budget.
        foregroundUntil = now + constants.foregroundSeconds
        schedule.appClose = foregroundUntil
        if !alreadyOpen { appForeground(at: now) }
        let next = appClock.next(&random.appOpen, exponentialTables)
        updateRare()
        return next
    }

    mutating func appForeground(at t: Double) {
        if counted(t) { tally.appOpens += 1 }
        observer.record(.appForeground, local: t, utc: utc(t))
        if constants.fetchOnForeground {
            if isStale(t) {
                _ = fetch(at: t, actor: .app)
            } else {
                observer.record(.cacheHit(instance: nil), local: t, utc: utc(t))
            }
        }
        if constants.reloadCalls == .everyForeground { reloadCall(at: t) }
    }

    @inline(__always) func isStale(_ t: Double) -> Bool {
        !constants.hasTTL || t - contentTime > constants.ttl
    }

    /// A glance reads what instance 0 shows. Its counts are added as 0/1 flags rather than
    /// behind branches: whether a glance finds stale content is a coin flip the branch predictor
    /// cannot learn, and glances are a quarter of all events.
    @inline(__always) mutating func glance(at t: Double) {
        let shownContent = instanceState.displayedContent[0]
        let isError = instanceState.displayedError[0] || shownContent == -.infinity
        let shown = t - shownContent
        observer.record(.glance(ageSeconds: isError ? nil : shown, error: isError), local: t, utc: utc(t))
        guard counted(t) else { return }
        let error = Int64(isError ? 1 : 0)
        let outage = Int64(inOutage(t) ? 1 : 0)
        let stale = (1 - error) & Int64(shown > constants.staleThreshold ? 1 : 0)
        tally.glances &+= 1
        tally.outageGlances &+= outage
        tally.errorGlances &+= error
        tally.outageErrorGlances &+= error & outage
        let overTarget = error | Int64(shown > constants.freshnessTargetSeconds ? 1 : 0)
        let open = Int64(workspace.isOpen(utc: utc(t), hours: hourSet) ? 1 : 0)
        tally.overTargetGlances &+= overTarget
        tally.staleGlances &+= stale
        tally.openGlances &+= open
        tally.openStaleGlances &+= stale & open
        tally.openOverTargetGlances &+= overTarget & open
        tally.outageStaleGlances &+= stale & outage
        let outdated = isError ? UserTally.outdatedScale : outdatedWeight(content: shownContent, at: t)
        tally.outdatedGlances &+= outdated
        tally.openOutdatedGlances &+= outdated * open
        if let ages = collected.ages, !isError {
            let bin = AgeHistogram.index(ageSeconds: shown)
            ages[bin] &+= 1
            ages[AgeHistogram.binCount &+ bin] &+= open
        }
        if liveEvents != nil { liveEventGlance(at: t, widgetState: isError ? -.infinity : utc(shownContent)) }
    }

    /// How surely newer data had replaced content of local time `content` at a glance at `t`, in
    /// `UserTally.outdatedScale` units: a change at least `UserTally.outdatedGraceSeconds` before
    /// the glance and after the content's time.
    @inline(__always) mutating func outdatedWeight(content: Double, at t: Double) -> Int64 {
        let cutoff = t - UserTally.outdatedGraceSeconds
        switch outdatedSource {
        case .keyChanges:
            let u = utc(cutoff)
            while userKeyChangesSeen < userKeyChanges.count && userKeyChanges[userKeyChangesSeen] <= u { userKeyChangesSeen += 1 }
            let latest = userKeyChangesSeen > 0 ? userKeyChanges[userKeyChangesSeen - 1] : -Double.infinity
            return latest > utc(content) ? UserTally.outdatedScale : 0
        case .ownChanges:
            // Two changes within the last minute leave the one before them unknown: rare, and
            // counted as none.
            let latest = lastOwnChange <= cutoff ? lastOwnChange : previousOwnChange <= cutoff ? previousOwnChange : -.infinity
            return latest > content ? UserTally.outdatedScale : 0
        case .expected:
            let chance: Double
            if let changeCurve {
                chance = changeCurve.chanceOfChange(from: utc(content), to: utc(cutoff), scale: keysChangeScale)
            } else if !groupChangeCurves.isEmpty {
                chance = groupedChanceOfChange(from: utc(content), to: utc(cutoff))
            } else {
                return 0
            }
            // The chance is at least 0: truncation after adding a half rounds.
            return Int64(chance * Double(UserTally.outdatedScale) + 0.5)
        }
    }

    /// The chance that one of the user's keys changed in UTC seconds (`from`, `to`]: each key
    /// group's curve times the keys the user follows in it.
    private func groupedChanceOfChange(from: Double, to: Double) -> Double {
        guard to > from else { return 0 }
        var expected = 0.0
        for (g, curve) in groupChangeCurves.enumerated() where keysByGroup[g] > 0 {
            expected += keysByGroup[g] * curve.expectedChanges(from: from, to: to)
        }
        return ChangeCurve.chanceOfAny(expected: expected)
    }

    /// Counts a glance at `t` that falls in a live event: at the widget or the Live Activity, and
    /// whether it missed the key's latest change.
    private mutating func liveEventGlance(at t: Double, widgetState: Double) {
        let u = utc(t)
        guard let seen = liveEvents?.glance(utc: u, widgetState: widgetState) else { return }
        let behind = Int64(seen.behind ? 1 : 0)
        tally.liveEventGlances += 1
        tally.liveEventBehindGlances += behind
        if seen.activity {
            tally.activityGlances += 1
            tally.activityBehindGlances += behind
        }
    }
}
