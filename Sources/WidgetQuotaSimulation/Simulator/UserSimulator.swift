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
    let exponentialTables: ExponentialTables

    // Random streams, one per source.
    var appOpenRandom: RandomStream
    var backgroundLaunchRandom: RandomStream
    var pushRandom: RandomStream
    /// Which instance a system getTimeline call goes to (users with several widgets).
    var instanceRandom: RandomStream
    var apiOutcomeRandom: RandomStream
    var reloadJitterRandom: RandomStream
    var pushDeliveryRandom: RandomStream
    var backendLagRandom: RandomStream

    /// System getTimeline calls and glances of the whole window, in time order.
    let widget: WidgetStream
    // Clocks of the other sources.
    var appClock: PoissonClock
    var pushClock: PoissonClock
    /// Launch process of BGAppRefreshTask once its earliest begin date has passed.
    var backgroundClock: PoissonClock
    /// Broadcast pushes: the user's key's changes (UTC seconds) and the next one to deliver.
    let keyChanges: [Double]
    var nextKeyChange = 0
    /// The silent-push throttle: tokens left (at most `silentPushesPerHour`) and when last counted.
    var pushTokens = 0.0
    var pushTokensAt = 0.0
    /// Per-minute requests of broadcast fetches, set while one runs (nil otherwise).
    var broadcastBuckets: UnsafeMutablePointer<Int32>?
    /// Where `broadcastBuckets` points during a broadcast fetch (owned by the engine; nil: not collected).
    package var broadcastBucketsOfTask: UnsafeMutablePointer<Int32>?

    // Per-instance state (in the workspace, or in another one for a copy that goes its own way).
    let instances: Int
    var budgetUsed: UnsafeMutablePointer<Int>
    var exhausted: UnsafeMutablePointer<Bool>
    var queued: UnsafeMutablePointer<Bool>
    var nextPolicy: UnsafeMutablePointer<Double>
    /// Content time shown by each instance; -inf = placeholder.
    var displayedContent: UnsafeMutablePointer<Double>
    var displayedError: UnsafeMutablePointer<Bool>
    /// Whether each local day is spent in Low Power Mode, and its getTimeline multiplier (days + 1 entries).
    let lowPowerDays: UnsafePointer<Bool>
    let dayFactors: UnsafePointer<Double>

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
    /// When in its local day this device goes idle for the night, and for how long (see `afterIdle(_:)`).
    let idleStart: Double
    let idleLength: Double
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
    let utcOffset: Double

    // Next event times.
    /// The next of the widget's own events (an index into `widget`).
    var nextWidget = 0
    var nextAppOpen = Double.infinity
    var nextMidnight = Double.secondsPerDay
    var nextAppClose = Double.infinity
    var nextBackgroundLaunch = Double.infinity
    var nextPush = Double.infinity
    var nextBudgetRenewal = 0.0
    /// Where `advance(until:)` stops (+infinity: at the window's end).
    var stopTime = Double.infinity
    /// Earliest of the rare sources above, `nextRetry` and `stopTime`, and which one (see `Source`).
    var nextRareEvent = 0.0
    var nextRareSource = Source.midnight
    /// Earliest policy reload over the instances, and its instance (lowest index on ties).
    var nextPolicyReload = Double.infinity
    var nextPolicyReloadInstance = 0
    /// Aligned designs: the boundary `policyTime(after:)` expects to find (its index k, the
    /// floor of (from − phase) ÷ period, and the boundary (k + 1) × period + phase) and the
    /// boundary after it (`predictedBoundary(from:)`). +infinity until the first timeline.
    var expectedBoundaryIndex = 0.0
    var expectedBoundary = Double.infinity
    var boundaryAfterExpected = Double.infinity

    enum Source { case midnight, close, background, push, retry, budget, stop }

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
        idleStart = traits.idleStartSeconds
        idleLength = traits.idleSeconds
        let seed = model.scenario.horizon.seed
        let run = UInt64(model.run)
        let u = UInt64(user)
        appOpenRandom = RandomStream(seed: seed, .appOpens, run, u)
        backgroundLaunchRandom = RandomStream(seed: seed, .backgroundRuns, run, u)
        pushRandom = RandomStream(seed: seed, .pushes, run, u)
        instanceRandom = RandomStream(seed: seed, .instances, run, u)
        apiOutcomeRandom = RandomStream(seed: seed, .apiOutcomes, run, u)
        reloadJitterRandom = RandomStream(seed: seed, .reloadPolicy, run, u)
        pushDeliveryRandom = RandomStream(seed: seed, .pushDelivery, run, u)
        backendLagRandom = RandomStream(seed: seed, .backendLag, run, u)
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
        let calendar = model.dayFactors
        let opens = max(traits.appOpensPerDay, 0)
        appClock = PoissonClock(storage: ws.clockStorage(0), days: days, shape: ws.shape(0)) { opens * calendar[$0].appOpens }
        let pushes = max(constants.hasPushes && !constants.broadcastPushes ? constants.dataChangesPerDay : 0, 0)
        pushClock = PoissonClock(storage: ws.clockStorage(1), days: days, shape: ws.shape(3)) { pushes * calendar[$0].dataChanges }
        keyChanges = constants.hasPushes && constants.broadcastPushes ? model.keyChanges[traits.contentKey] : []
        pushTokens = constants.silentPushesPerHour
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

    /// Builds each instance's first timeline (WidgetKit asks for one when the widget is added,
    /// which starts the policy's reloads), draws the first app open and push, and submits the
    /// background request made at install.
    private mutating func begin() {
        for i in 0..<instances { getTimeline(i, at: 0, origin: .system) }
        nextAppOpen = appClock.next(&appOpenRandom, exponentialTables)
        if constants.broadcastPushes {
            // The first change delivered inside the window.
            while nextKeyChange < keyChanges.count && keyChanges[nextKeyChange] + utcOffset < 0 { nextKeyChange += 1 }
            nextPush = nextBroadcastPush(after: 0)
        } else {
            nextPush = pushClock.next(&pushRandom, exponentialTables)
        }
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

    /// Handles the rare source that is due at `t`.
    mutating func rareEvent(at t: Double) {
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
            push(at: t)
            nextPush = constants.broadcastPushes ? nextBroadcastPush(after: t) : pushClock.next(&pushRandom, exponentialTables)
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
    @inline(__always) mutating func updateRare() {
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
    @inline(__always) mutating func updatePolicy() {
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
}
