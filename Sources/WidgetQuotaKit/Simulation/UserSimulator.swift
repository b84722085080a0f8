import Foundation

/// Simulates one user's days as events in time: getTimeline calls, app opens, background runs,
/// pushes, glances, fetches and reload calls, honouring the reload budget, the cache TTL,
/// Low Power Mode, Smart Stack and the foreground exemption.
///
/// Times are seconds in the user's local clock since the start of the simulated window;
/// UTC = local − offset. Each source of events has its own random stream, keyed by
/// (seed, run, user, source), so two designs see the same user behave the same way.
struct UserSimulator<Observer: SimulationObserver> {
    let m: SimulationModel
    let traits: UserTraits
    var observer: Observer

    // Random streams, one per source.
    var systemRNG: RandomStream
    var appRNG: RandomStream
    var backgroundRNG: RandomStream
    var pushRNG: RandomStream
    var glanceRNG: RandomStream
    var apiRNG: RandomStream
    var policyRNG: RandomStream

    // Per local day.
    let calendar: UserCalendar
    /// Launch process of BGAppRefreshTask once its earliest begin date has passed.
    var backgroundClock: PoissonClock

    // State.
    var budgetUsed: [Int]
    var exhausted: [Bool]
    var queued: [Bool]
    var nextPolicy: [Double]
    var displayedContent: [Double]   // content time shown by each instance; -inf = placeholder
    var displayedError: [Bool]
    var contentTime = -Double.infinity
    var foregroundUntil = -Double.infinity
    var backgroundPending = false
    var retryAttempt = 0
    var nextRetry = Double.infinity
    /// This device's fixed offset from the wall-clock boundaries (aligned designs with jitter).
    let phase: Double
    /// When in its day this device's reload budget renews.
    let budgetPhase: Double
    var retryActor = RequestActor.app

    var tally = UserTally()
    var monthRequests: Int32 = 0
    let endLocal: Double

    init(model: SimulationModel, user: Int, observer: Observer) {
        m = model
        let traits = UserTraits(model: model, user: user)
        self.traits = traits
        self.observer = observer
        let seed = model.scenario.horizon.seed
        let run = UInt64(model.run), u = UInt64(user)
        systemRNG = RandomStream(seed: seed, 1, run, u)
        appRNG = RandomStream(seed: seed, 2, run, u)
        backgroundRNG = RandomStream(seed: seed, 3, run, u)
        pushRNG = RandomStream(seed: seed, 4, run, u)
        glanceRNG = RandomStream(seed: seed, 5, run, u)
        apiRNG = RandomStream(seed: seed, 6, run, u, UInt64(model.designIndex))
        policyRNG = RandomStream(seed: seed, 7, run, u, UInt64(model.designIndex))
        var phaseRNG = RandomStream(seed: seed, 9, run, u)
        budgetPhase = phaseRNG.uniform() * 86_400
        phase = model.design.alignToWallClockMinutes.map { min(model.design.jitterSeconds, $0 * 60) * phaseRNG.uniform() } ?? 0
        var dayRNG = RandomStream(seed: seed, 8, run, u)
        let days = model.simulatedDays + 1
        let levels = model.dayFactorQuantiles
        let dayFactor = (0..<days).map { _ in levels[Int(dayRNG.next() >> 54)] }
        let lowPower = (0..<days).map { _ in dayRNG.bernoulli(traits.lowPowerProbability) }
        calendar = UserCalendar(dayFactor: dayFactor, lowPower: lowPower,
                                lowPowerBackgroundFactor: model.scenario.platform.backgroundLowPowerFactor,
                                days: model.simulatedDays)
        // iOS launches at a rate that gives the user's runs per day: a cycle is the earliest-begin
        // interval plus a wait, mostly at night, almost never in Low Power Mode (seed 000).
        let interval = (model.design.backgroundIntervalHours ?? model.scenario.platform.backgroundEarliestBeginHours)
        let cycleHours = traits.backgroundRunsPerDay > 0 ? 24 / traits.backgroundRunsPerDay : .infinity
        let waitHours = max(cycleHours - interval, 0.25)
        backgroundClock = calendar.clock(perDay: model.fetchOnBackground && waitHours.isFinite ? 24 / waitHours : 0,
                                         shape: model.backgroundShape, scale: .background)
        let n = traits.instances
        budgetUsed = Array(repeating: 0, count: n)
        exhausted = Array(repeating: false, count: n)
        queued = Array(repeating: false, count: n)
        nextPolicy = Array(repeating: .infinity, count: n)
        displayedContent = Array(repeating: -.infinity, count: n)
        displayedError = Array(repeating: false, count: n)
        endLocal = Double(model.simulatedDays) * 86_400
    }

