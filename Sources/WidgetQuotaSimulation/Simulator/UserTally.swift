/// Counts for the counted days of one or many simulated users; integer sums, so any order adds up the same.
package struct UserTally: Sendable, Equatable {
    package var users: Int64 = 0
    package var userDays: Int64 = 0
    package var requests: Int64 = 0
    package var extensionRequests: Int64 = 0
    package var appRequests: Int64 = 0
    package var backgroundRequests: Int64 = 0
    package var failedRequests: Int64 = 0
    package var fetches: Int64 = 0
    package var failedFetches: Int64 = 0
    package var retries: Int64 = 0
    package var getTimelines: Int64 = 0
    package var droppedReloads: Int64 = 0
    package var reloadCalls: Int64 = 0
    package var appOpens: Int64 = 0
    package var bgLaunches: Int64 = 0
    package var bgExpirations: Int64 = 0
    package var bgSubmits: Int64 = 0
    package var instanceDays: Int64 = 0
    package var exhaustedInstanceDays: Int64 = 0
    package var lowPowerDays: Int64 = 0
    package var glances: Int64 = 0
    package var staleGlances: Int64 = 0
    package var errorGlances: Int64 = 0
    package var outageGlances: Int64 = 0
    package var outageErrorGlances: Int64 = 0
    package var outageStaleGlances: Int64 = 0
    /// Glances at content older than the freshness target (whatever the TTL), or at an error.
    package var overTargetGlances: Int64 = 0
    /// Glances in the calendar's open hours (all glances without them), and those at stale or
    /// over-target content (or at an error).
    package var openGlances: Int64 = 0
    package var openStaleGlances: Int64 = 0
    package var openOverTargetGlances: Int64 = 0
    /// Silent pushes sent to the user's app in the counted days, and those iOS delivered.
    package var pushesSent: Int64 = 0
    package var pushesDelivered: Int64 = 0
    /// WidgetKit push notifications received in the counted days (each reloads every instance).
    package var widgetPushes: Int64 = 0
    /// Glances at content a newer value had replaced at least a minute before (or at an error),
    /// in all glances and in the open hours: fixed-point sums of each glance's chance, in units
    /// of 1 ÷ `outdatedScale`, so any order adds up the same.
    package var outdatedGlances: Int64 = 0
    package var openOutdatedGlances: Int64 = 0
    /// One glance surely outdated, in the units of `outdatedGlances`.
    package static let outdatedScale: Int64 = 1 << 20
    /// A change counts against what a glance shows once it is this old: a change shown within a
    /// minute counts as shown at once (APNs fans a push out in seconds).
    package static let outdatedGraceSeconds = 60.0
    /// Glances during live events (a scenario with a Live Activity design), and those whose
    /// widget or activity missed a change of the key made at least a minute before.
    package var liveEventGlances: Int64 = 0
    package var liveEventBehindGlances: Int64 = 0
    /// Of those, glances at a Live Activity, and those behind.
    package var activityGlances: Int64 = 0
    package var activityBehindGlances: Int64 = 0
    /// Live Activities started in the counted days, the ActivityKit pushes sent to their
    /// devices, and those the update budget throttled.
    package var activities: Int64 = 0
    package var activityPushes: Int64 = 0
    package var activityPushesThrottled: Int64 = 0

    package init() {}

    /// Adds another tally.
    package mutating func add(_ o: UserTally) {
        users += o.users
        userDays += o.userDays
        requests += o.requests
        extensionRequests += o.extensionRequests
        appRequests += o.appRequests
        backgroundRequests += o.backgroundRequests
        failedRequests += o.failedRequests
        fetches += o.fetches
        failedFetches += o.failedFetches
        retries += o.retries
        getTimelines += o.getTimelines
        droppedReloads += o.droppedReloads
        reloadCalls += o.reloadCalls
        appOpens += o.appOpens
        bgLaunches += o.bgLaunches
        bgExpirations += o.bgExpirations
        bgSubmits += o.bgSubmits
        instanceDays += o.instanceDays
        exhaustedInstanceDays += o.exhaustedInstanceDays
        lowPowerDays += o.lowPowerDays
        glances += o.glances
        staleGlances += o.staleGlances
        errorGlances += o.errorGlances
        outageGlances += o.outageGlances
        outageErrorGlances += o.outageErrorGlances
        pushesSent += o.pushesSent
        pushesDelivered += o.pushesDelivered
        widgetPushes += o.widgetPushes
        outdatedGlances += o.outdatedGlances
        openOutdatedGlances += o.openOutdatedGlances
        liveEventGlances += o.liveEventGlances
        liveEventBehindGlances += o.liveEventBehindGlances
        activityGlances += o.activityGlances
        activityBehindGlances += o.activityBehindGlances
        activities += o.activities
        activityPushes += o.activityPushes
        activityPushesThrottled += o.activityPushesThrottled

        outageStaleGlances += o.outageStaleGlances
        openGlances += o.openGlances
        openStaleGlances += o.openStaleGlances
        openOverTargetGlances += o.openOverTargetGlances
        overTargetGlances += o.overTargetGlances
    }
}

/// Content age at glances, in 5-minute bins up to two days and daily bins beyond.
package struct AgeHistogram: Sendable, Equatable {
    static let fineBins = 576  // 5-minute bins, 48 hours
    static let coarseBins = 60  // 1-day bins after that
    package var counts = [Int64](repeating: 0, count: AgeHistogram.fineBins + AgeHistogram.coarseBins)

    package init() {}

    static let binCount = fineBins + coarseBins

    /// The bin of an age.
    @inline(__always) static func index(ageSeconds: Double) -> Int {
        if ageSeconds < Double(fineBins) * 300 { return max(0, Int(ageSeconds / 300)) }
        return min(fineBins + Int((ageSeconds - Double(fineBins) * 300) / .secondsPerDay), binCount - 1)
    }

    /// Adds one glance of the given age.
    package mutating func add(ageSeconds: Double) {
        counts[AgeHistogram.index(ageSeconds: ageSeconds)] += 1
    }

    package mutating func add(_ other: AgeHistogram) {
        for i in counts.indices { counts[i] += other.counts[i] }
    }

    /// The age in minutes below which a share `q` of glances fall (interpolated within a bin).
    package func quantileMinutes(_ q: Double) -> Double? {
        let total = counts.reduce(0, +)
        guard total > 0 else { return nil }
        let target = q * Double(total)
        var running = 0.0
        for (i, c) in counts.enumerated() where c > 0 {
            let next = running + Double(c)
            if next >= target {
                let (lo, width) = AgeHistogram.bounds(i)
                return (lo + width * (target - running) / Double(c)) / .secondsPerMinute
            }
            running = next
        }
        let (lo, width) = AgeHistogram.bounds(counts.count - 1)
        return (lo + width) / .secondsPerMinute
    }

    static func bounds(_ i: Int) -> (lower: Double, width: Double) {
        if i < fineBins { return (Double(i) * 300, 300) }
        return (Double(fineBins) * 300 + Double(i - fineBins) * .secondsPerDay, .secondsPerDay)
    }
}
