import Foundation
import WidgetQuotaModel
import WidgetQuotaSupport

/// What one user sees during live events (a match of the key they follow): their widget, or the
/// Live Activity of a design that has one, and whether it shows the key's latest change.
///
/// A Live Activity starts with the event's window for `LiveActivity.startShare` of the users and
/// ends at the window's end or after `platform.liveActivityMaxHours`. It starts with the key's
/// data of that moment; each later change of the key in it is an ActivityKit push. At priority 10
/// a push arrives within the key's delivery window while the activity's hourly budget (a token
/// bucket, full at the start) lasts; beyond it the system throttles the push and the activity
/// waits for the next one, which carries the whole state. At priority 5 a push spends nothing
/// and arrives after an exponential delay. Nothing here depends on the app: an activity is
/// updated when the user force-quit the app or it never runs in the background.
///
/// Times are UTC seconds of the simulation, as `SimulationModel.keyChanges`.
struct LiveEventView {
    /// The live events' windows, ascending, and the first that has not ended at the last glance.
    let windows: [(start: Double, end: Double)]
    var window = 0
    /// The user's key's changes, ascending, and the count of those at least
    /// `UserTally.outdatedGraceSeconds` before the last glance.
    let changes: [Double]
    var changesSeen = 0
    /// The user's activities (start, end), ascending, and the first that has not ended at the last glance.
    private(set) var activities: [(start: Double, end: Double)] = []
    var activity = 0
    /// Pushes that reached the device: arrival and the change each carries, by arrival.
    private(set) var arrivals: [(arrival: Double, change: Double)] = []
    var arrived = 0
    /// The latest change the arrived pushes carried.
    var latestArrived = -Double.infinity
    /// Per activity: pushes sent to this device, and pushes the budget throttled.
    private(set) var pushesSent: [Int] = []
    private(set) var pushesThrottled: [Int] = []

    /// The view of a user of key changes `changes` in the live events `windows`; with
    /// `activity`, the user's activities (whether each event starts one, drawn from `starts`),
    /// their pushes and arrivals (delays drawn from `delays`).
    init(
        windows: [(start: Double, end: Double)], changes: [Double], activity: LiveActivity?, maxHours: Double,
        budgetPerHour: Double, lowPriorityDelaySeconds: Double, deliveryWindowSeconds: Double, starts: inout RandomStream,
        delays random: inout RandomStream
    ) {
        self.windows = windows
        self.changes = changes
        guard let activity else { return }
        var next = 0
        for w in windows {
            // One draw per event from a stream of its own, so which events a user follows does
            // not depend on the budget, the priority or the events before.
            guard starts.uniform() < activity.startShare else { continue }
            let end = Swift.min(w.end, w.start + maxHours * .secondsPerHour)
            activities.append((w.start, end))
            var sent = 0
            var throttled = 0
            var tokens = budgetPerHour
            var tokensAt = w.start
            while next < changes.count && changes[next] <= w.start { next += 1 }
            var c = next
            while c < changes.count && changes[c] <= end {
                let change = changes[c]
                c += 1
                sent += 1
                if activity.spendsBudget {
                    tokens = Swift.min(budgetPerHour, tokens + (change - tokensAt) * budgetPerHour / .secondsPerHour)
                    tokensAt = change
                    guard tokens >= 1 else {
                        throttled += 1
                        continue
                    }
                    tokens -= 1
                    arrivals.append((change + deliveryWindowSeconds * random.uniform(), change))
                } else {
                    arrivals.append((change + lowPriorityDelaySeconds * random.exponential(), change))
                }
            }
            pushesSent.append(sent)
            pushesThrottled.append(throttled)
        }
        arrivals.sort { ($0.arrival, $0.change) < ($1.arrival, $1.change) }
    }

    /// What a glance at UTC `u` sees, when it falls in a live event: whether the user looks at an
    /// activity, and whether what they see misses a change made at least
    /// `UserTally.outdatedGraceSeconds` before; nil
    /// outside the events. `widgetState` is the UTC time of the widget's content (-infinity: none).
    mutating func glance(utc u: Double, widgetState: Double) -> (activity: Bool, behind: Bool)? {
        while window < windows.count && windows[window].end <= u { window += 1 }
        guard window < windows.count, windows[window].start <= u else { return nil }
        while changesSeen < changes.count && changes[changesSeen] <= u - UserTally.outdatedGraceSeconds { changesSeen += 1 }
        let latest = changesSeen > 0 ? changes[changesSeen - 1] : -Double.infinity
        while activity < activities.count && activities[activity].end <= u { activity += 1 }
        let inActivity = activity < activities.count && activities[activity].start <= u
        guard inActivity else { return (false, latest > widgetState) }
        while arrived < arrivals.count && arrivals[arrived].arrival <= u {
            latestArrived = Swift.max(latestArrived, arrivals[arrived].change)
            arrived += 1
        }
        let shown = Swift.max(activities[activity].start, latestArrived)
        return (true, latest > shown)
    }

    /// The activities that start in UTC [`from`, `to`): how many, their pushes and those throttled.
    func activityCounts(from: Double, to: Double) -> (activities: Int, pushes: Int, throttled: Int) {
        var counts = (activities: 0, pushes: 0, throttled: 0)
        for (i, a) in activities.enumerated() where a.start >= from && a.start < to {
            counts.activities += 1
            counts.pushes += pushesSent[i]
            counts.throttled += pushesThrottled[i]
        }
        return counts
    }
}