    // MARK: Time

    @inline(__always) func utc(_ local: Double) -> Double { local - traits.utcOffsetSeconds }
    @inline(__always) func day(_ local: Double) -> Int { Int(local / 86_400) }
    @inline(__always) func counted(_ local: Double) -> Bool {
        let d = day(local)
        return d >= m.countedFirstDay && d < m.countedEndDay
    }

    // MARK: Run

    mutating func run() {
        let p = m.parameters
        let instances = traits.instances
        let systemPerDay = traits.getTimelinePerDay * Double(instances)
        let foregroundSeconds = m.scenario.population.foregroundMinutes * 60
        let usesBackground = m.fetchOnBackground

        var systemClock = calendar.clock(perDay: systemPerDay, shape: m.widgetShape, scale: .getTimeline)
        var appClock = calendar.clock(perDay: traits.appOpensPerDay, shape: m.appShape, scale: .none)
        var pushClock = calendar.clock(perDay: m.fetchOnPush ? p.dataChangesPerDay : 0, shape: m.flatShape, scale: .none)
        var glanceClock = calendar.clock(perDay: traits.glancesPerDay, shape: m.widgetShape, scale: .none)
        var tSystem = systemClock.next(&systemRNG)
        var tOpen = appClock.next(&appRNG)
        var tClose = Double.infinity
        var tBackground = Double.infinity
        var tPush = pushClock.next(&pushRNG)
        var tGlance = glanceClock.next(&glanceRNG)
        var tMidnight = 86_400.0
        var tBudget = budgetPhase
        if usesBackground {
            // Apps that use background refresh submitted a request at install.
            tBackground = scheduleBackground(from: 0)
            backgroundPending = true
        }

        while true {
            var t = tMidnight
            var source = 0
            if tSystem < t { t = tSystem; source = 1 }
            if tOpen < t { t = tOpen; source = 2 }
            if tClose < t { t = tClose; source = 3 }
            if tBackground < t { t = tBackground; source = 4 }
            if tPush < t { t = tPush; source = 5 }
            if tGlance < t { t = tGlance; source = 6 }
            if nextRetry < t { t = nextRetry; source = 7 }
            if tBudget < t { t = tBudget; source = 9 }
            var policyInstance = -1
            for i in 0..<instances where nextPolicy[i] < t {
                t = nextPolicy[i]; source = 8; policyInstance = i
            }
            if t >= endLocal { break }

            switch source {
            case 0:
                midnight(t)
                tMidnight = t + 86_400
            case 1:
                let instance = instances == 1 ? 0 : Int(systemRNG.next() % UInt64(instances))
                getTimeline(instance, at: t, origin: .system)
                tSystem = systemClock.next(&systemRNG)
            case 2:
                if t < foregroundUntil {
                    foregroundUntil = t + foregroundSeconds   // still open: the session goes on
                    tClose = foregroundUntil
                } else {
                    appForeground(at: t)
                    foregroundUntil = t + foregroundSeconds
                    tClose = foregroundUntil
                }
                tOpen = appClock.next(&appRNG)
            case 3:
                tClose = .infinity
                observer.record(.appBackground, local: t, utc: utc(t))
                if usesBackground { submitBackground(at: t, into: &tBackground) }
            case 4:
                backgroundPending = false
                backgroundLaunch(at: t)
                tBackground = .infinity
                submitBackground(at: t, into: &tBackground)
            case 5:
                _ = fetch(at: t, actor: .app)
                tPush = pushClock.next(&pushRNG)
            case 6:
                glance(at: t)
                tGlance = glanceClock.next(&glanceRNG)
            case 7:
                nextRetry = .infinity
                if counted(t) { tally.retries += 1 }
                let ok = fetch(at: t, actor: retryActor)
                if ok && retryActor == .widgetExtension {
                    for i in 0..<instances { displayedContent[i] = contentTime; displayedError[i] = false }
                }
            case 9:
                budgetReset(t)
                tBudget = t + 86_400
            default:
                nextPolicy[policyInstance] = .infinity
                getTimeline(policyInstance, at: t, origin: .policy)
            }
        }
        tally.users = 1
    }

