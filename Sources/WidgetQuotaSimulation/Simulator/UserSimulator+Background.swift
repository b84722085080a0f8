import Foundation
import WidgetQuotaModel
import WidgetQuotaSupport

/// BGAppRefreshTask: submitting a request, when iOS grants it, and the launch.
extension UserSimulator {
    mutating func submitBackground(at t: Double) {
        guard constants.fetchOnBackground else { return }
        if counted(t) { tally.bgSubmits += 1 }
        // The Gemini widget report: submitting while an identical request is queued fails, which is not fatal.
        observer.record(.bgTaskSubmit(accepted: !backgroundPending), local: t, utc: utc(t))
        guard !backgroundPending else { return }
        backgroundPending = true
        schedule.backgroundLaunch = scheduleBackground(from: t)
    }

    /// When iOS launches a task submitted at `t`: not before the earliest begin date, then at a
    /// rate that gives the run's launches per day, following the background profile, none or
    /// almost none in Low Power Mode.
    mutating func scheduleBackground(from t: Double) -> Double {
        let earliest = aligned(t + constants.backgroundIntervalSeconds)
        return backgroundClock.next(after: earliest, &random.backgroundLaunch, exponentialTables)
    }

    mutating func backgroundLaunch(at t: Double) {
        if counted(t) { tally.bgLaunches += 1 }
        observer.record(.bgTaskLaunch, local: t, utc: utc(t))
        backgroundDeadline = t + constants.taskSliceSeconds
        var success = true
        var end = t
        if constants.fetchOnBackground {
            if isStale(t) {
                success = fetch(at: t, actor: .background)
                end = lastFetchEnd
                // A retry within the slice keeps the task running; it completes after the last attempt.
                if schedule.retry != .infinity && retryActor == .background { return }
            } else {
                observer.record(.cacheHit(instance: nil), local: t, utc: utc(t))
            }
        }
        observer.record(.bgTaskComplete(success: success), local: end, utc: utc(end))
    }
}
