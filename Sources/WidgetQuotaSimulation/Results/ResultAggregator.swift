import Foundation
import WidgetQuotaModel
import WidgetQuotaSupport

/// Folds the per-(run, design) outputs into one result per design × user count.
struct ResultAggregator {
    /// The scenario as the user gave it (the result's echo).
    let scenario: Scenario
    /// Its tiers as the engine counts them for each design (`Scenario.limitsInRequests(for:)`):
    /// the same tiers, their limits in the design's requests.
    let tiersByDesign: [[QuotaTier]]
    let designs: [Design]
    let parameters: [RunParameters]
    let price: PriceTable.Price?
    let priceSource: String
    let userCounts: [Int]
    let sampleUsers: Int
    let outputs: [MonteCarloEngine.TaskOutput]
    /// Aggregate the loads of ordinary days (`TaskOutput.loadsWithoutOutages`) instead of the
    /// loads as simulated: no outage impact and no headroom table, and each population's tier
    /// is the cheapest broken in at most the acceptable share of runs.
    var ordinaryDays = false

    var runs: Int { parameters.count }

    /// The tiers as the engine counts them for design `d`.
    func tiers(_ d: Int) -> [QuotaTier] { tiersByDesign[d] }

    func output(run: Int, design: Int) -> MonteCarloEngine.TaskOutput {
        outputs[run * designs.count + design]
    }

    func aggregate() -> SimulationResult {
        var results = [DesignResult]()
        var planBills = [PlanBillsAcrossRuns?]()
        var meanTotals = [String: [Int: Double]]()
        for (d, design) in designs.enumerated() {
            for (k, n) in userCounts.enumerated() {
                let (r, bills) = result(design: d, userIndex: k, users: n)
                meanTotals[design.name, default: [:]][n] = r.totalRequestsPerMonth.mean
                results.append(r)
                planBills.append(bills)
            }
        }
        let headroom = ordinaryDays ? [] : headroomTable()
        for i in results.indices {
            if let base = meanTotals[scenario.baseline]?[results[i].users], base > 0 {
                results[i].ratioToBaseline = results[i].totalRequestsPerMonth.mean / base
            }
            let users = results[i].users
            let quota = results[i].quota
            // Results come design by design, each at every user count.
            let tiers = self.tiers(i / max(userCounts.count, 1))
            // The tiers whose limits hold for this population, in the scenario's order.
            let holding = tiers.indices.filter { t in
                let tier = tiers[t]
                if ordinaryDays {
                    return quota.first { $0.tier == tier.name }.map { $0.exceedProbability <= Double(allowedBreakingRuns) / Double(runs) }
                        ?? false
                }
                guard let h = headroom.first(where: { $0.design == results[i].design && $0.tier == tier.name }) else { return false }
                return h.maxUsers.map { users <= $0 } ?? true
            }
            if let bills = planBills[i] {
                // Billed per request or credit: the plan whose bill is lowest among those whose limits hold.
                if let chosen = bills.cheapest(among: holding, allowedBreakingRuns: allowedBreakingRuns) {
                    results[i].requiredTier = tiers[chosen.plan].name
                    results[i].cost = bills.cost(plan: chosen.plan, bills: chosen.bills, users: users)
                } else {
                    // No bill is known: a tier with no price of its own whose limits hold still
                    // serves (its cost unknown); a priced plan that cannot carry the month does not.
                    results[i].requiredTier = holding.first { !APIPricing.isPriced(tiers[$0]) }.map { tiers[$0].name }
                    let payAsYouGo = bills.payAsYouGo.compactMap { $0 }
                    if payAsYouGo.count == bills.payAsYouGo.count {
                        results[i].cost = bills.cost(plan: nil, bills: payAsYouGo, users: users)
                    }
                }
            } else {
                results[i].requiredTier = holding.first.map { tiers[$0].name }
            }
            results[i].exceedsEveryTier = results[i].requiredTier == nil && !tiers.isEmpty
        }
        let typical = designs.enumerated().map { d, design -> SimulationResult.TypicalDay in
            var minutes = [Double](repeating: 0, count: TimeUnits.minutesPerDay)
            for run in 0..<runs {
                let o = output(run: run, design: d)
                for i in 0..<TimeUnits.minutesPerDay { minutes[i] += o.minuteOfDayPerUser[i] / Double(runs) }
            }
            let hours = (0..<TimeUnits.hoursPerDay).map { h in
                minutes[(h * TimeUnits.minutesPerHour)..<((h + 1) * TimeUnits.minutesPerHour)].reduce(0, +) / .minutesPerHour
            }
            return .init(design: design.name, requestsPerUserPerMinuteByHour: hours, requestsPerUserByMinute: minutes)
        }
        let method = SimulationResult.Method(
            runs: runs, seed: scenario.horizon.seed, sampleUsers: sampleUsers,
            designs: designs.map(\.name), baseline: scenario.baseline,
            description: "Monte-Carlo: \(runs) runs; each run draws the uncertain assumptions once, then simulates "
                + "\(sampleUsers) users event by event over \(scenario.horizon.days) days after a \(scenario.horizon.warmupDays)-day warm-up. "
                + "Populations up to \(sampleUsers) users are exact (the first N simulated users); larger ones are projected "
                + "from the sample: totals scale the sample mean, per-minute load uses a normal approximation around the "
                + "sample's per-minute mean pooled over ordinary days.")
        return SimulationResult(scenario: scenario, method: method, results: results, typicalDay: typical, headroom: headroom)
    }