    // MARK: Handlers

    mutating func midnight(_ t: Double) {
        let endedDay = day(t) - 1
        if endedDay >= m.countedFirstDay && endedDay < m.countedEndDay {
            tally.userDays += 1
            if calendar.lowPower[endedDay] { tally.lowPowerDays += 1 }
        }
        let today = day(t)
        if today < calendar.lowPower.count, calendar.lowPower[today] != calendar.lowPower[max(today - 1, 0)] {
            observer.record(.lowPowerMode(on: calendar.lowPower[today]), local: t, utc: utc(t))
        }
    }

    /// The reload budget renews every 24 hours at a moment of the device's own (not at midnight
    /// for everyone, which would line devices up); reloads queued while it was spent run now.
    mutating func budgetReset(_ t: Double) {
        if counted(t - 1) {
            tally.instanceDays += Int64(traits.instances)
            tally.exhaustedInstanceDays += Int64(exhausted.lazy.filter { $0 }.count)
        }
        for i in 0..<traits.instances {
            budgetUsed[i] = 0
            exhausted[i] = false
            if queued[i] {
                queued[i] = false
                getTimeline(i, at: t, origin: .queued)
            }
        }
    }

    mutating func getTimeline(_ i: Int, at t: Double, origin: TimelineOrigin) {
        let exempt = m.scenario.platform.foregroundReloadsExempt && t < foregroundUntil
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

        if m.fetchOnGetTimeline {
            if let ttl = m.ttlSeconds, t - contentTime <= ttl {
                observer.record(.cacheHit, local: t, utc: utc(t))
                displayedContent[i] = contentTime
                displayedError[i] = false
            } else {
                let ok = fetch(at: t, actor: .widgetExtension)
                if ok {
                    displayedContent[i] = contentTime
                    displayedError[i] = false
                } else if m.ttlSeconds == nil {
                    displayedError[i] = true
                } else {
                    displayedContent[i] = contentTime
                }
            }
        } else {
            let fresh = m.ttlSeconds.map { t - contentTime <= $0 } ?? false
            observer.record(fresh ? .cacheHit : .cacheStale, local: t, utc: utc(t))
            displayedContent[i] = contentTime
            displayedError[i] = false
        }
        nextPolicy[i] = policyTime(after: t)
    }

    /// When the timeline built at `t` asks to be reloaded.
    mutating func policyTime(after t: Double) -> Double {
        let d = m.design
        let spacing = m.scenario.platform.minEntrySpacingMinutes * 60
        var next: Double
        switch d.reloadPolicy {
        case .never: return .infinity
        case .after(let minutes): next = t + max(minutes * 60, spacing)
        case .atEnd: next = t + max(Double(d.timelineEntries) * d.entrySpacingMinutes * 60, spacing)
        }
        return aligned(next)
    }

