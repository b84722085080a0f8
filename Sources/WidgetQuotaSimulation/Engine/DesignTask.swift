import Foundation
import WidgetQuotaModel
import WidgetQuotaSupport

/// One (run, design) pair of the engine, fed one user at a time: it simulates each user under its
/// design, adds them to the per-minute and per-quota-day load, and tracks the smallest population
/// that breaks each quota tier; `finish` measures every population size.
///
/// Users must arrive in order (0, 1, 2, ...): populations are nested prefixes of the sample, so
/// running peaks and first exceedances are read as users are added.
final class DesignTask {
    let model: SimulationModel
    private let sampleUsers: Int
    private let userCounts: [Int]
    private let workspace: SimulationWorkspace
    private var out = MonteCarloEngine.TaskOutput()
    // Engine-owned counters the simulators add to.
    private let buckets: UnsafeMutableBufferPointer<Int32>
    /// The odd users' share of `buckets` (the projection compares the two halves of the sample).
    private let oddBuckets: UnsafeMutableBufferPointer<Int32>
    /// The requests of broadcast fetches among `buckets` (nil: the design sends no broadcasts).
    private let broadcastBuckets: UnsafeMutableBufferPointer<Int32>?
    /// Sample users per content key (counted for broadcast designs only).
    private var usersByKey: [Int]
    private let quotaDays: UnsafeMutableBufferPointer<Int64>
    /// Requests per clock hour (nil: no tier has an hourly limit).
    private let hours: UnsafeMutableBufferPointer<Int64>?
    private let ages: UnsafeMutableBufferPointer<Int64>
    private var peakPerMinute: Int32 = 0
    private var peakQuotaDay: Int64 = 0
    private var peakPerHour: Int64 = 0
    private let tiers: [QuotaTier]
    private let tokens: Double
    private var firstExceeding: [Int?]
    /// Per tier, the credits one request of a user who follows `k` keys must stay within (nil:
    /// requests cost the same whoever sends them, or the tier has no per-minute limit), and the
    /// first population with a user beyond them.
    private let creditsPerKeyLimits: [Double?]
    private var firstOversized: [Int?]
    /// Populations simulated in full, and their loads and requests per user once reached.
    private let exactCounts: Set<Int>
    private var exactLoads = [Int: LoadSummary]()
    /// Minutes an outage or its recovery disturbs, and the model to measure ordinary days with
    /// (nil: the scenario has no outage).
    private let disturbed: [Bool]?
    private let ordinaryModel: SimulationModel?
    private var exactLoadsWithoutOutages = [Int: LoadSummary]()
    private var exactRequests = [Int: CountHistogram]()
    /// Requests per user so far, as counts per value: memory grows with the spread of the
    /// counts, not with the number of users.
    private var requests = CountTally()
    /// Each sampled user's requests in the month, in order (for the plans whose included volume
    /// caps the month: the first population to bill beyond it).
    private var userRequests = [Int32]()
    /// How many first users are simulated without the outages as well (0: not measured), the
    /// workspace of those calm runs, and the requests the outages added to them so far.
    private let counterfactualUsers: Int
    private let calmWorkspace: SimulationWorkspace?
    private var outageExtraRequests = 0.0

