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
    /// Requests this user's fetch sends (the design's, times the user's keys when it sends a
    /// request per key and users follow different numbers of them).
    let requestsPerFetch: Int
    package var observer: Observer
    package private(set) var constants: SimulationConstants
    let workspace: SimulationWorkspace
    let exponentialTables: ExponentialTables

    /// Random streams, one per source of events.
    var random: UserRandomStreams
    /// When each source of events comes next.
    var schedule = EventSchedule()
    /// Each widget instance's state (in the workspace, or in another one for a copy that goes
    /// its own way).
    var instanceState: InstanceState
    let instances: Int
    /// What the engine collects from the user: per-minute and per-quota-day counts, peaks, ages.
    package var collected = UserLoadCollectors()
    package var tally = UserTally()
    package var monthRequests = 0

    // MARK: The user's window

    /// System getTimeline calls and glances of the whole window, in time order.
    let widget: WidgetStream
    /// Whether each local day is spent in Low Power Mode, and its getTimeline multiplier (days + 1 entries).
    let lowPowerDays: UnsafePointer<Bool>
    let dayFactors: UnsafePointer<Double>
    let utcOffset: Double
    let endLocal: Double
    /// This device's fixed offset from the wall-clock boundaries (aligned designs with jitter).
    package let wallClockPhase: Double
    /// This device's fixed delay after an opening for a policy reload the open hours moved there
    /// (0 ... `jitterSeconds`).
    let openingPhase: Double
    /// When in its day this device's reload budget renews.
    let budgetRenewalPhase: Double
    /// When in its local day this device goes idle for the night, and for how long (see `afterIdle(_:)`).
    let idleStart: Double
    let idleLength: Double

    // MARK: Clocks of the app, pushes and background launches

    var appClock: PoissonClock
    var pushClock: PoissonClock
    /// Launch process of BGAppRefreshTask once its earliest begin date has passed.
    var backgroundClock: PoissonClock
    /// Pushes from a list of changes (UTC seconds), and the next one to deliver: the user's
    /// key's for broadcast pushes, the user's own where the calendar confines them
    /// (`SimulationModel.confinesOwnChanges`); each arrives within `pushDelayWindow` seconds.
    let pushChanges: [Double]
    var nextPushChange = 0
    let pushesFromChanges: Bool
    let pushDelayWindow: Double
    /// The oldest the backend's answer for the user's key can be when fetched (0: no backend).
    let backendLagSeconds: Double
    /// Whether newer data had replaced what a glance shows: the user's key's changes (UTC, for
    /// `.keyChanges`) and how many came at least a minute before the last glance; the user's own
    /// last two changes (local, for `.ownChanges`); the expected changes (for `.expected`).
    let userKeyChanges: [Double]
    var userKeyChangesSeen = 0
    var lastOwnChange = -Double.infinity
    var previousOwnChange = -Double.infinity
    let changeCurve: ChangeCurve?
    /// This user's keys ÷ the mean keys a user follows: the share of the curve's changes its keys
    /// see (1 unless users follow different numbers of keys).
    let keysChangeScale: Double
    /// With key groups, one key's expected changes in each group, and how many keys of each the
    /// user follows (`.expected`).
    let groupChangeCurves: [ChangeCurve]
    let keysByGroup: SIMD4<Double>
    /// The user's hours (`SimulationModel.hourSets`), and whether the policy waits for their
    /// opening (the design's policy follows the hours, and the user's groups close at times).
    let hourSet: Int
    let followsHours: Bool
    let outdatedSource: OutdatedSource
    /// What the user sees during live events, when a design of the scenario has a Live Activity.
    var liveEvents: LiveEventView?
    /// The silent-push throttle: tokens left (at most `silentPushesPerHour`) and when last counted.
    var pushTokens = 0.0
    var pushTokensAt = 0.0
    /// Silent pushes delivered today (the device's daily budget for the app) and the day counted.
    var pushesToday = 0
    var pushDay = 0

    // MARK: The app and its fetches

    /// The content the app last wrote to the cache (its time; -inf: none yet).
    var contentTime = -Double.infinity
    var foregroundUntil = -Double.infinity
    var backgroundPending = false
    /// End of the running background task's slice, of the time a push wakes the app for, and
    /// of the time the extension's getTimeline has (the same allowance as a task's slice).
    var backgroundDeadline = -Double.infinity
    var pushDeadline = -Double.infinity
    var extensionDeadline = -Double.infinity
    /// When the last fetch ended (its last response, or the slice's end).
    var lastFetchEnd = 0.0
    /// The failed fetch being retried: its attempt, who sent it, and the widget instance whose
    /// getTimeline a widget-extension retry completes.
    var retryAttempt = 0
    var retryActor = RequestActor.app
    var retryInstance = 0

    // MARK: Aligned policies

    /// Aligned designs: the boundary `policyTime(after:)` expects to find (its index k, the
    /// floor of (from − phase) ÷ period, and the boundary (k + 1) × period + phase) and the
    /// boundary after it (`predictedBoundary(from:)`). +infinity until the first timeline.
    var expectedBoundaryIndex = 0.0
    var expectedBoundary = Double.infinity
    var boundaryAfterExpected = Double.infinity

    /// The date the last `policyTime(after:)` asked for (its reload runs a lateness later).
    var policyDueTime = Double.infinity

    /// Whether `advance(until:)` hands the widget's events and the policy reloads between two
    /// other events to `widgetRun(from:before:fetching:)` (see there): the user has one
    /// instance, and the policy reload is never, or draws nothing: aligned or a fixed delay
    /// without jitter for a widget that fetches, a fixed delay without jitter for one that
    /// reads the cache only. Tests turn it off to hold the two paths to each other.
    package var usesWidgetRuns: Bool

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
        requestsPerFetch = constants.requestsPerFetch * (constants.requestsPerKeyOfUser ? traits.keysFollowed : 1)
        self.observer = observer
        utcOffset = traits.utcOffsetSeconds
        idleStart = traits.idleStartSeconds
        idleLength = traits.idleSeconds
        let seed = model.scenario.horizon.seed
        let run = UInt64(model.run)
        let u = UInt64(user)
        random = UserRandomStreams(seed: seed, run: run, user: u)
        var phaseRandom = RandomStream(seed: seed, .phases, run, u)
        budgetRenewalPhase = phaseRandom.uniform() * .secondsPerDay
        wallClockPhase = constants.aligned ? min(constants.jitterSeconds, constants.alignPeriod) * phaseRandom.uniform() : 0
        hourSet = traits.hourSet
        followsHours = constants.policyFollowsHours && ws.hourSets[traits.hourSet].sessions != nil
        openingPhase = followsHours ? constants.jitterSeconds * phaseRandom.uniform() : 0
        schedule.budgetRenewal = budgetRenewalPhase

        let days = constants.simulatedDays
        let lowPower = activity.lowPower
        lowPowerDays = lowPower
        dayFactors = activity.dayFactor
        widget = activity.widget

        // The clocks of the other sources.
        let calendar = model.dayFactors
        let opens = max(traits.appOpensPerDay, 0)
        appClock = PoissonClock(storage: ws.clockStorage(0), days: days, shape: ws.shape(0)) { opens * calendar[$0].appOpens }
        pushesFromChanges = constants.hasPushes && (constants.broadcastPushes || model.confinesOwnChanges)
        pushDelayWindow = constants.broadcastPushes ? constants.deliveryWindowSeconds : 0
        // The user's keys' mean change factor (1 without key groups).
        let groupFactors = model.groupChangeFactors
        let changeFactor =
            groupFactors.count > 1
            ? groupFactors.indices.reduce(0.0) { $0 + groupFactors[$1] * traits.keysByGroup[$1] } / Double(max(traits.keysFollowed, 1))
            : groupFactors[0]
        let pushes = max(constants.hasPushes && !pushesFromChanges ? constants.dataChangesPerDay * changeFactor : 0, 0)
        pushClock = PoissonClock(storage: ws.clockStorage(1), days: days, shape: ws.shape(3)) { pushes * calendar[$0].dataChanges }
        if constants.hasPushes && constants.broadcastPushes {
            pushChanges = model.keyChanges[traits.contentKey]
        } else if pushesFromChanges {
            var ownChanges = RandomStream(seed: seed, .pushes, run, u, 1)
            pushChanges = SimulationModel.ownChangeTimes(
                model: model, perDay: constants.dataChangesPerDay, keysByGroup: traits.keysByGroup, random: &ownChanges)
        } else {
            pushChanges = []
        }
        pushTokens = constants.silentPushesPerHour
        outdatedSource = model.outdatedSource
        backendLagSeconds = (model.design.backend?.generationLagMinutes(keyRank: traits.contentKey) ?? 0) * .secondsPerMinute
        userKeyChanges = model.outdatedSource == .keyChanges ? model.keyChanges[traits.contentKey] : []
        changeCurve = model.changeCurve
        let content = model.scenario.content
        keysChangeScale = content.keysPerUserMix == nil ? 1 : Double(traits.keysFollowed) / content.meanKeysPerUser
        groupChangeCurves = model.groupChangeCurves
        keysByGroup = traits.keysByGroup
        if !model.liveEventWindows.isEmpty {
            let p = model.parameters
            let activity = model.design.liveActivity
            var starts = RandomStream(seed: seed, .liveActivities, run, u)
            var delays = RandomStream(seed: seed, .liveActivities, run, u, 1)
            liveEvents = LiveEventView(
                windows: model.liveEventWindows, changes: model.keyChanges[traits.contentKey], activity: activity,
                maxHours: model.scenario.platform.liveActivityMaxHours,
                budgetPerHour: activity?.frequentUpdates == true ? p.liveActivityFrequentUpdatesPerHour : p.liveActivityUpdatesPerHour,
                lowPriorityDelaySeconds: p.liveActivityLowPriorityDelayMinutes * .secondsPerMinute,
                deliveryWindowSeconds: constants.deliveryWindowSeconds, starts: &starts, delays: &delays)
        }
        // iOS launches at a rate that gives the user's runs per day: a cycle is the earliest-begin
        // interval plus a wait that follows the background profile (before the hours of app
        // use), none or almost none in Low Power Mode.
        let launches = max(
            constants.fetchOnBackground ? model.backgroundCalibration?.launchRate(runsPerDay: traits.backgroundRunsPerDay) ?? 0 : 0, 0)
        let lowPowerFactor = constants.lowPowerBackgroundFactor
        backgroundClock = PoissonClock(storage: ws.clockStorage(2), days: days, shape: ws.shape(2)) {
            lowPower[$0] ? launches * lowPowerFactor : launches
        }

        let instances = traits.instances
        self.instances = instances
        instanceState = ws.instanceState
        instanceState.reset(count: instances)
        endLocal = constants.endLocal
        // The fast path serves one instance whose policy reload draws nothing but its lateness (an
        // aligned one's jitter is a fixed phase; a jittered delay draws per reload).
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
        tallyLiveActivities()
    }

    /// Adds the user's Live Activities that start in the counted days to the tally.
    private mutating func tallyLiveActivities() {
        guard let liveEvents else { return }
        let counts = liveEvents.activityCounts(from: utc(constants.countedStartLocal), to: utc(constants.countedEndLocal))
        tally.activities += Int64(counts.activities)
        tally.activityPushes += Int64(counts.pushes)
        tally.activityPushesThrottled += Int64(counts.throttled)
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
        calm.collected.stopCounting()
        advance(until: .infinity)
        tally.users = 1
        tallyLiveActivities()
        calm.advance(until: .infinity)
        return calm.monthRequests
    }

    /// Copies the per-instance state into `ws` and keeps it there from now on.
    private mutating func moveInstanceState(to ws: SimulationWorkspace) {
        instanceState.copy(to: ws.instanceState, count: instances)
        instanceState = ws.instanceState
    }

    /// Builds each instance's first timeline (WidgetKit asks for one when the widget is added,
    /// which starts the policy's reloads), draws the first app open and push, and submits the
    /// background request made at install.
    private mutating func begin() {
        for i in 0..<instances { getTimeline(i, at: 0, origin: .system) }
        schedule.appOpen = appClock.next(&random.appOpen, exponentialTables)
        if pushesFromChanges {
            // The first change delivered inside the window.
            while nextPushChange < pushChanges.count && pushChanges[nextPushChange] + utcOffset < 0 { nextPushChange += 1 }
            schedule.push = nextPushFromChanges(after: 0)
        } else {
            schedule.push = pushClock.next(&random.push, exponentialTables)
        }
        if constants.fetchOnBackground {
            // Apps that use background refresh submitted a request at install.
            schedule.backgroundLaunch = scheduleBackground(from: 0)
            backgroundPending = true
        }
        updateRare()
    }

    /// Handles events in time order until the first at or after `stop`, or the window's end;
    /// a later call goes on exactly where this one stopped.
    private mutating func advance(until stop: Double) {
        schedule.stop = stop
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
        var widgetIndex = self.schedule.widget
        var appOpenTime = self.schedule.appOpen
        // The earliest event that is not the widget's own; the stream ends with +infinity.
        var nextOtherEvent = min(schedule.rareEvent, min(appOpenTime, schedule.policyReload))

        while true {
            let t = times[widgetIndex]
            if t < nextOtherEvent {
                let kind = kinds[widgetIndex]
                widgetIndex += 1
                if kind == .glance {
                    glance(at: t)  // only reads what is shown
                    continue
                }
                if kind == .rotation {
                    // The stacked widget (the first instance) runs a due policy reload on coming into view.
                    guard instanceState.policyDue[0] <= t && t < instanceState.nextPolicy[0] else { continue }
                    instanceState.nextPolicy[0] = .infinity
                    updatePolicy()
                    getTimeline(0, at: t, origin: .policy)
                } else {
                    if kind == .tap && !constants.interactive { continue }
                    let instance = instances == 1 ? 0 : Int(random.instance.next() % UInt64(instances))
                    if kind == .tap { tapRequests(at: t, instance: instance) }
                    getTimeline(instance, at: t, origin: kind == .tap ? .tap : .system)
                }
                // The policy reload or a retry may have moved.
                nextOtherEvent = min(schedule.rareEvent, min(appOpenTime, schedule.policyReload))
                continue
            }
            let now = nextOtherEvent
            if now >= endLocal { break }
            // Ties go to the rare sources, then app opens, then policy reloads (fixed times can tie).
            if schedule.rareEvent == now {
                if schedule.rareSource == .stop { break }
                rareEvent(at: now)
            } else if appOpenTime == now {
                appOpenTime = appOpen(at: now)
            } else {
                let i = schedule.policyReloadInstance
                instanceState.nextPolicy[i] = .infinity
                updatePolicy()
                getTimeline(i, at: now, origin: .policy)
            }
            nextOtherEvent = min(schedule.rareEvent, min(appOpenTime, schedule.policyReload))
        }
        self.schedule.widget = widgetIndex
        self.schedule.appOpen = appOpenTime
    }

    /// Handles the rare source that is due at `t`.
    mutating func rareEvent(at t: Double) {
        switch schedule.rareSource {
        case .midnight:
            midnight(t)
            schedule.midnight = t + .secondsPerDay
        case .close:
            schedule.appClose = .infinity
            observer.record(.appBackground, local: t, utc: utc(t))
            if constants.fetchOnBackground { submitBackground(at: t) }
        case .background:
            backgroundPending = false
            backgroundLaunch(at: t)
            schedule.backgroundLaunch = .infinity
            submitBackground(at: t)
        case .push:
            push(at: t)
            schedule.push = pushesFromChanges ? nextPushFromChanges(after: t) : pushClock.next(&random.push, exponentialTables)
        case .retry:
            schedule.retry = .infinity
            retry(at: t)
        case .budget:
            budgetReset(t)
            schedule.budgetRenewal = t + .secondsPerDay
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
            instanceState.displayedContent[instance] = contentTime
            instanceState.displayedError[instance] = false
        }
        if actor == .background && schedule.retry == .infinity {
            observer.record(.bgTaskComplete(success: ok), local: lastFetchEnd, utc: utc(lastFetchEnd))
        }
    }

    /// Recomputes the earliest rare event (in the original precedence on ties).
    @inline(__always) mutating func updateRare() {
        var t = schedule.midnight
        var s = RareEventSource.midnight
        if schedule.appClose < t {
            t = schedule.appClose
            s = .close
        }
        if schedule.backgroundLaunch < t {
            t = schedule.backgroundLaunch
            s = .background
        }
        if schedule.push < t {
            t = schedule.push
            s = .push
        }
        if schedule.retry < t {
            t = schedule.retry
            s = .retry
        }
        if schedule.budgetRenewal < t {
            t = schedule.budgetRenewal
            s = .budget
        }
        // A stop comes before any event at its time (and no stop is +infinity).
        if schedule.stop <= t && schedule.stop < .infinity {
            t = schedule.stop
            s = .stop
        }
        schedule.rareEvent = t
        schedule.rareSource = s
    }

    /// Recomputes the earliest policy reload over the instances.
    @inline(__always) mutating func updatePolicy() {
        if instances == 1 {
            schedule.policyReload = instanceState.nextPolicy[0]
            schedule.policyReloadInstance = 0
            return
        }
        var t = Double.infinity
        var index = 0
        for i in 0..<instances where instanceState.nextPolicy[i] < t {
            t = instanceState.nextPolicy[i]
            index = i
        }
        schedule.policyReload = t
        schedule.policyReloadInstance = index
    }
}