    /// Runs that may break a tier's limits within the acceptable risk. The epsilon before rounding
    /// down: 0.29 × 100 is 28.999999999999996 in binary, and 29 runs may break, as the quota
    /// table (k / runs ≤ risk) counts them.
    var allowedBreakingRuns: Int { Int((scenario.quotas.acceptableRisk * Double(runs) + 1e-9).rounded(.down)) }

    /// Headroom per design and tier: sort each run's smallest breaking population; with k runs
    /// allowed to break (k = ⌊risk × runs⌋), the answer is one less than the (k+1)-th smallest.
    func headroomTable() -> [SimulationResult.Headroom] {
        var table = [SimulationResult.Headroom]()
        let allowed = allowedBreakingRuns
        for (d, design) in designs.enumerated() {
            for (t, tier) in tiers(d).enumerated() {
                let breaking = (0..<runs).compactMap { output(run: $0, design: d).firstExceedingUsers[t] }.sorted()
                var maxUsers: Int?
                if allowed < breaking.count { maxUsers = breaking[allowed] - 1 }
                let atMax =
                    maxUsers.map { m in Double(breaking.filter { $0 <= m }.count) / Double(runs) }
                    ?? Double(breaking.count) / Double(runs)
                table.append(
                    .init(
                        design: design.name, tier: tier.name, maxUsers: maxUsers,
                        largestPopulationSearched: MonteCarloEngine.largestPopulation,
                        exceedProbabilityAtMax: atMax))
            }
        }
        return table
    }

