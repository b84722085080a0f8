import Foundation
import WidgetQuotaModel
import WidgetQuotaSupport

/// Everything fixed for one (run, design) pair, shared read-only by every simulated user.
package struct SimulationModel: Sendable {
    package let scenario: Scenario
    package let design: Design
    package let run: Int
    package let parameters: RunParameters

    /// One padding day before the warm-up, so every user's local day covers the counted UTC window.
    package static let paddingDays = 1

    /// Local days simulated per user: padding, warm-up, counted days, one tail day.
    package let simulatedDays: Int
    /// First and one-past-last counted local day.
    package let countedFirstDay: Int
    package let countedEndDay: Int
    /// Counted window in UTC seconds (the per-minute buckets cover it).
    let countedStartUTC: Double
    package let countedMinutes: Int

    /// How app opens, widget activity, background launches and data changes spread over a local day.
    let appShape: DayShape
    let widgetShape: DayShape
    let backgroundShape: DayShape
    let flatShape = DayShape(weights: Array(repeating: 1, count: TimeUnits.hoursPerDay))

    /// Quantiles of the day-to-day getTimeline factor (mean-one lognormal with the scenario's
    /// spread) at `dayFactorLevels` evenly spaced levels: a day's factor is one uniform draw and a lookup.
    let dayFactorQuantiles: [Double]

    /// Draws of a user's key group before a full group gives way to the first with room.
    static let groupRedraws = 64

    /// Bits of a random draw that pick a day factor's level: 10, so 1,024 levels, finer than
    /// the spread between days could show.
    package static let dayFactorLevelBits = 10
    /// Levels of the day-factor quantile table: one per value of `dayFactorLevelBits` bits.
    package static let dayFactorLevels = 1 << dayFactorLevelBits

    /// Cumulative time-zone shares and their offsets in seconds.
    let zoneCumulative: [Double]
    let zoneOffsets: [Double]

    /// Outage windows in UTC seconds.
    private(set) var outages: [(start: Double, end: Double, errorRate: Double)]

    /// First counted minute of the first complete quota day, and the number of complete quota days.
    package let quotaStartMinute: Int
    package let completeQuotaDays: Int
    /// A requests-per-day limit counts any 24 hours in a row, not calendar days (`QuotaSettings.dayWindow`).
    package let rollingQuotaDay: Bool

    /// Launch rates for the design's background interval (nil when it does not refresh in the background).
    package let backgroundCalibration: BackgroundCalibration?

    /// The calendar's factors of each simulated local day (simulatedDays + 1 entries; all 1
    /// without a calendar).
    package let dayFactors: [DayFactors]
    /// Cumulative shares of the content keys, most popular first (a user's key is one draw).
    let keyCumulative: [Double]
    /// Cumulative shares of the key groups' popularity (a user's key beyond the first draws its
    /// group from them); empty with one group.
    let groupCumulative: [Double]
    /// Each key's data changes in UTC seconds, ascending (empty unless the design pushes
    /// broadcasts or its backend regenerates on each change, or a design of the scenario has a
    /// Live Activity).
    package let keyChanges: [[Double]]
    /// Per-user pushes follow the user's own changes drawn like a key's, confined to the
    /// calendar's change windows or the open sessions of the groups the user follows
    /// (`changeFactors`, `groupSessions`), rather than the day's shape.
    package let confinesOwnChanges: Bool
    /// The calendar's factors of UTC days −1 ... `simulatedDays`, for drawing changes (`changeTimes`).
    let changeFactors: [DayFactors]
    /// Where a glance learns whether newer data had replaced what it shows (`OutdatedSource`).
    package let outdatedSource: OutdatedSource
    /// The expected changes of what a user's fetch asks for (all their keys), for `.expected`,
    /// without key groups.
    let changeCurve: ChangeCurve?
    /// With key groups, the expected changes of one key of each group, for `.expected` (empty
    /// without groups): a user's keys of a group see that many times its curve.
    let groupChangeCurves: [ChangeCurve]
    /// The live events' windows (the days whose data changes have a window: a match), in UTC
    /// seconds of the simulation, ascending; empty unless a design of the scenario has a Live
    /// Activity, when every design of the run measures what its users saw during them.
    package let liveEventWindows: [(start: Double, end: Double)]
    /// The counted days (0-based) of the calendar's events, in the calendar's order.
    package let eventDays: [Int]
    /// The key group of each content key, most popular first (`SharedContent.keyGroups`).
    package let keyGroups: [Int]
    /// Each key group's open sessions over the simulated days and the day before, in seconds
    /// from UTC midnight of day 1 (nil: a group whose data changes at any hour).
    let groupSessions: [[OpenHours.Session]?]
    /// The multiplier of the run's data changes for each key group's keys (`content.groups`).
    package let groupChangeFactors: [Double]
    /// For each key group and counted minute, whether the group's hours hold it (nil: any hour).
    package let groupOpenMinutes: [[Bool]?]
    /// The hours of the users who follow each combination of key groups, by bit mask (bit g:
    /// group g; entry 0 unused): a user's data can change whenever one of their groups is open.
    package let hourSets: [HourSet]
    /// Each counted UTC day's class for pooling the load of days alike (`LoadProjection`): 0 for
    /// every day without open hours; with them, one class per set of session minutes in the UTC
    /// day (a session moves with daylight saving), closed days among them, numbered from 0.
    package let dayClasses: [Int]

    /// When the data of the users who follow some key groups can change.
    package struct HourSet: Sendable {
        /// For each counted minute, whether it is open (nil: every minute).
        package var openMinutes: [Bool]?
        /// The open sessions over the whole simulated window, in UTC seconds of the simulation,
        /// overlapping ones merged (nil: open all the time).
        package var sessions: [(start: Double, end: Double)]?
    }

    /// - Parameter backgroundCalibration: launch rates for this design's background interval and
    ///   the scenario's background shape, when the caller has them already (they take a few
    ///   milliseconds to compute, and every run of a design shares them); computed when nil.
    package init(
        scenario: Scenario, design: Design, run: Int, parameters: RunParameters,
        backgroundCalibration: BackgroundCalibration? = nil
    ) {
        self.scenario = scenario
        self.design = design
        self.run = run
        self.parameters = parameters
        let h = scenario.horizon
        countedFirstDay = SimulationModel.paddingDays + h.warmupDays
        countedEndDay = countedFirstDay + h.days
        simulatedDays = countedEndDay + 1
        countedStartUTC = Double(countedFirstDay) * .secondsPerDay
        countedMinutes = h.days * TimeUnits.minutesPerDay

        let activity = scenario.population.activity
        appShape = DayShape(weights: activity.app)
        widgetShape = DayShape(weights: activity.widget)
        backgroundShape = DayShape(weights: activity.background)
        if design.fetchTriggers.contains(.backgroundTask) {
            let interval = SimulationModel.backgroundIntervalHours(design, scenario)
            self.backgroundCalibration =
                backgroundCalibration?.intervalHours == interval
                ? backgroundCalibration
                : BackgroundCalibration(shape: backgroundShape, intervalHours: interval)
        } else {
            self.backgroundCalibration = nil
        }

        let cv = scenario.platform.getTimelineDaySpread
        let sigma = Foundation.log(1 + cv * cv).squareRoot()
        let count = SimulationModel.dayFactorLevels
        let levels = (0..<count).map { (level: Int) -> Double in
            let quantile: Double = Distribution.normalQuantile((Double(level) + 0.5) / Double(count))
            return Foundation.exp(-sigma * sigma / 2 + sigma * quantile)
        }
        let levelMean = levels.reduce(0, +) / Double(levels.count)
        dayFactorQuantiles = levels.map { $0 / levelMean }

        let zones = scenario.population.timeZones
        let total = zones.reduce(0) { $0 + $1.share }
        var running = 0.0
        zoneCumulative = zones.map {
            running += $0.share / total
            return running
        }
        zoneOffsets = zones.map { $0.utcOffsetHours * .secondsPerHour }

        // In time order, whatever order the scenario lists them in: the storm follows the earliest.
        outages = scenario.api.outages.map { o in
            let start = Double(SimulationModel.paddingDays + h.warmupDays + o.day - 1) * .secondsPerDay + o.startHourUTC * .secondsPerHour
            return (start, start + o.durationHours * .secondsPerHour, o.errorRate)
        }.sorted { $0.start < $1.start }

        // A backend serves its cached answer through a provider outage: devices see none.
        if design.backend != nil { outages = [] }

        let calendar = scenario.calendar
        let firstDay = countedFirstDay
        dayFactors = (0...simulatedDays).map { calendar.factors(ofDay: $0 - firstDay + 1) }
        eventDays = calendar.events.map { $0.day - 1 }
        // The open sessions of every simulated day and the day before, read once per key group
        // (each is a calendar computation in the session's time zone); the counted window clips
        // them below.
        let groupHours = scenario.groupHours
        let sessionDays = (-countedFirstDay)...(simulatedDays + 1 - countedFirstDay)
        groupSessions = groupHours.map { calendar.sessions(of: $0, days: sessionDays) }
        keyGroups = scenario.content.keyGroups
        groupChangeFactors = scenario.groupChangeFactors
        groupOpenMinutes = groupSessions.map { $0.map { SimulationModel.openMinutes(sessions: $0, days: h.days) } }
        hourSets = SimulationModel.hourSets(groupSessions: groupSessions, firstCountedDay: countedFirstDay, days: h.days)
        dayClasses = SimulationModel.dayClasses(groupSessions: groupSessions, days: h.days)
        let shares = scenario.content.shares
        var keyRunning = 0.0
        keyCumulative = shares.map {
            keyRunning += $0
            return keyRunning
        }
        if groupSessions.count > 1 {
            var running = 0.0
            groupCumulative = SharedContent.followShares(shares: shares, keyGroups: keyGroups, groups: groupSessions.count).map {
                running += $0
                return running
            }
        } else {
            groupCumulative = []
        }
        let tracksLiveEvents = scenario.designs.contains { $0.liveActivity != nil } && calendar.hasLiveEvents
        liveEventWindows =
            tracksLiveEvents
            ? (-1...simulatedDays).compactMap { utcDay in
                calendar.factors(ofDay: utcDay - firstDay + 1).changeWindow.map { window in
                    let start = Double(utcDay) * .secondsPerDay + window.start * .secondsPerHour
                    return (start, start + window.hours * .secondsPerHour)
                }
            } : []
        let hasOpenHours = groupSessions.contains { $0 != nil }
        confinesOwnChanges = design.sendsPushes && design.pushes == .perUser && (hasOpenHours || calendar.hasLiveEvents)
        changeFactors =
            confinesOwnChanges ? SimulationModel.changeFactors(scenario: scenario, firstCountedDay: firstDay, days: simulatedDays) : []
        let needsChanges =
            design.followsKeyChanges || tracksLiveEvents
        keyChanges =
            needsChanges
            ? SimulationModel.keyChanges(
                scenario: scenario, run: run, perDay: parameters.dataChangesPerDay, firstCountedDay: firstDay, days: simulatedDays,
                keyGroups: keyGroups, groupSessions: groupSessions, groupChangeFactors: groupChangeFactors)
            : []

        if design.sendsPushes && design.pushes == .perUser {
            outdatedSource = .ownChanges
        } else if design.followsKeyChanges {
            outdatedSource = .keyChanges
        } else {
            // Also beside a Live Activity design, which draws the changes for every design: the
            // expected chance keeps this design's figure what it is without one.
            outdatedSource = .expected
        }
        let offset = Double(countedFirstDay) * .secondsPerDay
        let days = simulatedDays
        func curve(perDay: Double, sessions: [OpenHours.Session]?) -> ChangeCurve {
            ChangeCurve(
                scenario: scenario, perDay: perDay, firstCountedDay: firstDay, days: days,
                sessions: sessions?.map { ($0.day, offset + $0.start, offset + $0.end) })
        }
        let grouped = groupSessions.count > 1
        changeCurve =
            outdatedSource == .expected && !grouped
            ? curve(
                perDay: parameters.dataChangesPerDay * groupChangeFactors[0] * scenario.content.meanKeysPerUser,
                sessions: groupSessions[0]) : nil
        let factors = groupChangeFactors
        let sessionsByGroup = groupSessions
        let perKeyDay = parameters.dataChangesPerDay
        groupChangeCurves =
            outdatedSource == .expected && grouped
            ? sessionsByGroup.indices.map { curve(perDay: perKeyDay * factors[$0], sessions: sessionsByGroup[$0]) } : []

        let start = Int((-scenario.quotas.resetUTCOffsetHours * .minutesPerHour).rounded())
        quotaStartMinute = ((start % TimeUnits.minutesPerDay) + TimeUnits.minutesPerDay) % TimeUnits.minutesPerDay
        completeQuotaDays = max(0, (countedMinutes - quotaStartMinute) / TimeUnits.minutesPerDay)
        rollingQuotaDay = scenario.quotas.dayWindow == .rolling24h

    }

    /// Classes of the counted UTC days by the minutes of every key group's sessions that overlap
    /// them (all 0 without sessions); sessions in seconds from UTC midnight of day 1.
    static func dayClasses(groupSessions: [[OpenHours.Session]?], days: Int) -> [Int] {
        guard groupSessions.contains(where: { $0 != nil }) else { return [Int](repeating: 0, count: days) }
        var keys = [[Int]](repeating: [], count: days)
        for (g, sessions) in groupSessions.enumerated() {
            // A group's minutes follow its number, so that two groups' sessions never read alike.
            for day in 0..<days { keys[day].append(-1 - g) }
            for session in sessions ?? [] {
                let first = Int((session.start / .secondsPerMinute).rounded(.up))
                let end = Int((session.end / .secondsPerMinute).rounded(.up))
                guard first < end, end > 0 else { continue }
                for day in (max(first, 0) / TimeUnits.minutesPerDay)...((end - 1) / TimeUnits.minutesPerDay) where day < days {
                    let dayStart = day * TimeUnits.minutesPerDay
                    keys[day] += [max(first, dayStart) - dayStart, min(end, dayStart + TimeUnits.minutesPerDay) - dayStart]
                }
            }
        }
        var index = [[Int]: Int]()
        return keys.map { key in
            if let i = index[key] { return i }
            index[key] = index.count
            return index.count - 1
        }
    }

    /// For each of `days` counted days' minutes, whether one of `sessions` (seconds from UTC
    /// midnight of day 1) holds it: a minute is open when it starts within a session.
    static func openMinutes(sessions: [OpenHours.Session], days: Int) -> [Bool] {
        var open = [Bool](repeating: false, count: days * TimeUnits.minutesPerDay)
        for session in sessions {
            let first = max(Int((session.start / .secondsPerMinute).rounded(.up)), 0)
            let end = min(Int((session.end / .secondsPerMinute).rounded(.up)), open.count)
            if first < end { for m in first..<end { open[m] = true } }
        }
        return open
    }

    /// The hours of each combination of key groups (`hourSets`): the union of their sessions
    /// over the simulated days, open all the time when one group is.
    static func hourSets(groupSessions: [[OpenHours.Session]?], firstCountedDay: Int, days: Int) -> [HourSet] {
        let offset = Double(firstCountedDay) * .secondsPerDay
        let firstSimulatedDay = 1 - firstCountedDay
        return (0..<(1 << groupSessions.count)).map { mask in
            let members = groupSessions.indices.filter { mask & (1 << $0) != 0 }
            guard !members.isEmpty, members.allSatisfy({ groupSessions[$0] != nil }) else { return HourSet() }
            let all = members.flatMap { groupSessions[$0] ?? [] }.sorted { $0.start < $1.start }
            var merged: [OpenHours.Session] = []
            for session in all {
                if let last = merged.last, session.start <= last.end {
                    merged[merged.count - 1].end = max(last.end, session.end)
                } else {
                    merged.append(session)
                }
            }
            // Policy reloads need the simulated days' sessions; the day before is for key changes.
            return HourSet(
                openMinutes: openMinutes(sessions: merged, days: days),
                sessions: merged.filter { $0.day >= firstSimulatedDay }.map { (offset + $0.start, offset + $0.end) })
        }
    }

    /// Each content key's data changes over the simulated window and the day before it, in UTC
    /// seconds: a Poisson process of `perDay` a day times the day's calendar factor, spread over
    /// the day or its change window. Drawn per (run, key), so every design of a run sees the
    /// same changes.
    /// - Parameters:
    ///   - keyGroups: each key's group.
    ///   - groupSessions: each group's open sessions over those days (seconds from UTC midnight
    ///     of day 1), which confine each open day's changes of its keys; nil for any hour.
    ///   - groupChangeFactors: each group's multiplier of `perDay`.
    static func keyChanges(
        scenario: Scenario, run: Int, perDay: Double, firstCountedDay: Int, days: Int, keyGroups: [Int],
        groupSessions: [[OpenHours.Session]?], groupChangeFactors: [Double]
    ) -> [[Double]] {
        // The same calendar for every key: read once.
        let factors = changeFactors(scenario: scenario, firstCountedDay: firstCountedDay, days: days)
        return (0..<max(scenario.content.keys, 1)).map { key in
            var rng = RandomStream(seed: scenario.horizon.seed, .contentChanges, UInt64(run), UInt64(key))
            return changeTimes(
                scenario: scenario, perDay: perDay * groupChangeFactors[keyGroups[key]], firstCountedDay: firstCountedDay,
                factors: factors, sessions: groupSessions[keyGroups[key]], random: &rng)
        }
    }

    /// A user's own data changes (per-user pushes, `confinesOwnChanges`) in UTC seconds,
    /// ascending: `perDay` a day times the user's keys' mean change factor, each key group's part
    /// (its keys times its factor) in its hours.
    static func ownChangeTimes(
        model: borrowing SimulationModel, perDay: Double, keysByGroup: SIMD4<Double>, random rng: inout RandomStream
    ) -> [Double] {
        let groups = model.groupSessions.count
        guard groups > 1 else {
            return changeTimes(
                scenario: model.scenario, perDay: perDay * model.groupChangeFactors[0], firstCountedDay: model.countedFirstDay,
                factors: model.changeFactors, sessions: model.groupSessions[0], random: &rng)
        }
        let keys = (0..<groups).reduce(0) { $0 + keysByGroup[$1] }
        var times: [Double] = []
        for g in 0..<groups where keysByGroup[g] > 0 {
            times += changeTimes(
                scenario: model.scenario, perDay: perDay * model.groupChangeFactors[g] * keysByGroup[g] / keys,
                firstCountedDay: model.countedFirstDay,
                factors: model.changeFactors, sessions: model.groupSessions[g], random: &rng)
        }
        return times.sorted()
    }

    /// The calendar's factors of UTC days −1 ... `days` of the simulation, in order.
    static func changeFactors(scenario: Scenario, firstCountedDay: Int, days: Int) -> [DayFactors] {
        (-1...days).map { scenario.calendar.factors(ofDay: $0 - firstCountedDay + 1) }
    }

    /// One series of data changes over the simulated window and the day before it, in UTC
    /// seconds, ascending: a Poisson process of `perDay` a day times the day's calendar factor
    /// (`factors`, from `changeFactors`), spread over the day, its change window or its open
    /// session, drawn from `random`.
    static func changeTimes(
        scenario: Scenario, perDay: Double, firstCountedDay: Int, factors: [DayFactors], sessions: [OpenHours.Session]?,
        random rng: inout RandomStream
    ) -> [Double] {
        let offset = Double(firstCountedDay) * .secondsPerDay
        var times = [Double]()
        if let sessions {
            for session in sessions {
                let expected = perDay * scenario.calendar.factors(ofDay: session.day).dataChanges
                guard expected > 0 else { continue }
                let length = session.end - session.start
                var position = rng.exponential() / expected
                while position < 1 {
                    times.append(offset + session.start + position * length)
                    position += rng.exponential() / expected
                }
            }
            return times
        }
        for (index, f) in factors.enumerated() {
            let utcDay = index - 1
            let expected = perDay * f.dataChanges
            guard expected > 0 else { continue }
            let window = f.changeWindow ?? (0, 24)
            let start = Double(utcDay) * .secondsPerDay + window.start * .secondsPerHour
            let length = window.hours * .secondsPerHour
            var position = rng.exponential() / expected
            while position < 1 {
                times.append(start + position * length)
                position += rng.exponential() / expected
            }
        }
        return times
    }

    /// The same run and design on ordinary days: no outage windows, for measuring loads as they
    /// are without the outages (the simulation itself still ran with them).
    package func withoutOutages() -> SimulationModel {
        var calm = self
        calm.outages = []
        return calm
    }

    /// The earliest-begin interval a design's background task asks for.
    static func backgroundIntervalHours(_ design: Design, _ scenario: Scenario) -> Double {
        design.backgroundIntervalHours ?? scenario.platform.backgroundEarliestBeginHours
    }

    /// The counted minute a UTC time falls in (negative before the window, past its end after it).
    func countedMinute(utc: Double) -> Int {
        Int(((utc - countedStartUTC) / .secondsPerMinute).rounded(.down))
    }

    /// The counted UTC minute of a UTC time, or nil outside the window.
    @inline(__always) func bucket(utc: Double) -> Int? {
        guard utc >= countedStartUTC else { return nil }
        let m = Int((utc - countedStartUTC) * (1.0 / .secondsPerMinute))
        return m < countedMinutes ? m : nil
    }
}