    /// - Parameter measuresOutageExtra: simulate the first `MonteCarloEngine.outageCounterfactualUsers`
    ///   users without the outages as well, to measure the requests the outages add.
    init(model: SimulationModel, sampleUsers: Int, userCounts: [Int], measuresOutageExtra: Bool = true) {
        self.model = model
        self.sampleUsers = sampleUsers
        self.userCounts = userCounts
        workspace = SimulationWorkspace(model: model)
        let counterfactual = measuresOutageExtra && !model.outages.isEmpty
        counterfactualUsers = counterfactual ? min(sampleUsers, MonteCarloEngine.outageCounterfactualUsers) : 0
        calmWorkspace = counterfactual ? SimulationWorkspace(model: model) : nil
        buckets = .allocate(capacity: model.countedMinutes)
        buckets.initialize(repeating: 0)
        oddBuckets = .allocate(capacity: model.countedMinutes)
        oddBuckets.initialize(repeating: 0)
        if model.design.pushes == .broadcast && model.design.sendsPushes {
            let broadcast = UnsafeMutableBufferPointer<Int32>.allocate(capacity: model.countedMinutes)
            broadcast.initialize(repeating: 0)
            broadcastBuckets = broadcast
            usersByKey = Array(repeating: 0, count: max(model.scenario.content.keys, 1))
        } else {
            broadcastBuckets = nil
            usersByKey = []
        }
        quotaDays = .allocate(capacity: max(model.completeQuotaDays, 1))
        quotaDays.initialize(repeating: 0)
        // All glances' ages, then those of the glances in the calendar's open hours.
        ages = .allocate(capacity: 2 * AgeHistogram.binCount)
        ages.initialize(repeating: 0)
        tiers = model.scenario.quotas.tiers
        if tiers.contains(where: { $0.rph != nil }) {
            let h = UnsafeMutableBufferPointer<Int64>.allocate(capacity: model.countedMinutes / TimeUnits.minutesPerHour + 1)
            h.initialize(repeating: 0)
            hours = h
        } else {
            hours = nil
        }
        tokens = model.parameters.tokensPerRequest
        firstExceeding = Array(repeating: nil, count: tiers.count)
        firstOversized = Array(repeating: nil, count: tiers.count)
        // A request that carries every key its user follows costs that user's keys in credits: a
        // tier's credits a minute (the engine's limit × the mean credits of a request) in keys.
        let s = model.scenario
        if s.content.keysPerUserMix != nil, model.design.backend == nil, !model.design.requestPerKey,
            let pricing = s.api.pricing, pricing.per == .credit, let perKey = pricing.creditsPerKey, perKey > 0
        {
            let mean = s.unitsPerRequest(of: model.design)
            creditsPerKeyLimits = tiers.map { $0.rpm.map { $0 * mean / perKey } }
        } else {
            creditsPerKeyLimits = Array(repeating: nil, count: tiers.count)
        }
        exactCounts = Set(userCounts.filter { $0 <= sampleUsers })
        let hasOutages = !model.outages.isEmpty
        disturbed = hasOutages ? LoadProjection.disturbedMinutes(model: model) : nil
        ordinaryModel = hasOutages ? model.withoutOutages() : nil
    }

    /// Bytes a task keeps per design while it runs, for `days` counted days (the per-minute,
    /// per-hour, per-quota-day and content-age counters).
    static func bytesPerDesign(days: Int) -> Int {
        // All users' and odd users' minutes, the hours, the quota days and the ages (all, then open hours').
        2 * 4 * TimeUnits.minutesPerDay * days + 8 * TimeUnits.hoursPerDay * days + 8 * (days + 1) + 2 * 8 * AgeHistogram.binCount
    }

    deinit {
        buckets.deallocate()
        oddBuckets.deallocate()
        broadcastBuckets?.deallocate()
        quotaDays.deallocate()
        hours?.deallocate()
        ages.deallocate()
    }

    /// The requests of the sample so far in its busiest 1,440 consecutive minutes.
    private func busiest24Hours() -> Double {
        let day = TimeUnits.minutesPerDay
        guard buckets.count >= day else { return 0 }
        var sum: Int64 = 0
        for t in 0..<day { sum += Int64(buckets[t]) }
        var best = sum
        for t in day..<buckets.count {
            sum += Int64(buckets[t]) - Int64(buckets[t - day])
            best = max(best, sum)
        }
        return Double(best)
    }