    /// Applies wall-clock alignment and jitter to a requested time.
    ///
    /// Aligned designs ask at the next boundary (:00, :15, ...) shifted by this device's fixed
    /// phase (0 ... jitter), so jitter spreads devices without stretching the period; unaligned
    /// designs add a fresh random delay to each request.
    mutating func aligned(_ time: Double) -> Double {
        if let minutes = m.design.alignToWallClockMinutes {
            let period = minutes * 60
            return ((time - phase) / period).rounded(.up) * period + phase
        }
        if m.design.jitterSeconds > 0 { return time + policyRNG.uniform() * m.design.jitterSeconds }
        return time
    }

    mutating func appForeground(at t: Double) {
        if counted(t) { tally.appOpens += 1 }
        observer.record(.appForeground, local: t, utc: utc(t))
        foregroundUntil = t + 1   // the exemption applies from the moment the app is active
        if m.fetchOnForeground {
            if isStale(t) {
                _ = fetch(at: t, actor: .app)
            } else {
                observer.record(.cacheHit, local: t, utc: utc(t))
            }
        }
        if m.design.reloadCalls == .everyForeground { reloadCall(at: t) }
    }

    @inline(__always) func isStale(_ t: Double) -> Bool {
        guard let ttl = m.ttlSeconds else { return true }
        return t - contentTime > ttl
    }

    mutating func submitBackground(at t: Double, into tBackground: inout Double) {
        guard m.fetchOnBackground else { return }
        if counted(t) { tally.bgSubmits += 1 }
        // Seed 000: submitting while an identical request is queued fails, which is not fatal.
        observer.record(.bgTaskSubmit(accepted: !backgroundPending), local: t, utc: utc(t))
        guard !backgroundPending else { return }
        backgroundPending = true
        tBackground = scheduleBackground(from: t)
    }

    /// When iOS launches a task submitted at `t`: not before the earliest begin date, then at a
    /// rate that gives the run's launches per day, mostly at night, almost never in Low Power Mode.
    mutating func scheduleBackground(from t: Double) -> Double {
        let earliest = aligned(t + m.backgroundIntervalSeconds)
        return backgroundClock.next(after: earliest, &backgroundRNG)
    }

    mutating func backgroundLaunch(at t: Double) {
        if counted(t) { tally.bgLaunches += 1 }
        observer.record(.bgTaskLaunch, local: t, utc: utc(t))
        var success = true
        if m.fetchOnBackground {
            if isStale(t) {
                success = fetch(at: t, actor: .background)
            } else {
                observer.record(.cacheHit, local: t, utc: utc(t))
            }
        }
        observer.record(.bgTaskComplete(success: success), local: t, utc: utc(t))
    }

