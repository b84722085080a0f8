import Foundation
import WidgetQuotaModel
import WidgetQuotaSupport

/// The design and scenario figures the event loop reads, resolved once per (run, design) into
/// plain scalars, so the hot path never walks the scenario's nested structs, optionals or enums.
package struct SimulationConstants: Sendable {
    // Days and windows.
    let simulatedDays: Int
    let countedFirstDay: Int
    let countedEndDay: Int
    /// Counted window in local seconds: [countedFirstDay, countedEndDay) days.
    let countedStartLocal: Double
    let countedEndLocal: Double
    let endLocal: Double
    let countedStartUTC: Double
    let countedMinutes: Int
    let quotaStartMinute: Int
    let completeQuotaDays: Int
    /// Minutes in the complete quota days.
    let completeQuotaMinutes: Int

    // Triggers and cache.
    let fetchOnGetTimeline: Bool
    let fetchOnForeground: Bool
    let fetchOnBackground: Bool
    let fetchOnPush: Bool
    /// WidgetKit push notifications reload the widget on each data change.
    let widgetPushes: Bool
    /// Data changes reach the device at all (a silent push, a WidgetKit push or both).
    let hasPushes: Bool
    let hasTTL: Bool
    /// The TTL in seconds (0 when there is none; check `hasTTL`).
    let ttl: Double
    let freshnessTargetSeconds: Double
    /// max(TTL, freshness target): older content counts as stale at a glance.
    let staleThreshold: Double

    // Platform.
    let foregroundSeconds: Double
    let foregroundReloadsExempt: Bool
    let backgroundIntervalSeconds: Double
    let backgroundIntervalHours: Double
    let dataChangesPerDay: Double
    let taskSliceSeconds: Double
    let lowPowerBackgroundFactor: Double

    // Pushes and the backend.
    /// Pushes follow the content key's changes (broadcast) rather than the user's own.
    let broadcastPushes: Bool
    let deliveryWindowSeconds: Double
    /// `silentPushDeliveryShare` as a `RandomStream.bernoulli(threshold:)` threshold.
    let pushDeliveryThreshold: UInt64
    let silentPushesPerHour: Double
    /// Most silent pushes delivered in a local day (whole pushes).
    let silentPushesPerDay: Int
    let silentPushesInLowPower: Bool
    /// The oldest the backend's answer can be when a device fetches it (0: no backend).
    let backendLagSeconds: Double

    // Reload policy, alignment and jitter.
    let policyNever: Bool
    /// Policy reloads that would fall while the user's key groups are closed wait for their next
    /// opening (for a user who follows a group open at every hour, none does).
    let policyFollowsHours: Bool
    /// Seconds from building a timeline to its policy reload (before alignment and jitter).
    package let policyDelay: Double
    /// WidgetKit's minimum spacing between reloads, in seconds (at least 1).
    package let minReloadSpacing: Double
    package let aligned: Bool
    /// Alignment period in seconds (aligned designs).
    package let alignPeriod: Double
    let jitterSeconds: Double
    /// Mean seconds by which WidgetKit runs a policy reload after its date (0: at the date).
    let policyLatenessSeconds: Double
    /// Taps on the widget's buttons reload the tapped instance (`Design.interactive`).
    let interactive: Bool
    /// Requests each tap's intent sends (`Design.requestsPerTap`; 0 unless `interactive`).
    let requestsPerTap: Int
    let reloadCalls: Design.ReloadCalls

    // API.
    /// Requests a fetch sends: for a design that sends a request per key when users follow
    /// different numbers of keys (`content.keysPerUserMix`), per key, times each user's keys.
    let requestsPerFetch: Int
    /// True when each user's fetch sends `requestsPerFetch` times the keys it follows.
    let requestsPerKeyOfUser: Bool
    /// The most requests any user's fetch sends.
    let maxRequestsPerFetch: Int
    let successSeconds: Double
    let timeoutSeconds: Double
    let fastFailureSeconds: Double
    let hangShareOfFailures: Double
    let failureProbability: Double
    /// `failureProbability` as a `RandomStream.bernoulli(threshold:)` threshold.
    let failureThreshold: UInt64
    let retries: Bool
    let maxRetries: Int
    let retryBaseSeconds: Double
    let retryJitter: Bool
    /// Earliest outage start and latest outage end in UTC seconds (an empty range without outages).
    private(set) var outageFrom: Double
    private(set) var outageTo: Double

    /// The same constants with no outage: every request fails at the usual rate.
    func withoutOutages() -> SimulationConstants {
        var calm = self
        calm.outageFrom = .infinity
        calm.outageTo = -.infinity
        return calm
    }

    /// The longest a fetch can take to send its requests: each one timing out.
    var longestFetchSeconds: Double {
        Double(maxRequestsPerFetch) * Swift.max(timeoutSeconds, successSeconds, fastFailureSeconds)
    }

    init(model m: SimulationModel) {
        let s = m.scenario
        let d = m.design
        simulatedDays = m.simulatedDays
        countedFirstDay = m.countedFirstDay
        countedEndDay = m.countedEndDay
        countedStartLocal = Double(m.countedFirstDay) * .secondsPerDay
        countedEndLocal = Double(m.countedEndDay) * .secondsPerDay
        endLocal = Double(m.simulatedDays) * .secondsPerDay
        countedStartUTC = m.countedStartUTC
        countedMinutes = m.countedMinutes
        quotaStartMinute = m.quotaStartMinute
        completeQuotaDays = m.completeQuotaDays
        completeQuotaMinutes = m.completeQuotaDays * TimeUnits.minutesPerDay

        fetchOnGetTimeline = d.fetchTriggers.contains(.getTimeline)
        fetchOnForeground = d.fetchTriggers.contains(.appForeground)
        fetchOnBackground = d.fetchTriggers.contains(.backgroundTask)
        fetchOnPush = d.fetchTriggers.contains(.push)
        widgetPushes = d.fetchTriggers.contains(.widgetPush)
        hasPushes = fetchOnPush || widgetPushes
        hasTTL = d.cacheTTLMinutes != nil
        ttl = (d.cacheTTLMinutes ?? 0) * .secondsPerMinute
        freshnessTargetSeconds = s.population.freshnessTargetMinutes * .secondsPerMinute
        staleThreshold = max(ttl, freshnessTargetSeconds)

        foregroundSeconds = s.population.foregroundMinutes * .secondsPerMinute
        foregroundReloadsExempt = s.platform.foregroundReloadsExempt
        backgroundIntervalHours = SimulationModel.backgroundIntervalHours(d, s)
        backgroundIntervalSeconds = backgroundIntervalHours * .secondsPerHour
        dataChangesPerDay = m.parameters.dataChangesPerDay
        taskSliceSeconds = s.platform.taskSliceSeconds
        lowPowerBackgroundFactor = s.platform.backgroundLowPowerFactor
        broadcastPushes = d.pushes == .broadcast
        deliveryWindowSeconds = s.content.deliveryWindowSeconds
        pushDeliveryThreshold = RandomStream.threshold(m.parameters.silentPushDeliveryShare)
        silentPushesPerHour = s.platform.silentPushesPerHour
        silentPushesPerDay = Int(min(max(m.parameters.silentPushesPerDay, 0), 86_400).rounded())
        silentPushesInLowPower = s.platform.silentPushesInLowPower
        backendLagSeconds = (d.backend?.generationLagMinutes ?? 0) * .secondsPerMinute

        // At least a second, even for an unvalidated scenario: a reload due at the moment of the
        // previous one would repeat without end while the app is in the foreground.
        let spacing = max(s.platform.minEntrySpacingMinutes * .secondsPerMinute, 1)
        minReloadSpacing = spacing
        switch d.reloadPolicy {
        case .never:
            policyNever = true
            policyDelay = .infinity
        case .after(let minutes):
            policyNever = false
            policyDelay = max(minutes * .secondsPerMinute, spacing)
        case .atEnd:
            // The first entry is dated when the timeline is built, the last (entries − 1) spacings
            // later; WidgetKit reloads once that date has passed (the timeline-model article).
            policyNever = false
            policyDelay = max(Double(max(d.timelineEntries - 1, 0)) * d.entrySpacingMinutes * .secondsPerMinute, spacing)
        }
        aligned = d.alignToWallClockMinutes != nil
        policyFollowsHours = d.policyFollowsHours && m.hourSets.contains { $0.sessions != nil }
        alignPeriod = (d.alignToWallClockMinutes ?? 0) * .secondsPerMinute
        jitterSeconds = d.jitterSeconds
        policyLatenessSeconds = max(m.parameters.policyLatenessMinutes, 0) * .secondsPerMinute
        interactive = d.interactive
        requestsPerTap = d.interactive ? d.requestsPerTap : 0
        reloadCalls = d.reloadCalls

        let api = s.api
        requestsPerFetch = d.requestsPerFetch
        requestsPerKeyOfUser = d.requestPerKey && d.backend == nil && s.content.keysPerUserMix != nil
        maxRequestsPerFetch = d.requestsPerFetch * (requestsPerKeyOfUser ? s.content.maxKeysPerUser : 1)
        successSeconds = min(api.latencySeconds, api.timeoutSeconds)
        timeoutSeconds = api.timeoutSeconds
        fastFailureSeconds = min(api.latencySeconds, api.timeoutSeconds) * 0.3
        hangShareOfFailures = api.hangShareOfFailures
        failureProbability = m.parameters.failureProbability
        failureThreshold = RandomStream.threshold(failureProbability)
        if case .backoff(let n, let base, let jitter) = d.retry {
            retries = true
            maxRetries = n
            retryBaseSeconds = base
            retryJitter = jitter
        } else {
            retries = false
            maxRetries = 0
            retryBaseSeconds = 0
            retryJitter = false
        }
        outageFrom = m.outages.map(\.start).min() ?? .infinity
        outageTo = m.outages.map(\.end).max() ?? -.infinity
    }
}

