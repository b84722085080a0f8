import Foundation
import WidgetQuotaModel
import WidgetQuotaSupport

/// Simulates one user's days as events in time: getTimeline calls, app opens, background runs,
/// pushes, glances, fetches and reload calls, honouring the reload budget, the cache TTL,
/// Low Power Mode, Smart Stack and the foreground exemption.
///
/// Times are seconds in the user's local clock since the start of the simulated window;
/// UTC = local − offset. Each source of events has its own random stream, keyed by
/// (seed, run, user, source) and never by design, so two designs see the same user behave the
/// same way, and a design's results do not depend on which other designs are simulated with it.
///
/// The loop is written for speed: the design is resolved to scalars (`SimulationConstants`),
/// per-instance state and day tables live in a reusable `SimulationWorkspace`, the widget's own
/// activity (system getTimeline calls and glances, most of all events) is generated up front as
/// one stream (`WidgetStream`), and every other source keeps its earliest time cached, so the
/// common step is one comparison against that time and one against the kind of widget event.
package struct UserSimulator<Observer: SimulationObserver> {
    package let traits: UserTraits
    package var observer: Observer
    package private(set) var constants: SimulationConstants
    let workspace: SimulationWorkspace
    private let exponentialTables: ExponentialTables

    // Random streams, one per source.
    var appOpenRandom: RandomStream
    var backgroundLaunchRandom: RandomStream
    var pushRandom: RandomStream
    /// Which instance a system getTimeline call goes to (users with several widgets).
    var instanceRandom: RandomStream
    var apiOutcomeRandom: RandomStream
    var reloadJitterRandom: RandomStream

    /// System getTimeline calls and glances of the whole window, in time order.
    let widget: WidgetStream
    // Clocks of the other sources.
    var appClock: PoissonClock
    var pushClock: PoissonClock
    /// Launch process of BGAppRefreshTask once its earliest begin date has passed.
    var backgroundClock: PoissonClock

    // Per-instance state (in the workspace, or in another one for a copy that goes its own way).
    private let instances: Int
    private var budgetUsed: UnsafeMutablePointer<Int>
    private var exhausted: UnsafeMutablePointer<Bool>
    private var queued: UnsafeMutablePointer<Bool>
    private var nextPolicy: UnsafeMutablePointer<Double>
    /// Content time shown by each instance; -inf = placeholder.
    private var displayedContent: UnsafeMutablePointer<Double>
    private var displayedError: UnsafeMutablePointer<Bool>
    /// Whether each local day is spent in Low Power Mode, and its getTimeline multiplier (days + 1 entries).
    private let lowPowerDays: UnsafePointer<Bool>
    private let dayFactors: UnsafePointer<Double>

    // State.
    var contentTime = -Double.infinity
    var foregroundUntil = -Double.infinity
    var backgroundPending = false
    var retryAttempt = 0
    var nextRetry = Double.infinity
    /// This device's fixed offset from the wall-clock boundaries (aligned designs with jitter).
    package let wallClockPhase: Double
    /// When in its day this device's reload budget renews.
    let budgetRenewalPhase: Double
    var retryActor = RequestActor.app
    /// The widget instance whose getTimeline a widget-extension retry completes.
    var retryInstance = 0
    /// End of the running background task's slice, of the time a push wakes the app for, and
    /// of the time the extension's getTimeline has (the same allowance as a task's slice).
    var backgroundDeadline = -Double.infinity
    var pushDeadline = -Double.infinity
    var extensionDeadline = -Double.infinity
    /// When the last fetch ended (its last response, or the slice's end).
    var lastFetchEnd = 0.0
    private let utcOffset: Double

    // Next event times.
    /// The next of the widget's own events (an index into `widget`).
    private var nextWidget = 0
    private var nextAppOpen = Double.infinity
    private var nextMidnight = Double.secondsPerDay
    private var nextAppClose = Double.infinity
    private var nextBackgroundLaunch = Double.infinity
    private var nextPush = Double.infinity
    private var nextBudgetRenewal = 0.0
    /// Where `advance(until:)` stops (+infinity: at the window's end).
    private var stopTime = Double.infinity
    /// Earliest of the rare sources above, `nextRetry` and `stopTime`, and which one (see `Source`).
    private var nextRareEvent = 0.0
    private var nextRareSource = Source.midnight
    /// Earliest policy reload over the instances, and its instance (lowest index on ties).
    private var nextPolicyReload = Double.infinity
    private var nextPolicyReloadInstance = 0
    /// Aligned designs: the boundary `policyTime(after:)` expects to find (its index k, the
    /// floor of (from − phase) ÷ period, and the boundary (k + 1) × period + phase) and the
    /// boundary after it (`predictedBoundary(from:)`). +infinity until the first timeline.
    private var expectedBoundaryIndex = 0.0
    private var expectedBoundary = Double.infinity
    private var boundaryAfterExpected = Double.infinity

    private enum Source { case midnight, close, background, push, retry, budget, stop }

    /// Whether `advance(until:)` hands the widget's events and the policy reloads between two
    /// other events to `widgetRun(from:before:fetching:)` (see there): the user has one
    /// instance, and the policy reload is never, or draws nothing: aligned or a fixed delay
    /// without jitter for a widget that fetches, a fixed delay without jitter for one that
    /// reads the cache only. Tests turn it off to hold the two paths to each other.
    package var usesWidgetRuns: Bool

    package var tally = UserTally()
    package var monthRequests = 0
    let endLocal: Double

    /// Per-minute request counts of the counted UTC window, owned by the engine (nil: not collected).
    package var buckets: UnsafeMutablePointer<Int32>?
    /// The same counts for half of the users only (set for odd users), from which the projection
    /// measures the sample's own noise (nil: not collected).
    var halfBuckets: UnsafeMutablePointer<Int32>?
    /// Requests per complete quota day, owned by the engine (nil: not collected).
    var quotaDays: UnsafeMutablePointer<Int64>?
    /// Running peaks of the population simulated so far (carried from user to user by the engine).
    package var peakPerMinute: Int32 = 0
    var peakQuotaDay: Int64 = 0
    /// Content-age histogram at glances, owned by the engine (nil: not collected).
    var ages: UnsafeMutablePointer<Int64>?

    /// A simulator with its own workspace (tracing, tests).
    package init(model: borrowing SimulationModel, user: Int, observer: Observer) {
        self.init(model: model, user: user, observer: observer, workspace: SimulationWorkspace(model: copy model))
    }

    /// A simulator that uses `workspace` (made for `model`) as scratch memory and draws the
    /// user's activity into it; the engine reuses one workspace for every user of a task, one
    /// user at a time.
    package init(model: borrowing SimulationModel, user: Int, observer: Observer, workspace ws: SimulationWorkspace) {
        self.init(
            model: model, user: user, observer: observer, workspace: ws,
            activity: UserActivity(model: model, user: user, buffers: ws.activity))
    }

    /// A simulator that replays `activity`, drawn for this user under any design of `model`'s run.
    init(
        model: borrowing SimulationModel, user: Int, observer: Observer, workspace ws: SimulationWorkspace, activity: UserActivity
    ) {
        let constants = ws.constants
        self.constants = constants
        self.workspace = ws
        exponentialTables = ExponentialTables.shared
        let traits = activity.traits
        self.traits = traits
        self.observer = observer
        utcOffset = traits.utcOffsetSeconds
        let seed = model.scenario.horizon.seed
        let run = UInt64(model.run)
        let u = UInt64(user)
        appOpenRandom = RandomStream(seed: seed, .appOpens, run, u)
        backgroundLaunchRandom = RandomStream(seed: seed, .backgroundRuns, run, u)
        pushRandom = RandomStream(seed: seed, .pushes, run, u)
        instanceRandom = RandomStream(seed: seed, .instances, run, u)
        apiOutcomeRandom = RandomStream(seed: seed, .apiOutcomes, run, u)
        reloadJitterRandom = RandomStream(seed: seed, .reloadPolicy, run, u)
        var phaseRandom = RandomStream(seed: seed, .phases, run, u)
        budgetRenewalPhase = phaseRandom.uniform() * .secondsPerDay
        wallClockPhase = constants.aligned ? min(constants.jitterSeconds, constants.alignPeriod) * phaseRandom.uniform() : 0
        nextBudgetRenewal = budgetRenewalPhase

        let days = constants.simulatedDays
        let lowPower = activity.lowPower
        lowPowerDays = lowPower
        dayFactors = activity.dayFactor
        widget = activity.widget

        // The clocks of the other sources.
        let opens = max(traits.appOpensPerDay, 0)
        appClock = PoissonClock(storage: ws.clockStorage(0), days: days, shape: ws.shape(0)) { _ in opens }
        let pushes = max(constants.fetchOnPush ? constants.dataChangesPerDay : 0, 0)
        pushClock = PoissonClock(storage: ws.clockStorage(1), days: days, shape: ws.shape(3)) { _ in pushes }
        // iOS launches at a rate that gives the user's runs per day: a cycle is the earliest-begin
        // interval plus a wait, mostly at night, almost never in Low Power Mode (the Gemini widget report).
        let launches = max(
            constants.fetchOnBackground ? model.backgroundCalibration?.launchRate(runsPerDay: traits.backgroundRunsPerDay) ?? 0 : 0, 0)
        let lowPowerFactor = constants.lowPowerBackgroundFactor
        backgroundClock = PoissonClock(storage: ws.clockStorage(2), days: days, shape: ws.shape(2)) {
            lowPower[$0] ? launches * lowPowerFactor : launches
        }

        let instances = traits.instances
        self.instances = instances
        (budgetUsed, exhausted, queued, nextPolicy, displayedContent, displayedError) = Self.instanceArrays(of: ws)
        for i in 0..<instances {
            budgetUsed[i] = 0
            exhausted[i] = false
            queued[i] = false
            nextPolicy[i] = .infinity
            displayedContent[i] = -.infinity
            displayedError[i] = false
        }
        endLocal = constants.endLocal
        // The policy reload must draw nothing (an aligned one's jitter is a fixed phase); a widget
        // that only reads the cache keeps its reload in a local as a fixed delay.
        let unjittered = !(constants.jitterSeconds > 0)
        let runnablePolicy = constants.fetchOnGetTimeline ? constants.aligned || unjittered : !constants.aligned && unjittered
        usesWidgetRuns = instances == 1 && (constants.policyNever || runnablePolicy)
    }

    /// Whether each local day of the simulated window is spent in Low Power Mode.
    package var lowPower: [Bool] { Array(UnsafeBufferPointer(start: lowPowerDays, count: constants.simulatedDays + 1)) }

    /// This user's days, copied out of the activity's buffers (valid until they serve another user).
    package var calendar: UserCalendar {
        UserCalendar(
            dayFactor: Array(UnsafeBufferPointer(start: dayFactors, count: constants.simulatedDays + 1)),
            lowPower: lowPower)
    }

    // MARK: Time

    @inline(__always) func utc(_ local: Double) -> Double { local - utcOffset }
    @inline(__always) func day(_ local: Double) -> Int { Int(local / .secondsPerDay) }
    @inline(__always) func counted(_ local: Double) -> Bool {
        local >= constants.countedStartLocal && local < constants.countedEndLocal
    }

    // MARK: Run

    /// Simulates the user's whole window.
    package mutating func run() {
        begin()
        advance(until: .infinity)
        tally.users = 1
    }

    /// Simulates the user's whole window, and alongside it the same user without the scenario's
    /// outages, and returns that calm run's requests in the counted month.
    ///
    /// The two runs are the same until a request could be sent in an outage: they draw from the
    /// same random streams and nothing else reads the outages (a glance's outage counts aside,
    /// which the calm run does not keep). So the calm run starts as a copy of this one, taken
    /// a longest fetch before the first outage begins in this user's clock, with its
    /// per-instance state in `calmWorkspace` (made for this design's model); it adds to no
    /// engine counter.
    package mutating func runWithCalmCounterpart(calmWorkspace: SimulationWorkspace) -> Int {
        begin()
        advance(until: constants.outageFrom + utcOffset - constants.longestFetchSeconds)
        var calm = self
        calm.constants = constants.withoutOutages()
        calm.moveInstanceState(to: calmWorkspace)
        calm.buckets = nil
        calm.halfBuckets = nil
        calm.quotaDays = nil
        calm.ages = nil
        advance(until: .infinity)
        tally.users = 1
        calm.advance(until: .infinity)
        return calm.monthRequests
    }

    /// Copies the per-instance state into `ws` and keeps it there from now on.
    private mutating func moveInstanceState(to ws: SimulationWorkspace) {
        ws.budgetUsed.update(from: budgetUsed, count: instances)
        ws.exhausted.update(from: exhausted, count: instances)
        ws.queued.update(from: queued, count: instances)
        ws.nextPolicy.update(from: nextPolicy, count: instances)
        ws.displayedContent.update(from: displayedContent, count: instances)
        ws.displayedError.update(from: displayedError, count: instances)
        (budgetUsed, exhausted, queued, nextPolicy, displayedContent, displayedError) = Self.instanceArrays(of: ws)
    }

    /// `ws`'s per-instance arrays, in the order of the simulator's properties.
    private static func instanceArrays(of ws: SimulationWorkspace) -> (
        UnsafeMutablePointer<Int>, UnsafeMutablePointer<Bool>, UnsafeMutablePointer<Bool>,
        UnsafeMutablePointer<Double>, UnsafeMutablePointer<Double>, UnsafeMutablePointer<Bool>
    ) {
        (ws.budgetUsed, ws.exhausted, ws.queued, ws.nextPolicy, ws.displayedContent, ws.displayedError)
    }

    /// Draws the first app open and push, and submits the background request made at install.
    private mutating func begin() {
        nextAppOpen = appClock.next(&appOpenRandom, exponentialTables)
        nextPush = pushClock.next(&pushRandom, exponentialTables)
        if constants.fetchOnBackground {
            // Apps that use background refresh submitted a request at install.
            nextBackgroundLaunch = scheduleBackground(from: 0)
            backgroundPending = true
        }
        updateRare()
    }

    /// Handles events in time order until the first at or after `stop`, or the window's end;
    /// a later call goes on exactly where this one stopped.
    private mutating func advance(until stop: Double) {
        stopTime = stop
        updateRare()
        if usesWidgetRuns {
            if constants.fetchOnGetTimeline {
                advanceInFetchingWidgetRuns()
            } else {
                advanceInReadingWidgetRuns()
            }
            return
        }
        let instances = self.instances
        let times = widget.times
        let kinds = widget.kinds
        var nextWidget = self.nextWidget
        var nextAppOpen = self.nextAppOpen
        // The earliest event that is not the widget's own; the stream ends with +infinity.
        var nextOtherEvent = min(nextRareEvent, min(nextAppOpen, nextPolicyReload))

        while true {
            let t = times[nextWidget]
            if t < nextOtherEvent {
                let kind = kinds[nextWidget]
                nextWidget += 1
                if kind == .glance {
                    glance(at: t)  // only reads what is shown
                    continue
                }
                let instance = instances == 1 ? 0 : Int(instanceRandom.next() % UInt64(instances))
                getTimeline(instance, at: t, origin: .system)
                nextOtherEvent = min(nextRareEvent, min(nextAppOpen, nextPolicyReload))  // the policy reload or a retry may have moved
                continue
            }
            let now = nextOtherEvent
            if now >= endLocal { break }
            // Ties go to the rare sources, then app opens, then policy reloads (fixed times can tie).
            if nextRareEvent == now {
                if nextRareSource == .stop { break }
                rareEvent(at: now)
            } else if nextAppOpen == now {
                nextAppOpen = appOpen(at: now)
            } else {
                let i = nextPolicyReloadInstance
                nextPolicy[i] = .infinity
                updatePolicy()
                getTimeline(i, at: now, origin: .policy)
            }
            nextOtherEvent = min(nextRareEvent, min(nextAppOpen, nextPolicyReload))
        }
        self.nextWidget = nextWidget
        self.nextAppOpen = nextAppOpen
    }

    /// `advanceInWidgetRuns(fetching:)` for a widget that reads the cache only, and for one
    /// that fetches in getTimeline: each out of line, with `fetching` a constant, so that each
    /// is compiled as if the other did not exist (and the general loop as if neither did).
    @inline(never) private mutating func advanceInReadingWidgetRuns() { advanceInWidgetRuns(fetching: false) }
    @inline(never) private mutating func advanceInFetchingWidgetRuns() { advanceInWidgetRuns(fetching: true) }

    /// `advance(until:)` when `usesWidgetRuns` holds: before each rare event or app open,
    /// `widgetRun` handles the widget's events and the policy reloads that come earlier. After
    /// it, no widget event or policy reload comes before that event, and one at the same time
    /// comes after it (ties go to the rare sources, then app opens, then policy reloads).
    ///
    /// A fetch in a run may move the next rare event: a retry, earlier, or one that replaces a
    /// pending retry, perhaps later. The run then stops at the earlier of the two, and the next
    /// run goes on to the new one if that is later.
    @inline(__always) private mutating func advanceInWidgetRuns(fetching: Bool) {
        var nextWidget = self.nextWidget
        var nextAppOpen = self.nextAppOpen
        while true {
            let now = min(nextRareEvent, nextAppOpen)
            nextWidget = widgetRun(from: nextWidget, before: now, fetching: fetching)
            if fetching && min(nextRareEvent, nextAppOpen) != now { continue }
            if now >= endLocal { break }
            if nextRareEvent == now {
                if nextRareSource == .stop { break }
                rareEvent(at: now)
            } else {
                nextAppOpen = appOpen(at: now)
            }
        }
        self.nextWidget = nextWidget
        self.nextAppOpen = nextAppOpen
    }

    /// The app opens at `now`; returns the next open.
    @inline(__always) private mutating func appOpen(at now: Double) -> Double {
        let alreadyOpen = now < foregroundUntil
        // A new session, or the open one goes on. Set before the app's own work, so a
        // reload it asks for after its fetch (seconds later) is exempt from the budget.
        foregroundUntil = now + constants.foregroundSeconds
        nextAppClose = foregroundUntil
        if !alreadyOpen { appForeground(at: now) }
        let next = appClock.next(&appOpenRandom, exponentialTables)
        updateRare()
        return next
    }

    /// Handles the widget's events (from index `first`) and the policy reloads that come before
    /// `end`, the next rare event or app open, or before a retry that a fetch of the run
    /// schedules, and returns the index of the next widget event (`advanceInWidgetRuns`).
    ///
    /// It exists for speed. With one instance and a policy reload that draws nothing, the
    /// general path's work per event (re-deriving the next other event, choosing the instance,
    /// `updatePolicy()`) reduces to a choice between the widget's next event and the policy
    /// reload, with the budget and the policy reload in locals. A widget that reads the cache
    /// only (`fetching` false) moves no other source, and its content and a fixed policy delay
    /// stay in locals too. A widget that fetches moves no other source but the retry, which
    /// the run then stops before.
    ///
    /// It must match `advance(until:)`'s widget and policy-reload branches with `getTimeline`
    /// and `glance` exactly: events in the same order (a policy reload before a widget event at
    /// its time, nothing at or after the window's end), the same state, tallies, random draws
    /// and observer records. One instance needs no instance draw, and the policy reload none.
    @inline(__always) private mutating func widgetRun(from first: Int, before end: Double, fetching: Bool) -> Int {
        let times = widget.times
        var policy = nextPolicy[0]
        // A third of the runs are empty: nothing else to read or write back for them.
        guard min(times[first], policy) < end else { return first }
        let kinds = widget.kinds
        let shownContent = displayedContent
        let shownError = displayedError
        let budget = traits.budgetPerInstance
        let exemptUntil = constants.foregroundReloadsExempt ? foregroundUntil : -.infinity
        let cachedContent = contentTime  // what a widget that only reads the cache shows
        let delay = constants.policyDelay  // +infinity for a design that never asks for one
        // A run lies within one local day: it ends at the next midnight (a rare event) at the
        // latest, and nothing before the last midnight is left. The counted window is whole
        // days, so the run is counted or not as a whole.
        let isCounted = counted(nextMidnight - .secondsPerDay)
        var bound = end
        var k = first
        var used = budgetUsed[0]
        var getTimelines: Int64 = 0
        var dropped: Int64 = 0
        while true {
            let t = times[k]
            let isWidget = t < policy
            let now = isWidget ? t : policy
            guard now < bound else { break }
            if isWidget {
                k += 1
                if kinds[k - 1] == .glance {
                    glance(at: t)
                    continue
                }
            } else {
                guard now < endLocal else { break }
                policy = .infinity
            }
            let exempt = now < exemptUntil
            if !exempt {
                if used >= budget {
                    if !exhausted[0] { observer.record(.budgetExhausted(instance: 0), local: now, utc: utc(now)) }
                    exhausted[0] = true
                    dropped &+= 1
                    if !isWidget { queued[0] = true }
                    continue
                }
                used += 1
            }
            getTimelines &+= 1
            observer.record(
                .getTimeline(instance: 0, origin: isWidget ? .system : .policy, budgetExempt: exempt), local: now, utc: utc(now))
            if fetching {
                // A failed fetch may have scheduled a retry.
                if fetchOrReadCache(0, at: now) { bound = min(bound, nextRareEvent) }
                policy = policyTime(after: now)
            } else {
                let fresh = constants.hasTTL && now - cachedContent <= constants.ttl
                observer.record(fresh ? .cacheHit(instance: 0) : .cacheStale(instance: 0), local: now, utc: utc(now))
                shownContent[0] = cachedContent
                shownError[0] = false
                policy = now + delay
            }
        }
        nextPolicy[0] = policy
        nextPolicyReload = policy
        budgetUsed[0] = used
        if isCounted {
            tally.getTimelines += getTimelines
            tally.droppedReloads += dropped
        }
        return k
    }

    /// Handles the rare source that is due at `t`.
    private mutating func rareEvent(at t: Double) {
        switch nextRareSource {
        case .midnight:
            midnight(t)
            nextMidnight = t + .secondsPerDay
        case .close:
            nextAppClose = .infinity
            observer.record(.appBackground, local: t, utc: utc(t))
            if constants.fetchOnBackground { submitBackground(at: t) }
        case .background:
            backgroundPending = false
            backgroundLaunch(at: t)
            nextBackgroundLaunch = .infinity
            submitBackground(at: t)
        case .push:
            pushDeadline = t + constants.taskSliceSeconds
            _ = fetch(at: t, actor: .app)
            nextPush = pushClock.next(&pushRandom, exponentialTables)
        case .retry:
            nextRetry = .infinity
            retry(at: t)
        case .budget:
            budgetReset(t)
            nextBudgetRenewal = t + .secondsPerDay
        case .stop:
            return  // `advance(until:)` stops before it
        }
        updateRare()
    }

    /// A retry runs only while what started it still runs: the app in the foreground (or woken
    /// by a push), the background task within its slice, or the extension's getTimeline, whose
    /// timeline it completes. A background task completes after its last attempt.
    private mutating func retry(at t: Double) {
        let actor = retryActor
        let instance = retryInstance
        let suspended = actor == .app && t >= foregroundUntil && t >= pushDeadline
        if suspended || (actor == .widgetExtension && t >= extensionDeadline) {
            retryAttempt = 0  // the app was suspended, or getTimeline's time is up: the retry never runs
            return
        }
        if counted(t) { tally.retries += 1 }
        let ok = fetch(at: t, actor: actor, instance: actor == .widgetExtension ? instance : nil)
        if ok && actor == .widgetExtension {
            displayedContent[instance] = contentTime
            displayedError[instance] = false
        }
        if actor == .background && nextRetry == .infinity {
            observer.record(.bgTaskComplete(success: ok), local: lastFetchEnd, utc: utc(lastFetchEnd))
        }
    }

    /// Recomputes the earliest rare event (in the original precedence on ties).
    @inline(__always) private mutating func updateRare() {
        var t = nextMidnight
        var s = Source.midnight
        if nextAppClose < t {
            t = nextAppClose
            s = .close
        }
        if nextBackgroundLaunch < t {
            t = nextBackgroundLaunch
            s = .background
        }
        if nextPush < t {
            t = nextPush
            s = .push
        }
        if nextRetry < t {
            t = nextRetry
            s = .retry
        }
        if nextBudgetRenewal < t {
            t = nextBudgetRenewal
            s = .budget
        }
        // A stop comes before any event at its time (and no stop is +infinity).
        if stopTime <= t && stopTime < .infinity {
            t = stopTime
            s = .stop
        }
        nextRareEvent = t
        nextRareSource = s
    }

    /// Recomputes the earliest policy reload over the instances.
    @inline(__always) private mutating func updatePolicy() {
        if instances == 1 {
            nextPolicyReload = nextPolicy[0]
            nextPolicyReloadInstance = 0
            return
        }
        var t = Double.infinity
        var index = 0
        for i in 0..<instances where nextPolicy[i] < t {
            t = nextPolicy[i]
            index = i
        }
        nextPolicyReload = t
        nextPolicyReloadInstance = index
    }

    // MARK: Handlers

    mutating func midnight(_ t: Double) {
        let endedDay = day(t) - 1
        if endedDay >= constants.countedFirstDay && endedDay < constants.countedEndDay {
            tally.userDays += 1
            if lowPowerDays[endedDay] { tally.lowPowerDays += 1 }
        }
        let today = day(t)
        if today <= constants.simulatedDays, lowPowerDays[today] != lowPowerDays[max(today - 1, 0)] {
            observer.record(.lowPowerMode(on: lowPowerDays[today]), local: t, utc: utc(t))
        }
    }

    /// The reload budget renews every 24 hours at a moment of the device's own (not at midnight
    /// for everyone, which would line devices up); reloads queued while it was spent run now.
    mutating func budgetReset(_ t: Double) {
        if counted(t - 1) {
            tally.instanceDays += Int64(instances)
            var count: Int64 = 0
            for i in 0..<instances where exhausted[i] { count += 1 }
            tally.exhaustedInstanceDays += count
        }
        for i in 0..<instances {
            budgetUsed[i] = 0
            exhausted[i] = false
            if queued[i] {
                queued[i] = false
                getTimeline(i, at: t, origin: .queued)
            }
        }
    }

    @inline(__always) mutating func getTimeline(_ i: Int, at t: Double, origin: TimelineOrigin) {
        let exempt = constants.foregroundReloadsExempt && t < foregroundUntil
        if !exempt {
            if budgetUsed[i] >= traits.budgetPerInstance {
                if !exhausted[i] { observer.record(.budgetExhausted(instance: i), local: t, utc: utc(t)) }
                exhausted[i] = true
                if counted(t) { tally.droppedReloads += 1 }
                if origin != .system { queued[i] = true }
                return
            }
            budgetUsed[i] += 1
        }
        if counted(t) { tally.getTimelines += 1 }
        observer.record(.getTimeline(instance: i, origin: origin, budgetExempt: exempt), local: t, utc: utc(t))

        if constants.fetchOnGetTimeline {
            fetchOrReadCache(i, at: t)
        } else {
            let fresh = constants.hasTTL && t - contentTime <= constants.ttl
            observer.record(fresh ? .cacheHit(instance: i) : .cacheStale(instance: i), local: t, utc: utc(t))
            displayedContent[i] = contentTime
            displayedError[i] = false
        }
        if !constants.policyNever {
            nextPolicy[i] = policyTime(after: t)
            updatePolicy()
        }
    }

    /// Builds instance `i`'s timeline at `t` in a widget that fetches in getTimeline: from the
    /// cache while it is within its TTL, else from a fetch (on failure, the cache's older
    /// content, or an error without a cache). Returns whether it fetched.
    @inline(__always) @discardableResult mutating func fetchOrReadCache(_ i: Int, at t: Double) -> Bool {
        if constants.hasTTL && t - contentTime <= constants.ttl {
            observer.record(.cacheHit(instance: i), local: t, utc: utc(t))
            displayedContent[i] = contentTime
            displayedError[i] = false
            return false
        }
        if extensionFetch(i, at: t) {
            displayedContent[i] = contentTime
            displayedError[i] = false
        } else if !constants.hasTTL {
            displayedError[i] = true
        } else {
            displayedContent[i] = contentTime
        }
        return true
    }

    /// The extension's fetch for instance `i`'s timeline, out of line: the rest of getTimeline is
    /// then small enough to inline into the event loop, and only fetching calls pay for a call.
    @inline(never) mutating func extensionFetch(_ i: Int, at t: Double) -> Bool {
        extensionDeadline = t + constants.taskSliceSeconds
        return fetch(at: t, actor: .widgetExtension, instance: i)
    }

    /// When the timeline built at `t` asks to be reloaded.
    ///
    /// An aligned poll asks for the next wall-clock boundary (:00, :30, ... shifted by this
    /// device's phase) a whole period after the previous one, so a getTimeline between two
    /// boundaries keeps the next boundary rather than skipping it; WidgetKit honours it as soon
    /// as its minimum spacing allows. Other designs ask `policyDelay` later.
    @inline(__always) package mutating func policyTime(after t: Double) -> Double {
        if constants.policyNever { return .infinity }
        guard constants.aligned else { return aligned(t + constants.policyDelay) }
        let period = constants.alignPeriod
        // The first boundary after t, or after t + delay − period for a delay longer than the period.
        let from = t + Swift.max(constants.policyDelay - period, 0)
        let index = UserSimulator.floor((from - wallClockPhase) / period)
        let boundary = (index + 1) * period + wallClockPhase
        // The boundary used is the predicted one, which is `boundary` itself (checked just
        // below); only its check waits for the division (see `predictedBoundary(from:)`).
        var predicted = predictedBoundary(from: from)
        if predicted != boundary { predicted = expectBoundary(index: index) }
        return max(predicted, t + constants.minReloadSpacing)
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
        if constants.jitterSeconds > 0 { return time + reloadJitterRandom.uniform() * constants.jitterSeconds }
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

    mutating func submitBackground(at t: Double) {
        guard constants.fetchOnBackground else { return }
        if counted(t) { tally.bgSubmits += 1 }
        // The Gemini widget report: submitting while an identical request is queued fails, which is not fatal.
        observer.record(.bgTaskSubmit(accepted: !backgroundPending), local: t, utc: utc(t))
        guard !backgroundPending else { return }
        backgroundPending = true
        nextBackgroundLaunch = scheduleBackground(from: t)
    }

    /// When iOS launches a task submitted at `t`: not before the earliest begin date, then at a
    /// rate that gives the run's launches per day, mostly at night, almost never in Low Power Mode.
    mutating func scheduleBackground(from t: Double) -> Double {
        let earliest = aligned(t + constants.backgroundIntervalSeconds)
        return backgroundClock.next(after: earliest, &backgroundLaunchRandom, exponentialTables)
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
                if nextRetry != .infinity && retryActor == .background { return }
            } else {
                observer.record(.cacheHit(instance: nil), local: t, utc: utc(t))
            }
        }
        observer.record(.bgTaskComplete(success: success), local: end, utc: utc(end))
    }

    /// Sends the requests of one fetch; returns true when the content was refreshed.
    /// `instance`: the widget instance whose getTimeline fetches (for the trace only).
    @inline(__always) mutating func fetch(at t: Double, actor: RequestActor, instance: Int? = nil) -> Bool {
        let isCounted = counted(t)
        var elapsed = 0.0
        var ok = true
        var expired = false
        // What is left of the background task's slice (a retry runs in the same task).
        let slice = actor == .background ? backgroundDeadline - t : .infinity
        for _ in 0..<constants.requestsPerFetch {
            let sendTime = t + elapsed
            if actor == .background && elapsed >= slice {
                expired = true
                ok = false
                break
            }
            let failed = apiOutcomeRandom.bernoulli(threshold: failureThreshold(atLocal: sendTime))
            let duration = failed ? failedRequestSeconds() : constants.successSeconds
            if isCounted {
                tally.requests &+= 1
                monthRequests &+= 1
                tally.extensionRequests &+= Int64(actor == .widgetExtension ? 1 : 0)
                tally.appRequests &+= Int64(actor == .app ? 1 : 0)
                tally.backgroundRequests &+= Int64(actor == .background ? 1 : 0)
                tally.failedRequests &+= Int64(failed ? 1 : 0)
            }
            if let buckets { countInMinute(sentAtUTC: utc(sendTime), buckets) }
            observer.record(
                .apiRequest(actor: actor, success: !failed, durationSeconds: duration, instance: instance),
                local: sendTime, utc: utc(sendTime))
            elapsed += duration
            if failed {
                ok = false
                break
            }
            if actor == .background && elapsed > slice {
                expired = true
                ok = false
                break
            }
        }
        if expired {
            if isCounted { tally.bgExpirations += 1 }
            observer.record(.bgTaskExpire, local: t + slice, utc: utc(t + slice))
        }
        lastFetchEnd = expired ? t + slice : t + elapsed
        if isCounted {
            tally.fetches += 1
            if !ok { tally.failedFetches += 1 }
        }
        if ok {
            contentTime = t + elapsed
            retryAttempt = 0
            if actor != .widgetExtension, constants.reloadCalls == .onceOnSuccess || constants.reloadCalls == .everyFetch {
                reloadCall(at: t + elapsed)
            }
        } else {
            if actor != .widgetExtension, constants.reloadCalls == .everyFetch { reloadCall(at: t + elapsed) }
            var delay = 0.0
            if constants.retries, retryAttempt < constants.maxRetries {
                delay = constants.retryBaseSeconds * Foundation.pow(2, Double(retryAttempt))
                if constants.retryJitter { delay *= apiOutcomeRandom.uniform() }
            }
            // A background task cannot wait past its slice.
            if constants.retries, retryAttempt < constants.maxRetries, actor != .background || t + elapsed + delay < backgroundDeadline {
                // One retry at a time: a background task whose retry this one replaces ends here.
                if nextRetry != .infinity && retryActor == .background && actor != .background {
                    let end = Swift.min(t, backgroundDeadline)
                    observer.record(.bgTaskComplete(success: false), local: end, utc: utc(end))
                }
                retryAttempt += 1
                nextRetry = t + elapsed + delay
                retryActor = actor
                retryInstance = instance ?? 0
                updateRare()
            } else {
                retryAttempt = 0
            }
        }
        return ok
    }

    /// How long a failed request takes: the timeout when it hangs, else a fast failure. Out of
    /// line, as failures are rare: its constants stay out of every fetch's set-up.
    @inline(never) mutating func failedRequestSeconds() -> Double {
        apiOutcomeRandom.uniform() < constants.hangShareOfFailures ? constants.timeoutSeconds : constants.fastFailureSeconds
    }

    /// Adds a request sent at UTC `u` to its minute of the counted window (and to its half of
    /// the sample and its complete quota day), keeping the running peaks.
    @inline(__always) mutating func countInMinute(sentAtUTC u: Double, _ buckets: UnsafeMutablePointer<Int32>) {
        guard u >= constants.countedStartUTC else { return }
        let minute = Int((u - constants.countedStartUTC) * (1.0 / .secondsPerMinute))
        guard minute < constants.countedMinutes else { return }
        let count = buckets[minute] &+ 1
        buckets[minute] = count
        peakPerMinute = max(peakPerMinute, count)
        if let halfBuckets { halfBuckets[minute] &+= 1 }
        // One unsigned comparison tests both ends: a minute before the first complete quota
        // day wraps to a huge value (`completeQuotaMinutes` is never negative).
        let q = UInt(bitPattern: minute &- constants.quotaStartMinute)
        if let quotaDays, q < UInt(bitPattern: constants.completeQuotaMinutes) {
            let day = Int(bitPattern: q / UInt(TimeUnits.minutesPerDay))
            let dayCount = quotaDays[day] &+ 1
            quotaDays[day] = dayCount
            peakQuotaDay = max(peakQuotaDay, dayCount)
        }
    }

    /// The chance that a request sent at `local` fails, as a `bernoulli(threshold:)` threshold.
    @inline(__always) func failureThreshold(atLocal local: Double) -> UInt64 {
        let u = utc(local)
        if u >= constants.outageFrom && u < constants.outageTo { return outageFailureThreshold(atUTC: u) }
        return constants.failureThreshold
    }

    /// The failure threshold at UTC `u` within the outages' span (out of line: most requests
    /// are sent outside it).
    @inline(never) func outageFailureThreshold(atUTC u: Double) -> UInt64 {
        let outages = workspace.outages
        for k in outages.indices where u >= outages[k].start && u < outages[k].end {
            return workspace.outageFailureThresholds[k]
        }
        return constants.failureThreshold
    }

    @inline(__always) func inOutage(_ local: Double) -> Bool {
        let u = utc(local)
        guard u >= constants.outageFrom && u < constants.outageTo else { return false }
        return workspace.outages.contains { u >= $0.start && u < $0.end }
    }

    mutating func reloadCall(at t: Double) {
        if counted(t) { tally.reloadCalls += 1 }
        observer.record(.reloadCall, local: t, utc: utc(t))
        for i in 0..<instances { getTimeline(i, at: t, origin: .reloadCall) }
    }

    /// A glance reads what instance 0 shows. Its counts are added as 0/1 flags rather than
    /// behind branches: whether a glance finds stale content is a coin flip the branch predictor
    /// cannot learn, and glances are a quarter of all events.
    @inline(__always) mutating func glance(at t: Double) {
        let shownContent = displayedContent[0]
        let isError = displayedError[0] || shownContent == -.infinity
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
        tally.overTargetGlances &+= error | Int64(shown > constants.freshnessTargetSeconds ? 1 : 0)
        tally.staleGlances &+= stale
        tally.outageStaleGlances &+= stale & outage
        if let ages, !isError { ages[AgeHistogram.index(ageSeconds: shown)] &+= 1 }
    }
}