    /// Sends the requests of one fetch; returns true when the content was refreshed.
    mutating func fetch(at t: Double, actor: RequestActor) -> Bool {
        let api = m.scenario.api
        let isCounted = counted(t)
        var elapsed = 0.0
        var ok = true
        var expired = false
        let slice = m.scenario.platform.taskSliceSeconds
        for _ in 0..<m.design.requestsPerFetch {
            let sendTime = t + elapsed
            if actor == .background && elapsed >= slice { expired = true; ok = false; break }
            let failure = failureProbability(atLocal: sendTime)
            let failed = apiRNG.uniform() < failure
            let duration: Double
            if failed {
                duration = apiRNG.uniform() < api.hangShareOfFailures ? api.timeoutSeconds : min(api.latencySeconds, api.timeoutSeconds) * 0.3
            } else {
                duration = min(api.latencySeconds, api.timeoutSeconds)
            }
            if isCounted {
                tally.requests += 1
                monthRequests += 1
                switch actor {
                case .widgetExtension: tally.extensionRequests += 1
                case .app: tally.appRequests += 1
                case .background: tally.backgroundRequests += 1
                }
                if failed { tally.failedRequests += 1 }
            }
            if let buckets, let minute = m.bucket(utc: utc(sendTime)) {
                buckets[minute] &+= 1
                if buckets[minute] > peakPerMinute { peakPerMinute = buckets[minute] }
                let q = minute - m.quotaStartMinute
                if let quotaDays, q >= 0, q / 1_440 < m.completeQuotaDays {
                    quotaDays[q / 1_440] += 1
                    if quotaDays[q / 1_440] > peakQuotaDay { peakQuotaDay = quotaDays[q / 1_440] }
                }
            }
            observer.record(.apiRequest(actor: actor, success: !failed, durationSeconds: duration), local: sendTime, utc: utc(sendTime))
            elapsed += duration
            if failed { ok = false; break }
            if actor == .background && elapsed > slice { expired = true; ok = false; break }
        }
        if expired {
            if isCounted { tally.bgExpirations += 1 }
            observer.record(.bgTaskExpire, local: t + slice, utc: utc(t + slice))
        }
        if isCounted {
            tally.fetches += 1
            if !ok { tally.failedFetches += 1 }
        }
        if ok {
            contentTime = t + elapsed
            retryAttempt = 0
            if actor != .widgetExtension, m.design.reloadCalls == .onceOnSuccess || m.design.reloadCalls == .everyFetch {
                reloadCall(at: t + elapsed)
            }
        } else {
            if actor != .widgetExtension, m.design.reloadCalls == .everyFetch { reloadCall(at: t + elapsed) }
            if case .backoff(let maxRetries, let base, let jitter) = m.design.retry, retryAttempt < maxRetries {
                var delay = base * Foundation.pow(2, Double(retryAttempt))
                if jitter { delay *= apiRNG.uniform() }
                retryAttempt += 1
                nextRetry = t + elapsed + delay
                retryActor = actor
            } else {
                retryAttempt = 0
            }
        }
        return ok
    }

    /// Per-minute request counts of the counted UTC window, owned by the engine (nil: not collected).
    var buckets: UnsafeMutablePointer<Int32>?
    /// Requests per complete quota day, owned by the engine (nil: not collected).
    var quotaDays: UnsafeMutablePointer<Int64>?
    /// Running peaks of the population simulated so far (carried from user to user by the engine).
    var peakPerMinute: Int32 = 0
    var peakQuotaDay: Int64 = 0
    /// Content-age histogram at glances, owned by the engine (nil: not collected).
    var ages: UnsafeMutablePointer<Int64>?

    func failureProbability(atLocal local: Double) -> Double {
        let u = utc(local)
        for o in m.outages where u >= o.start && u < o.end {
            return max(o.errorRate, m.parameters.failureProbability)
        }
        return m.parameters.failureProbability
    }

    func inOutage(_ local: Double) -> Bool {
        let u = utc(local)
        return m.outages.contains { u >= $0.start && u < $0.end }
    }

    mutating func reloadCall(at t: Double) {
        if counted(t) { tally.reloadCalls += 1 }
        observer.record(.reloadCall, local: t, utc: utc(t))
        for i in 0..<traits.instances { getTimeline(i, at: t, origin: .reloadCall) }
    }

    mutating func glance(at t: Double) {
        let isError = displayedError[0] || displayedContent[0] == -.infinity
        let age: Double? = isError ? nil : t - displayedContent[0]
        observer.record(.glance(ageSeconds: age, error: isError), local: t, utc: utc(t))
        guard counted(t) else { return }
        tally.glances += 1
        let outage = inOutage(t)
        if outage { tally.outageGlances += 1 }
        if isError {
            tally.overTargetGlances += 1
            tally.errorGlances += 1
            if outage { tally.outageErrorGlances += 1 }
            return
        }
        let threshold = max(m.ttlSeconds ?? 0, m.scenario.population.freshnessTargetMinutes * 60)
        if let age {
            if age > m.scenario.population.freshnessTargetMinutes * 60 { tally.overTargetGlances += 1 }
            if let ages { ages[AgeHistogram.index(ageSeconds: age)] += 1 }
            if age > threshold {
                tally.staleGlances += 1
                if outage { tally.outageStaleGlances += 1 }
            }
        }
    }
}