/// How a process spreads its events over the hours of a day, as raw tables the clocks read.
package struct ShapeTable {
    /// 25 cumulative shares (0 ... 1).
    let cumulative: UnsafePointer<Double>
    /// 24 seconds-per-share factors.
    let secondsPerShare: UnsafePointer<Double>
    /// 24 offsets: an event at share `s` of the day in hour `h` is at `offset[h] + s × secondsPerShare[h]`
    /// seconds into the day.
    let offset: UnsafePointer<Double>
    /// For each of `hourSlots` equal slices of the day's share, the last hour whose cumulative
    /// share is at or below the slice's start. Fine enough that an hour boundary falls inside
    /// fewer than 1% of the slices, so the lookup's correction step almost never runs.
    let hourAtShare: UnsafePointer<UInt8>

    package static let hourSlots = 4_096
    /// Doubles a table takes: cumulative, seconds per share, offsets.
    package static let doubles = 25 + 24 + 24

    /// Writes the tables of `shape` into `doubles` (`ShapeTable.doubles` entries) and `slots`
    /// (`hourSlots` entries), and returns a view of them.
    package static func write(_ shape: DayShape, doubles: UnsafeMutablePointer<Double>, slots: UnsafeMutablePointer<UInt8>) -> ShapeTable {
        for i in 0..<25 { doubles[i] = shape.cumulative[i] }
        for i in 0..<TimeUnits.hoursPerDay {
            doubles[25 + i] = shape.secondsPerShare[i]
            doubles[49 + i] = Double(i) * .secondsPerHour - shape.cumulative[i] * shape.secondsPerShare[i]
        }
        var hour = 0
        for slot in 0..<hourSlots {
            let start = Double(slot) / Double(hourSlots)
            while hour < 23 && shape.cumulative[hour + 1] <= start { hour += 1 }
            slots[slot] = UInt8(hour)
        }
        return ShapeTable(cumulative: doubles, secondsPerShare: doubles + 25, offset: doubles + 49, hourAtShare: slots)
    }

    /// The hour of the day that share `share` (0 ... 1) falls in.
    @inline(__always) package func hour(atShare unclamped: Double) -> Int {
        // Shares are never negative by construction; a rounding slip below 0 must not wrap
        // to the last slot.
        let share = max(unclamped, 0)
        // The slot is share × slots rounded down, found by rounding share × slots − ½ to nearest
        // through the float's bits (no range checks: `Int(_: Double)` traps, so it tests and
        // branches). The result is that slot or the one before (at exact ties), or wraps to
        // 0 at share = 1; an hour at or before the right one, which the scan below corrects.
        let rounded = (share * Double(ShapeTable.hourSlots) - 0.5) + 0x1.8p52
        let slot = Int(truncatingIfNeeded: rounded.bitPattern) & (ShapeTable.hourSlots - 1)
        var hour = Int(hourAtShare[slot])
        while hour < 23 && cumulative[hour + 1] <= share { hour += 1 }
        return hour
    }

    /// Seconds into the day of the event at share `share` of the day.
    @inline(__always) func seconds(atShare share: Double) -> Double {
        let h = hour(atShare: share)
        return offset[h] + share * secondsPerShare[h]
    }
}