/// How one simulated user differs from the others ("how users differ", drawn inside a run).
package struct UserTraits: Sendable, Equatable {
    package var utcOffsetSeconds: Double
    package var smartStack: Bool
    package var instances: Int
    package var rarelyViewed: Bool
    package var budgetPerInstance: Int
    /// getTimeline calls per instance per day that WidgetKit makes on its own, whatever the
    /// policy (before the day-to-day factor); the policy's and the app's come on top.
    package var systemReloadsPerDay: Double
    /// Times a day Smart Stack rotates the widget into view (0 outside a stack).
    package var smartStackRotationsPerDay: Double
    /// Taps a day on the widget's buttons (they reload it in designs with `interactive`).
    package var tapsPerDay: Double
    package var appOpensPerDay: Double
    package var glancesPerDay: Double
    package var lowPowerProbability: Double
    package var backgroundRunsPerDay: Double
    /// When in the local day (seconds after midnight, perhaps negative or past a day) this
    /// user's phone goes idle for the night, and for how long; policy reloads falling due then
    /// wait for the night's end.
    package var idleStartSeconds: Double
    package var idleSeconds: Double
    /// The content key the user follows (0: the most popular).
    package var contentKey: Int
    /// Whether the user force-quits the app, so that iOS launches it neither for a silent push
    /// nor for background refresh.
    package var forceQuits: Bool
    /// Whether Background App Refresh is off for the app.
    package var backgroundRefreshOff: Bool
    /// Keys the user follows (`content.keysPerUserMix`, else `content.keysPerUser`).
    package var keysFollowed: Int
    /// How many of those keys belong to each key group (`content.groups`; all in the first
    /// without groups): the first key's group, and each other key's drawn by popularity.
    package var keysByGroup: SIMD4<Double>
    /// The groups the user follows as a bit mask (bit g: group g), which picks the user's hours
    /// (`SimulationModel.hourSets`).
    package var hourSet: Int

    /// Draws the traits of user `user` in `model`'s run; independent of the design (common random numbers).
    package init(model: borrowing SimulationModel, user: Int) {
        let s = model.scenario
        let p = model.parameters
        var rng = RandomStream(seed: s.horizon.seed, .userTraits, UInt64(model.run), UInt64(user))
        let zoneDraw = rng.uniform()
        let zone = model.zoneCumulative.firstIndex { zoneDraw < $0 } ?? (model.zoneCumulative.count - 1)
        utcOffsetSeconds = model.zoneOffsets[zone]
        smartStack = rng.bernoulli(p.smartStackShare)
        instances = rng.bernoulli(p.multiWidgetShare) ? s.population.instancesWhenMulti : 1
        rarelyViewed = rng.bernoulli(s.population.rarelyViewedShare)
        let platform = s.platform
        if rarelyViewed {
            budgetPerInstance = platform.rarelyViewedBudget
        } else {
            let span = platform.reloadBudgetMax - platform.reloadBudgetMin + 1
            budgetPerInstance = platform.reloadBudgetMin + Int(rng.next() % UInt64(max(span, 1)))
        }
        let userFactor = UserTraits.meanOneLognormal(cv: platform.getTimelineUserSpread, &rng)
        systemReloadsPerDay =
            (p.systemReloadsPerDay + (smartStack ? p.smartStackReloadsPerDay : 0)) * userFactor
            * (rarelyViewed ? platform.rarelyViewedReloadFactor : 1)
        let opens = rng.bernoulli(p.neverOpenShare) ? 0 : p.appOpensPerDay
        appOpensPerDay = opens * UserTraits.meanOneLognormal(cv: s.population.appOpensUserSpread, &rng)
        glancesPerDay =
            p.glancesPerDay * UserTraits.meanOneLognormal(cv: ModelAssumptions.glancesUserSpread, &rng)
            * (rarelyViewed ? ModelAssumptions.rarelyViewedGlanceShare : 1)
        // Low Power Mode habits differ: a beta with the run's mean share.
        let share = min(max(p.lowPowerDayShare, 0), 1)
        if share <= 0 || share >= 1 {
            lowPowerProbability = share
        } else {
            let a = share * ModelAssumptions.lowPowerHabitConcentration
            let b = (1 - share) * ModelAssumptions.lowPowerHabitConcentration
            let x = rng.gamma(shape: a)
            let y = rng.gamma(shape: b)
            lowPowerProbability = x + y > 0 ? x / (x + y) : share
        }
        backgroundRunsPerDay = p.backgroundRunsPerDay * UserTraits.meanOneLognormal(cv: ModelAssumptions.backgroundRunsUserSpread, &rng)
        let shift = (2 * rng.uniform() - 1) * ModelAssumptions.idleStartUserShiftHours
        idleStartSeconds = (s.population.idleStartHour + shift) * .secondsPerHour
        idleSeconds = s.population.idleHours * .secondsPerHour
        // Their own stream, so that adding keys changes no other trait.
        var keyRNG = RandomStream(seed: s.horizon.seed, .contentKey, UInt64(model.run), UInt64(user))
        let keyDraw = keyRNG.uniform()
        // The first key whose cumulative share passes the draw (a binary search: up to 100,000 keys).
        var low = 0
        var high = max(model.keyCumulative.count - 1, 0)
        while low < high {
            let mid = (low + high) / 2
            if keyDraw < model.keyCumulative[mid] { high = mid } else { low = mid + 1 }
        }
        contentKey = low
        forceQuits = keyRNG.bernoulli(s.population.forceQuitShare)
        backgroundRefreshOff = keyRNG.bernoulli(p.backgroundRefreshOffShare)
        keysFollowed = s.content.keysPerUserMix == nil ? max(s.content.keysPerUser, 1) : s.content.keysFollowed(draw: keyRNG.uniform())
        keysByGroup = SIMD4(Double(keysFollowed), 0, 0, 0)
        hourSet = 1
        if !model.groupCumulative.isEmpty {
            let first = model.keyGroups[contentKey]
            var counts = SIMD4<Double>()
            counts[first] = 1
            let groups = s.content.groups ?? []
            // A group holds so many keys: one that is full is drawn again (a user follows at most
            // `content.keys`, so one has room), up to a bound, then the first with room takes it.
            func hasRoom(_ g: Int) -> Bool { g >= groups.count || counts[g] < Double(groups[g].keys) }
            for _ in 1..<max(keysFollowed, 1) {
                var g = 0
                for _ in 0..<SimulationModel.groupRedraws {
                    let draw = keyRNG.uniform() * (model.groupCumulative.last ?? 1)
                    g = model.groupCumulative.firstIndex { draw < $0 } ?? (model.groupCumulative.count - 1)
                    if hasRoom(g) { break }
                }
                if !hasRoom(g) { g = groups.indices.first(where: hasRoom) ?? g }
                counts[g] += 1
            }
            keysByGroup = counts
            hourSet = (0..<model.groupCumulative.count).reduce(0) { $0 | (counts[$1] > 0 ? 1 << $1 : 0) }
        }
        smartStackRotationsPerDay = smartStack ? max(p.smartStackRotationsPerDay, 0) : 0
        tapsPerDay = max(p.interactiveTapsPerDay, 0) * (rarelyViewed ? ModelAssumptions.rarelyViewedGlanceShare : 1)
        // iOS launches background refresh before the times it predicts the app is used: never
        // for an app that is not used, that the user swipes away from the app switcher, or with
        // the switch off (WWDC20 "Background execution demystified").
        if opens == 0 || forceQuits || backgroundRefreshOff { backgroundRunsPerDay = 0 }
    }

    /// A lognormal factor with mean 1 and the given coefficient of variation.
    static func meanOneLognormal(cv: Double, _ rng: inout RandomStream) -> Double {
        guard cv > 0 else { return 1 }
        let sigma2 = Foundation.log(1 + cv * cv)
        return Foundation.exp(-sigma2 / 2 + sigma2.squareRoot() * rng.standardNormal())
    }
}

/// Where a glance learns whether a newer value had replaced the content it shows.
package enum OutdatedSource: Sendable, Equatable {
    /// The changes of the user's key as drawn (designs that fetch on them: broadcast pushes, a
    /// backend that regenerates on each change); the key whose changes send the pushes, the
    /// first a user follows.
    case keyChanges
    /// The user's own data changes, which the design's per-user pushes announce.
    case ownChanges
    /// The chance of a change since the content's time (`ChangeCurve`), for designs whose fetches
    /// do not follow the changes.
    case expected
}
