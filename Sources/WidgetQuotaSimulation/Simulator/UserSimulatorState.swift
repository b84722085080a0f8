import Foundation
import WidgetQuotaSupport

/// One user's random streams, one per source of events, keyed by (seed, run, user, source) and
/// never by design: two designs see the same user behave the same way.
struct UserRandomStreams {
    var appOpen: RandomStream
    var backgroundLaunch: RandomStream
    var push: RandomStream
    /// Which instance a system getTimeline call goes to (users with several widgets).
    var instance: RandomStream
    var apiOutcome: RandomStream
    var reloadJitter: RandomStream
    var pushDelivery: RandomStream
    var backendLag: RandomStream
    /// How late WidgetKit runs each policy reload.
    var policyLateness: RandomStream

    init(seed: UInt64, run: UInt64, user: UInt64) {
        appOpen = RandomStream(seed: seed, .appOpens, run, user)
        backgroundLaunch = RandomStream(seed: seed, .backgroundRuns, run, user)
        push = RandomStream(seed: seed, .pushes, run, user)
        instance = RandomStream(seed: seed, .instances, run, user)
        apiOutcome = RandomStream(seed: seed, .apiOutcomes, run, user)
        reloadJitter = RandomStream(seed: seed, .reloadPolicy, run, user)
        pushDelivery = RandomStream(seed: seed, .pushDelivery, run, user)
        backendLag = RandomStream(seed: seed, .backendLag, run, user)
        policyLateness = RandomStream(seed: seed, .policyLateness, run, user)
    }
}

/// The rare sources of events, whose earliest time the simulator keeps in
/// `EventSchedule.rareEvent`; `stop` is where `advance(until:)` stops.
enum RareEventSource { case midnight, close, background, push, retry, budget, stop }

/// When each source of a user's events comes next: local seconds (+infinity: never), and for the
/// widget an index into its events. `widget` and `appOpen` are kept in locals while
/// `advance(until:)` runs and are current only between its calls.
struct EventSchedule {
    /// The next of the widget's own events (an index into the user's `WidgetStream`).
    var widget = 0
    var appOpen = Double.infinity
    var midnight = Double.secondsPerDay
    var appClose = Double.infinity
    var backgroundLaunch = Double.infinity
    var push = Double.infinity
    var budgetRenewal = 0.0
    /// The retry of a failed fetch.
    var retry = Double.infinity
    /// Where `advance(until:)` stops (+infinity: at the window's end).
    var stop = Double.infinity
    /// Earliest of the rare sources (`midnight`, `appClose`, `backgroundLaunch`, `push`,
    /// `budgetRenewal`, `retry`) and `stop`, and which one.
    var rareEvent = 0.0
    var rareSource = RareEventSource.midnight
    /// Earliest policy reload over the instances, and its instance (lowest index on ties).
    var policyReload = Double.infinity
    var policyReloadInstance = 0
}

/// Each widget instance's state, as arrays indexed by instance in memory that a
/// `SimulationWorkspace` allocates once and reuses for every user of a task.
struct InstanceState {
    /// Reloads spent from today's budget.
    let budgetUsed: UnsafeMutablePointer<Int>
    /// True once today's budget ran out (recorded once a day).
    let exhausted: UnsafeMutablePointer<Bool>
    /// A reload asked for while the budget was out, run when it renews.
    let queued: UnsafeMutablePointer<Bool>
    /// When WidgetKit runs the instance's next policy reload (its date plus the lateness).
    let nextPolicy: UnsafeMutablePointer<Double>
    /// The date the instance's timeline policy asks for: from it on, the reload is due and the
    /// widget coming into view runs it.
    let policyDue: UnsafeMutablePointer<Double>
    /// Content time shown by each instance; -inf = placeholder.
    let displayedContent: UnsafeMutablePointer<Double>
    /// True when the instance shows an error.
    let displayedError: UnsafeMutablePointer<Bool>

    static func allocate(capacity: Int) -> InstanceState {
        InstanceState(
            budgetUsed: .allocate(capacity: capacity), exhausted: .allocate(capacity: capacity), queued: .allocate(capacity: capacity),
            nextPolicy: .allocate(capacity: capacity), policyDue: .allocate(capacity: capacity),
            displayedContent: .allocate(capacity: capacity),
            displayedError: .allocate(capacity: capacity))
    }

    func deallocate() {
        budgetUsed.deallocate()
        exhausted.deallocate()
        queued.deallocate()
        nextPolicy.deallocate()
        policyDue.deallocate()
        displayedContent.deallocate()
        displayedError.deallocate()
    }

    /// The first `count` instances as a new widget leaves them: nothing spent, nothing shown.
    func reset(count: Int) {
        for i in 0..<count {
            budgetUsed[i] = 0
            exhausted[i] = false
            queued[i] = false
            nextPolicy[i] = .infinity
            policyDue[i] = .infinity
            displayedContent[i] = -.infinity
            displayedError[i] = false
        }
    }

    /// Copies the first `count` instances' state into `other`.
    func copy(to other: InstanceState, count: Int) {
        other.budgetUsed.update(from: budgetUsed, count: count)
        other.exhausted.update(from: exhausted, count: count)
        other.queued.update(from: queued, count: count)
        other.nextPolicy.update(from: nextPolicy, count: count)
        other.policyDue.update(from: policyDue, count: count)
        other.displayedContent.update(from: displayedContent, count: count)
        other.displayedError.update(from: displayedError, count: count)
    }
}

/// What the engine collects from a simulated user, in memory the engine owns (nil: not
/// collected), and the running peaks it carries from user to user.
package struct UserLoadCollectors {
    /// Per-minute request counts of the counted UTC window.
    package var buckets: UnsafeMutablePointer<Int32>?
    /// The same counts for half of the users only (set for odd users), from which the projection
    /// measures the sample's own noise.
    var halfBuckets: UnsafeMutablePointer<Int32>?
    /// Requests per complete quota day.
    var quotaDays: UnsafeMutablePointer<Int64>?
    /// Requests per UTC clock hour of the counted window (collected when a tier has an hourly limit).
    var hours: UnsafeMutablePointer<Int64>?
    /// Content-age histogram at glances (`AgeHistogram.binCount` bins), then the same for the
    /// glances in the calendar's open hours.
    var ages: UnsafeMutablePointer<Int64>?
    /// Running peaks of the population simulated so far.
    package var peakPerMinute: Int32 = 0
    var peakQuotaDay: Int64 = 0
    var peakPerHour: Int64 = 0
    /// Per-minute requests of broadcast fetches, set while one runs (nil otherwise).
    var broadcastBuckets: UnsafeMutablePointer<Int32>?
    /// Where `broadcastBuckets` points during a broadcast fetch.
    package var broadcastBucketsOfTask: UnsafeMutablePointer<Int32>?

    package init() {}

    /// Stops adding to the engine's per-minute, per-quota-day and age counts (a copy of the
    /// user that runs on its own, such as the calm run without outages).
    mutating func stopCounting() {
        buckets = nil
        halfBuckets = nil
        quotaDays = nil
        hours = nil
        ages = nil
    }
}