    /// Simulates the next user, replaying `activity` (drawn for that user in this run);
    /// `series` is scratch of `countedMinutes` entries, shared by the designs of a group.
    func simulate(user: Int, activity: UserActivity, series: UnsafeMutableBufferPointer<Double>) {
        var sim = UserSimulator(model: model, user: user, observer: NoObserver(), workspace: workspace, activity: activity)
        sim.collected.buckets = buckets.baseAddress
        sim.collected.halfBuckets = user % 2 == 1 ? oddBuckets.baseAddress : nil
        sim.collected.broadcastBucketsOfTask = broadcastBuckets?.baseAddress
        if broadcastBuckets != nil { usersByKey[activity.traits.contentKey] += 1 }
        sim.collected.ages = ages.baseAddress
        sim.collected.quotaDays = quotaDays.baseAddress
        sim.collected.peakPerMinute = peakPerMinute
        sim.collected.peakQuotaDay = peakQuotaDay
        sim.collected.hours = hours?.baseAddress
        sim.collected.peakPerHour = peakPerHour
        if user < counterfactualUsers, let calmWorkspace {
            let calmRequests = sim.runWithCalmCounterpart(calmWorkspace: calmWorkspace)
            outageExtraRequests += Double(sim.monthRequests) - Double(calmRequests)
        } else {
            sim.run()
        }
        peakPerMinute = sim.collected.peakPerMinute
        peakQuotaDay = sim.collected.peakQuotaDay
        peakPerHour = sim.collected.peakPerHour
        if sim.monthRequests > 0 {
            for (t, keys) in creditsPerKeyLimits.enumerated() where firstOversized[t] == nil {
                if let keys, Double(activity.traits.keysFollowed) > keys {
                    firstOversized[t] = user + 1
                    firstExceeding[t] = min(firstExceeding[t] ?? .max, user + 1)
                }
            }
        }
        out.tally.add(sim.tally)
        requests.add(sim.monthRequests)
        userRequests.append(Int32(clamping: sim.monthRequests))
        // Under a rolling daily limit the sample's busiest 24 hours decide, read when the busiest
        // quota day comes within half of a limit: 24 hours in a row overlap at most two quota days.
        var rolling: Double?
        for (t, tier) in tiers.enumerated() where firstExceeding[t] == nil {
            var busiestDay = Double(peakQuotaDay)
            if model.rollingQuotaDay, let rpd = tier.rpd, 2 * busiestDay > rpd {
                if rolling == nil { rolling = busiest24Hours() }
                busiestDay = max(busiestDay, rolling!)
            }
            let peaks = QuotaPeaks(perMinute: Double(peakPerMinute), perHour: Double(peakPerHour), quotaDay: busiestDay)
            if tier.isExceeded(peaks, tokensPerRequest: tokens) {
                firstExceeding[t] = user + 1
            }
        }
        if exactCounts.contains(user + 1) {
            for i in 0..<buckets.count { series[i] = Double(buckets[i]) }
            exactLoads[user + 1] = LoadSummary(series: UnsafeBufferPointer(series), model: model)
            exactRequests[user + 1] = requests.histogram
            if let disturbed, let ordinaryModel {
                LoadProjection.replaceDisturbed(series, disturbed: disturbed)
                exactLoadsWithoutOutages[user + 1] = LoadSummary(series: UnsafeBufferPointer(series), model: ordinaryModel)
            }
        }
    }