/// Scratch memory for simulating users of one (run, design) pair, one user after another.
///
/// The engine makes one per task and hands it to every `UserSimulator` it creates, so a user
/// costs no allocation: per-instance state and the clocks' day tables live in one block sized
/// for the largest user. A simulator created without one gets its own. `activity` holds a
/// user's design-independent activity when the simulator draws it itself.
package final class SimulationWorkspace: @unchecked Sendable {
    let constants: SimulationConstants
    let instanceCapacity: Int
    let days: Int
    let outages: [(start: Double, end: Double, errorRate: Double)]
    /// Per outage, the failure chance during it (its error rate, at least the usual failure
    /// probability) as a `RandomStream.bernoulli(threshold:)` threshold.
    let outageFailureThresholds: [UInt64]
    /// The hours of the users who follow each combination of key groups (`SimulationModel.hourSets`).
    let hourSets: [SimulationModel.HourSet]

    /// Each widget instance's state, for every user of the task in turn.
    let instanceState: InstanceState
    /// Day tables of the clocks of the app, pushes and background launches.
    let clockTables: UnsafeMutablePointer<Double>
    // Day shapes of the run (app, widget, background, flat).
    let shapes: UnsafeMutablePointer<Double>
    let hourTables: UnsafeMutablePointer<UInt8>
    /// Where a simulator that draws its own user's activity puts it (made on first use: the
    /// engine's tasks replay an activity drawn elsewhere).
    package private(set) lazy var activity = ActivityBuffers(model: model)
    private let model: SimulationModel

    static let clockCount = 3

    /// `u` when hour set `set` is open then, else its next opening (infinity when none is
    /// left), in UTC seconds.
    func nextOpen(utc u: Double, hours set: Int) -> Double {
        guard let sessions = hourSets[set].sessions else { return u }
        var low = 0
        var high = sessions.count
        // The first session that ends after u.
        while low < high {
            let mid = (low + high) / 2
            if sessions[mid].end <= u { low = mid + 1 } else { high = mid }
        }
        guard low < sessions.count else { return .infinity }
        return max(u, sessions[low].start)
    }

    /// True when hour set `set` holds the counted minute of UTC time `u` (always without hours).
    @inline(__always) func isOpen(utc u: Double, hours set: Int) -> Bool {
        guard let openMinutes = hourSets[set].openMinutes else { return true }
        let m = Int(((u - constants.countedStartUTC) / .secondsPerMinute).rounded(.down))
        return m >= 0 && m < openMinutes.count && openMinutes[m]
    }
    /// Doubles per clock: cumulative (days + 1), inverse mass (days), mass (days).
    var clockStride: Int { 3 * days + 1 }

    package init(model: SimulationModel) {
        constants = SimulationConstants(model: model)
        instanceCapacity = max(1, model.scenario.population.instancesWhenMulti)
        days = model.simulatedDays
        outages = model.outages
        let failureProbability = constants.failureProbability
        outageFailureThresholds = model.outages.map { RandomStream.threshold(max($0.errorRate, failureProbability)) }
        hourSets = model.hourSets
        let n = instanceCapacity
        instanceState = .allocate(capacity: n)
        clockTables = .allocate(capacity: SimulationWorkspace.clockCount * (3 * days + 1))
        shapes = .allocate(capacity: 4 * ShapeTable.doubles)
        hourTables = .allocate(capacity: 4 * ShapeTable.hourSlots)
        for (k, shape) in [model.appShape, model.widgetShape, model.backgroundShape, model.flatShape].enumerated() {
            _ = ShapeTable.write(shape, doubles: shapes + k * ShapeTable.doubles, slots: hourTables + k * ShapeTable.hourSlots)
        }
        self.model = model
    }

    deinit {
        instanceState.deallocate()
        clockTables.deallocate()
        shapes.deallocate()
        hourTables.deallocate()
    }

    /// Shapes by index: 0 app, 1 widget, 2 background, 3 flat.
    func shape(_ k: Int) -> ShapeTable {
        let base = shapes + k * ShapeTable.doubles
        return ShapeTable(
            cumulative: base, secondsPerShare: base + 25, offset: base + 49,
            hourAtShare: hourTables + k * ShapeTable.hourSlots)
    }

    func clockStorage(_ k: Int) -> UnsafeMutablePointer<Double> {
        clockTables + k * clockStride
    }
}