    /// One design at one user count, over every run, and its bills when the API is priced per
    /// request or credit.
    func result(design d: Int, userIndex k: Int, users n: Int) -> (DesignResult, PlanBillsAcrossRuns?) {
        let tiers = self.tiers(d)
        let unitsPerRequest = scenario.unitsPerRequest(of: designs[d])
        var bills = scenario.api.pricing.flatMap {
            $0.per == .token ? nil : PlanBillsAcrossRuns(pricing: $0, tiers: tiers, unitsPerRequest: unitsPerRequest)
        }
        var requests = RequestsAcrossRuns(users: n, exact: n <= sampleUsers)
        var tally = UserTally()
        var ages = AgeHistogram()
        var openAges = AgeHistogram()
        var load = LoadAcrossRuns()
        var outage = OutageAcrossRuns()
        var cost = price.map(CostAcrossRuns.init)
        var tierOutcomes = [TierOutcomesAcrossRuns](repeating: .init(), count: tiers.count)
        let design = designs[d]
        let events = scenario.calendar.events
        var eventDays = [EventDayAcrossRuns](repeating: .init(), count: events.count)
        var paidTotals = [Double]()
        var deviceTotals = [Double]()
        var backendLoads = [LoadSummary]()
        for run in 0..<runs {
            let o = output(run: run, design: d)
            var total = requests.add(o.requestsPerUser[k])
            if let deviceLoads = o.backendLoads {
                // A backend design's requests are its paid ones; its devices' are the backend's load.
                deviceTotals.append(total)
                total = o.loads[k].total
                paidTotals.append(total)
                backendLoads.append(deviceLoads[k])
            }
            let asSimulated = o.loads[k]
            let dayScale = asSimulated.total > 0 ? total / asSimulated.total : 0
            bills?.add(
                totalRequests: total, quotaDayRequests: asSimulated.quotaDayTotals.map { $0 * dayScale },
                billedShare: o.tally.billedShare)
            let costsBefore = cost?.perMonth.count ?? 0
            cost?.add(totalRequests: total, tally: o.tally, parameters: parameters[run])
            let costPerRequest = cost.flatMap { c in c.perMonth.count > costsBefore && total > 0 ? c.perMonth[costsBefore] / total : nil }
            tally.add(o.tally)
            ages.add(o.ages)
            openAges.add(o.openAges)
            let runLoad = ordinaryDays ? (o.loadsWithoutOutages ?? o.loads)[k] : o.loads[k]
            let tokens = parameters[run].tokensPerRequest
            if !ordinaryDays { outage.add(extraRequestsPerUser: o.outageExtraRequestsPerUser, load: runLoad) }
            load.add(runLoad, tokensPerRequest: tokens)
            for (t, tier) in tiers.enumerated() {
                var outcome = TierRunOutcome(tier: tier, load: runLoad, tokensPerRequest: tokens)
                // A user whose one request costs more credits than the tier allows a minute.
                if t < o.firstOversizedUsers.count, let from = o.firstOversizedUsers[t], n >= from {
                    outcome.exceedsRequestsPerMinute = true
                }
                if let bills, let cap = bills.pricing.monthlyCap(of: tier), let units = bills.monthlyUnits.last {
                    // On ordinary days, the month without what the outages added.
                    let ordinary = ordinaryDays && o.loads[k].total > 0 ? runLoad.total / o.loads[k].total : 1
                    outcome.add(monthlyUnits: units * ordinary, cap: cap)
                }
                tierOutcomes[t].add(outcome)
            }
            for e in events.indices where e < runLoad.eventDayTotals.count {
                eventDays[e].add(
                    total: runLoad.eventDayTotals[e], peak: runLoad.eventDayPeaks[e], hourPeak: runLoad.eventDayHourPeaks[e],
                    tokensPerRequest: tokens,
                    costPerRequest: costPerRequest, backendPeak: o.backendLoads?[k].eventDayPeaks[e])
            }
        }
        let quota = zip(tiers, tierOutcomes).map { tier, outcomes in outcomes.outcome(tier: tier) }
        let isBackend = !paidTotals.isEmpty
        let totalSpread = RunSpread(isBackend ? paidTotals : requests.totalPerRun)
        var perUserQuantiles = Quantiles(requests.perUser)
        if isBackend {
            // Paid requests are the backend's, shared by every user alike.
            let each = totalSpread.mean / Double(n)
            perUserQuantiles = Quantiles(mean: each, p5: each, p50: each, p95: each, p99: each)
        }
        perUserQuantiles.mean = totalSpread.mean / Double(n)
        var result = DesignResult(
            design: designs[d].name, users: n, method: requests.exact ? "exact" : "projected",
            requestsPerUserMonth: perUserQuantiles,
            totalRequestsPerMonth: totalSpread,
            requestsPerUserDay: perUserQuantiles.mean / Double(scenario.horizon.days),
            ratioToBaseline: nil,
            getTimelinePerUserDay: tally.perUserDay(\.getTimelines),
            budgetExhaustedDayShare: UserTally.ratio(tally.exhaustedInstanceDays, tally.instanceDays),
            backgroundRunsPerUserDay: tally.perUserDay(\.bgLaunches),
            backgroundExpirationsPerUserDay: tally.perUserDay(\.bgExpirations),
            appOpensPerUserDay: tally.perUserDay(\.appOpens),
            reloadCallsPerUserDay: tally.perUserDay(\.reloadCalls),
            reloadCallsPerSuccessfulFetch: tally.successfulFetches > 0 ? UserTally.ratio(tally.reloadCalls, tally.successfulFetches) : nil,
            fetchesPerUserDay: tally.perUserDay(\.fetches),
            fetchFailureRate: UserTally.ratio(tally.failedFetches, tally.fetches),
            retriesPerUserDay: tally.perUserDay(\.retries),
            requestShares: .init(
                widgetExtension: UserTally.ratio(tally.extensionRequests, tally.requests),
                app: UserTally.ratio(tally.appRequests, tally.requests),
                background: UserTally.ratio(tally.backgroundRequests, tally.requests)),
            load: load.summary,
            freshness: ResultAggregator.freshness(tally, ages, openAges: openAges, openHours: scenario.hasOpenHours),
            quota: quota, requiredTier: nil,
            cost: cost?.cost(model: scenario.api.model, users: n, priceSource: priceSource),
            outage: outage.impact(users: n))
        if let backend = design.backend, isBackend {
            result.backend = backendResult(backend, deviceTotals: deviceTotals, loads: backendLoads, paidMean: totalSpread.mean, users: n)
        }
        if design.sendsPushes {
            result.pushes = .init(
                scope: design.pushes.rawValue, sentPerUserDay: tally.perUserDay(\.pushesSent),
                deliveredShare: UserTally.ratio(tally.pushesDelivered, tally.pushesSent),
                widgetPushesPerUserDay: tally.perUserDay(\.widgetPushes))
        }
        result.events = zip(events, eventDays).map { event, days in
            days.result(event: event, tiers: tiers, allowedBreakingRuns: allowedBreakingRuns)
        }
        if scenario.designs.contains(where: { $0.liveActivity != nil }) && scenario.calendar.hasLiveEvents {
            result.liveEvents = .init(
                glancesPerUserDay: tally.perUserDay(\.liveEventGlances),
                behindShare: UserTally.ratio(tally.liveEventBehindGlances, tally.liveEventGlances),
                activity: design.liveActivity.map { liveActivityResult($0, tally: tally, users: n) })
        }
        return (result, bills)
    }