    /// The output once every sampled user has been simulated; `deviates`: the run's
    /// `LoadProjection.deviates(model:)`.
    func finish(deviates: [Double]) -> MonteCarloEngine.TaskOutput {
        out.ages.counts = Array(ages[0..<AgeHistogram.binCount])
        out.openAges.counts = Array(ages[AgeHistogram.binCount...])
        let sample = Array(buckets)
        // Users send independently but for broadcast pushes: the projection pools the rest over
        // days, then adds the broadcasts where they happen (`BroadcastLoad`).
        var independent = sample
        if let broadcastBuckets {
            for t in independent.indices { independent[t] -= broadcastBuckets[t] }
        }
        var projection = LoadProjection(
            sample: independent, oddUsersSample: Array(oddBuckets), sampleUsers: sampleUsers, model: model, deviates: deviates)
        if !model.scenario.calendar.isUniform {
            projection.scaleDays(sample: independent, sampleUsers: sampleUsers, model: model)
        }
        if let broadcastBuckets {
            projection.add(
                shared: BroadcastLoad.perUserMean(
                    model: model, sampleBroadcastRequests: UnsafeBufferPointer(broadcastBuckets), sampleUsersByKey: usersByKey))
        }
        let allRequests = requests.histogram
        // Larger populations are projected from the whole sample.
        out.requestsPerUser = userCounts.map { exactRequests[$0] ?? allRequests }
        for n in userCounts {
            if let exact = exactLoads[n] {
                out.loads.append(exact)
            } else {
                let projected = projection.series(users: n)
                out.loads.append(projected.withUnsafeBufferPointer { LoadSummary(series: $0, model: model) })
            }
        }
        if let ordinaryModel {
            let ordinary = projection.withoutDisturbance()
            out.loadsWithoutOutages = userCounts.map { n in
                exactLoadsWithoutOutages[n]
                    ?? ordinary.series(users: n).withUnsafeBufferPointer { LoadSummary(series: $0, model: ordinaryModel) }
            }
        }
        // Beyond the sample, search the projection: its load grows monotonically with N.
        for (t, tier) in tiers.enumerated() where firstExceeding[t] == nil {
            firstExceeding[t] = projection.firstExceeding(
                tier: tier, tokensPerRequest: tokens, above: sampleUsers,
                largest: MonteCarloEngine.largestPopulation, model: model)
        }
        out.firstExceedingUsers = firstExceeding
        out.firstOversizedUsers = firstOversized
        let days = Double(model.scenario.horizon.days) * Double(sampleUsers)
        if let backend = model.design.backend {
            // The devices' requests are the backend's load; the paid ones are the backend's own.
            let paid = BackendPaidLoad(model: model, backend: backend, deviceRequestsPerUser: projection.perUserMean)
            let series = userCounts.map { paid.series(users: $0) }
            out.backendLoads = out.loads
            out.loads = series.map { s in s.withUnsafeBufferPointer { LoadSummary(series: $0, model: model) } }
            out.loadsWithoutOutages = nil
            let largest = paid.series(users: MonteCarloEngine.largestPopulation).withUnsafeBufferPointer {
                LoadSummary(series: $0, model: model)
            }
            out.firstExceedingUsers = tiers.map {
                paid.firstExceeding(
                    tier: $0, tokensPerRequest: tokens, largest: MonteCarloEngine.largestPopulation, loadAtLargest: largest, model: model)
            }
            // Its typical day is its paid requests', at the largest listed population.
            if let top = userCounts.indices.max(by: { userCounts[$0] < userCounts[$1] }) {
                let perUserDays = Double(model.scenario.horizon.days) * Double(userCounts[top])
                for (t, count) in series[top].enumerated() { out.minuteOfDayPerUser[t % TimeUnits.minutesPerDay] += count / perUserDays }
            }
        } else {
            for (t, count) in sample.enumerated() {
                out.minuteOfDayPerUser[t % TimeUnits.minutesPerDay] += Double(count) / days
            }
        }
        if counterfactualUsers > 0 { out.outageExtraRequestsPerUser = outageExtraRequests / Double(counterfactualUsers) }
        applyMonthlyCaps(deviceRequestsPerUser: projection.perUserMean)
        return out
    }

    /// Lowers each tier's first breaking population to the first whose billed month goes beyond
    /// what a plan without overage includes (`APIPricing.monthlyCap(of:)`), as the bills count it:
    /// the first N users' requests within the sample, N × the sample's mean beyond it; a backend's
    /// paid requests as its paid load projects them.
    private func applyMonthlyCaps(deviceRequestsPerUser: [Double]) {
        guard let pricing = model.scenario.api.pricing, pricing.per != .token,
            tiers.contains(where: { pricing.monthlyCap(of: $0) != nil })
        else { return }
        let paid = model.design.backend.map { BackendPaidLoad(model: model, backend: $0, deviceRequestsPerUser: deviceRequestsPerUser) }
        let unitsPerBilledRequest = model.scenario.unitsPerRequest(of: model.design) * out.tally.billedShare
        guard unitsPerBilledRequest > 0 else { return }
        let largest = MonteCarloEngine.largestPopulation
        for (t, tier) in tiers.enumerated() {
            guard let cap = pricing.monthlyCap(of: tier) else { continue }
            let limit = cap / unitsPerBilledRequest
            var first: Int?
            if let paid {
                func breaks(_ n: Int) -> Bool { paid.series(users: n).reduce(0, +) > limit }
                if breaks(largest) {
                    var low = 0
                    var high = largest
                    while high - low > 1 {
                        let mid = low + (high - low) / 2
                        if breaks(mid) { high = mid } else { low = mid }
                    }
                    first = high
                }
            } else {
                var sum = 0.0
                for (i, r) in userRequests.enumerated() {
                    sum += Double(r)
                    if sum > limit {
                        first = i + 1
                        break
                    }
                }
                let mean = sum / Double(max(userRequests.count, 1))
                if first == nil, mean > 0 {
                    let n = (limit / mean).rounded(.down) + 1
                    if n <= Double(largest) { first = max(Int(n), sampleUsers + 1) }
                }
            }
            if let first { out.firstExceedingUsers[t] = min(out.firstExceedingUsers[t] ?? .max, first) }
        }
    }
}