    /// A Live Activity design's activities, pushes and what they showed, for `n` users.
    func liveActivityResult(_ activity: LiveActivity, tally: UserTally, users n: Int) -> DesignResult.Activity {
        let pushesPerUserDay = tally.perUserDay(\.activityPushes)
        var backendPushes = pushesPerUserDay * Double(n)
        if activity.channel {
            // One push per change of each key that at least one activity follows.
            let followers = Double(n) * activity.startShare
            let keys = scenario.content.shares.reduce(0) { $0 + SharedContent.followed(share: $1, draws: followers) }
            backendPushes = keys * liveEventChangesPerKeyDay(maxHours: scenario.platform.liveActivityMaxHours)
        }
        return .init(
            updates: activity.summary, perUserDay: tally.perUserDay(\.activities), pushesPerUserDay: pushesPerUserDay,
            throttledShare: UserTally.ratio(tally.activityPushesThrottled, tally.activityPushes), backendPushesPerDay: backendPushes,
            behindShare: UserTally.ratio(tally.activityBehindGlances, tally.activityGlances))
    }

    /// Expected changes of one key a day that fall in a live event's first `maxHours` hours, over
    /// the counted days, at the runs' mean rate of data changes.
    func liveEventChangesPerKeyDay(maxHours: Double) -> Double {
        let days = scenario.horizon.days
        guard days > 0, !parameters.isEmpty else { return 0 }
        let perDay = Statistics.mean(parameters.map(\.dataChangesPerDay))
        let total = (1...days).reduce(0.0) { sum, day in
            let f = scenario.calendar.factors(ofDay: day)
            guard let window = f.changeWindow, window.hours > 0 else { return sum }
            return sum + perDay * f.dataChanges * Swift.min(1, maxHours / window.hours)
        }
        return total / Double(days)
    }

    /// A backend design's device load over the runs.
    func backendResult(
        _ backend: BackendGeneration, deviceTotals: [Double], loads: [LoadSummary], paidMean: Double, users n: Int
    ) -> DesignResult.BackendLoad {
        let days = Double(scenario.horizon.days)
        let perDay = RunSpread(deviceTotals.map { $0 / days })
        let followed = scenario.content.followedKeys(users: n)
        return .init(
            regenerate: backend.scheduleSummary, contentKeys: scenario.content.keys, followedKeys: followed,
            paidRequestsPerKeyMonth: followed > 0 ? paidMean / followed : 0, requestsPerDay: perDay,
            peakRequestsPerMinute: RunSpread(loads.map(\.peakPerMinute)),
            meanRequestsPerMinute: Statistics.mean(loads.map(\.meanPerMinute)),
            costPerMonth: backend.pricePerMillionRequests.map { $0 * perDay.mean * days / 1_000_000 },
            generationLagMinutes: backend.generationLagMinutes)
    }

    /// What users saw at their glances: how often the content was stale, over target or an error, and how old it was.
    static func freshness(_ tally: UserTally, _ ages: AgeHistogram, openAges: AgeHistogram, openHours: Bool) -> DesignResult.Freshness {
        var f = DesignResult.Freshness(
            glancesPerUserDay: tally.perUserDay(\.glances),
            staleShare: UserTally.ratio(tally.staleGlances, tally.glances),
            overTargetShare: UserTally.ratio(tally.overTargetGlances, tally.glances),
            errorShare: UserTally.ratio(tally.errorGlances, tally.glances),
            medianAgeMinutes: ages.quantileMinutes(0.5),
            p95AgeMinutes: ages.quantileMinutes(0.95),
            outageErrorShare: tally.outageGlances > 0 ? UserTally.ratio(tally.outageErrorGlances, tally.outageGlances) : nil,
            outageStaleShare: tally.outageGlances > 0 ? UserTally.ratio(tally.outageStaleGlances, tally.outageGlances) : nil)
        let scale = Double(UserTally.outdatedScale)
        f.outdatedShare = UserTally.ratio(tally.outdatedGlances, tally.glances) / scale
        if openHours {
            f.openHours = .init(
                glanceShare: UserTally.ratio(tally.openGlances, tally.glances),
                staleShare: UserTally.ratio(tally.openStaleGlances, tally.openGlances),
                overTargetShare: UserTally.ratio(tally.openOverTargetGlances, tally.openGlances),
                outdatedShare: UserTally.ratio(tally.openOutdatedGlances, tally.openGlances) / scale)
            f.openHours?.medianAgeMinutes = openAges.quantileMinutes(0.5)
            f.openHours?.p95AgeMinutes = openAges.quantileMinutes(0.95)
        }
        return f
    }
}
