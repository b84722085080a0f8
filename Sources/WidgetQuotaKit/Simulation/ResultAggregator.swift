import Foundation

/// Folds the per-(run, design) outputs into one result per design × user count.
struct ResultAggregator {
    let scenario: Scenario
    let designs: [Design]
    let parameters: [RunParameters]
    let price: PriceTable.Price?
    let priceSource: String
    let userCounts: [Int]
    let sampleUsers: Int
    let outputs: [MonteCarloEngine.TaskOutput]

    var runs: Int { parameters.count }

    func output(run: Int, design: Int) -> MonteCarloEngine.TaskOutput {
        outputs[run * designs.count + design]
    }

    func aggregate() -> SimulationResult {
        var results = [DesignResult]()
        var meanTotals = [String: [Int: Double]]()
        for (d, design) in designs.enumerated() {
            for (k, n) in userCounts.enumerated() {
                let r = result(design: d, userIndex: k, users: n)
                meanTotals[design.name, default: [:]][n] = r.totalRequestsPerMonth.mean
                results.append(r)
            }
        }
        let headroom = headroomTable()
        for i in results.indices {
            if let base = meanTotals[scenario.baseline]?[results[i].users], base > 0 {
                results[i].ratioToBaseline = results[i].totalRequestsPerMonth.mean / base
            }
            let users = results[i].users
            results[i].requiredTier = scenario.quotas.tiers.first { tier in
                guard let h = headroom.first(where: { $0.design == results[i].design && $0.tier == tier.name }) else { return false }
                return h.maxUsers.map { users <= $0 } ?? true
            }?.name
            results[i].exceedsEveryTier = results[i].requiredTier == nil && !scenario.quotas.tiers.isEmpty
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

    /// Headroom per design and tier: sort each run's smallest breaking population; with k runs
    /// allowed to break (k = ⌊risk × runs⌋), the answer is one less than the (k+1)-th smallest.
    func headroomTable() -> [SimulationResult.Headroom] {
        var table = [SimulationResult.Headroom]()
        // The epsilon before rounding down: 0.29 × 100 is 28.999999999999996 in binary, and 29
        // runs may break, as the quota table (k / runs ≤ risk) counts them.
        let allowed = Int((scenario.quotas.acceptableRisk * Double(runs) + 1e-9).rounded(.down))
        for (d, design) in designs.enumerated() {
            for (t, tier) in scenario.quotas.tiers.enumerated() {
                let breaking = (0..<runs).compactMap { output(run: $0, design: d).firstExceedingUsers[t] }.sorted()
                var maxUsers: Int?
                if allowed < breaking.count { maxUsers = breaking[allowed] - 1 }
                let atMax = maxUsers.map { m in Double(breaking.filter { $0 <= m }.count) / Double(runs) }
                    ?? Double(breaking.count) / Double(runs)
                table.append(.init(design: design.name, tier: tier.name, maxUsers: maxUsers,
                                   largestPopulationSearched: MonteCarloEngine.largestPopulation,
                                   exceedProbabilityAtMax: atMax))
            }
        }
        return table
    }

    func result(design d: Int, userIndex k: Int, users n: Int) -> DesignResult {
        let exact = n <= sampleUsers
        var totals = [Double]()
        var perUser = CountHistogram()
        var tally = UserTally()
        var ages = AgeHistogram()
        var peaks = [Double](), means = [Double](), ratios = [Double](), tokenPeaks = [Double](), dayPeaks = [Double]()
        var busiestDays = [Int: Int]()
        var costs = [Double](), extras = [Double](), stormPeaks = [Double](), usualPeaks = [Double]()
        var tierHits = [[(Bool, Bool, Bool)]](repeating: [], count: scenario.quotas.tiers.count)
        var tierUtil = [[(Double?, Double?, Double?)]](repeating: [], count: scenario.quotas.tiers.count)
        for run in 0..<runs {
            let o = output(run: run, design: d)
            let counts = o.requestsPerUser[k]
            perUser = perUser.merged(with: counts)
            let sum = Double(counts.sum)
            let total = exact ? sum : sum / Double(counts.count) * Double(n)
            totals.append(total)
            if let price {
                // Failed requests are not billed: scale by the run's success rate.
                let billed = total * (o.tally.requests > 0 ? 1 - Double(o.tally.failedRequests) / Double(o.tally.requests) : 1)
                let p = parameters[run]
                costs.append(billed * (p.inputTokensPerRequest * price.inputCostPerToken + p.outputTokensPerRequest * price.outputCostPerToken))
            }
            if let extra = o.outageExtraRequestsPerUser { extras.append(extra) }
            tally.add(o.tally)
            ages.add(o.ages)
            let load = o.loads[k]
            let tokens = parameters[run].tokensPerRequest
            peaks.append(load.peakPerMinute)
            means.append(load.meanPerMinute)
            ratios.append(load.meanPerMinute > 0 ? load.peakPerMinute / load.meanPerMinute : 0)
            tokenPeaks.append(load.peakPerMinute * tokens)
            dayPeaks.append(load.peakQuotaDay)
            if let storm = load.afterOutagePeak, let usual = load.afterOutageUsualPeak {
                stormPeaks.append(storm)
                usualPeaks.append(usual)
            }
            busiestDays[load.busiestQuotaDay, default: 0] += 1
            for (t, tier) in scenario.quotas.tiers.enumerated() {
                let rpm = tier.rpm.map { load.peakPerMinute > $0 } ?? false
                let tpm = tier.tpm.map { load.peakPerMinute * tokens > $0 } ?? false
                let rpd = tier.rpd.map { load.peakQuotaDay > $0 } ?? false
                tierHits[t].append((rpm, tpm, rpd))
                tierUtil[t].append((tier.rpm.map { load.peakPerMinute / $0 },
                                    tier.tpm.map { load.peakPerMinute * tokens / $0 },
                                    tier.rpd.map { load.peakQuotaDay / $0 }))
            }
        }
        func per(_ value: Int64, _ over: Int64) -> Double { over > 0 ? Double(value) / Double(over) : 0 }
        let userDays = tally.userDays
        let successfulFetches = tally.fetches - tally.failedFetches
        let quota = scenario.quotas.tiers.enumerated().map { t, tier -> DesignResult.TierOutcome in
            let hits = tierHits[t]
            func share(_ f: ((Bool, Bool, Bool)) -> Bool) -> Double { Double(hits.filter(f).count) / Double(max(hits.count, 1)) }
            func p95(_ values: [Double?]) -> Double? {
                let present = values.compactMap { $0 }
                return present.isEmpty ? nil : RunSpread(present).p95
            }
            return .init(tier: tier.name,
                         exceedProbability: share { $0.0 || $0.1 || $0.2 },
                         rpmExceedProbability: share { $0.0 },
                         tpmExceedProbability: share { $0.1 },
                         rpdExceedProbability: share { $0.2 },
                         rpmUtilizationP95: p95(tierUtil[t].map(\.0)),
                         tpmUtilizationP95: p95(tierUtil[t].map(\.1)),
                         rpdUtilizationP95: p95(tierUtil[t].map(\.2)))
        }
        let busiest = busiestDays.max { $0.value != $1.value ? $0.value < $1.value : $0.key > $1.key }?.key ?? 0
        let totalSpread = RunSpread(totals)
        let requestShares = DesignResult.RequestShares(
            widgetExtension: per(tally.extensionRequests, tally.requests),
            app: per(tally.appRequests, tally.requests),
            background: per(tally.backgroundRequests, tally.requests))
        let cost = price.map { price in
            DesignResult.Cost(model: scenario.api.model, inputCostPerToken: price.inputCostPerToken,
                              outputCostPerToken: price.outputCostPerToken, perMonth: RunSpread(costs),
                              perUserMonth: Statistics.mean(costs) / Double(n), priceSource: priceSource)
        }
        var outage: DesignResult.OutageImpact?
        if !extras.isEmpty {
            let extra = Statistics.mean(extras)
            let usual = usualPeaks.isEmpty ? 0 : Statistics.mean(usualPeaks)
            let storm = RunSpread(stormPeaks.isEmpty ? [0] : stormPeaks)
            outage = .init(extraRequestsPerUserMonth: extra, extraRequestsPerMonth: extra * Double(n),
                           peakAfterOutagePerMinute: storm, usualPeakPerMinute: usual,
                           stormRatio: usual > 0 ? storm.mean / usual : nil)
        }
        var perUserQuantiles = Quantiles(perUser)
        perUserQuantiles.mean = totalSpread.mean / Double(n)
        return DesignResult(
            design: designs[d].name, users: n, method: exact ? "exact" : "projected",
            requestsPerUserMonth: perUserQuantiles,
            totalRequestsPerMonth: totalSpread,
            requestsPerUserDay: perUserQuantiles.mean / Double(scenario.horizon.days),
            ratioToBaseline: nil,
            getTimelinePerUserDay: per(tally.getTimelines, userDays),
            budgetExhaustedDayShare: per(tally.exhaustedInstanceDays, tally.instanceDays),
            backgroundRunsPerUserDay: per(tally.bgLaunches, userDays),
            backgroundExpirationsPerUserDay: per(tally.bgExpirations, userDays),
            appOpensPerUserDay: per(tally.appOpens, userDays),
            reloadCallsPerUserDay: per(tally.reloadCalls, userDays),
            reloadCallsPerSuccessfulFetch: successfulFetches > 0 ? per(tally.reloadCalls, successfulFetches) : nil,
            fetchesPerUserDay: per(tally.fetches, userDays),
            fetchFailureRate: per(tally.failedFetches, tally.fetches),
            retriesPerUserDay: per(tally.retries, userDays),
            requestShares: requestShares,
            load: .init(peakRequestsPerMinute: RunSpread(peaks), meanRequestsPerMinute: Statistics.mean(means),
                        peakToMeanRatio: Statistics.mean(ratios), peakTokensPerMinute: RunSpread(tokenPeaks),
                        peakRequestsPerQuotaDay: RunSpread(dayPeaks), busiestQuotaDay: busiest + 1),
            freshness: .init(glancesPerUserDay: per(tally.glances, userDays),
                             staleShare: per(tally.staleGlances, tally.glances),
                             overTargetShare: per(tally.overTargetGlances, tally.glances),
                             errorShare: per(tally.errorGlances, tally.glances),
                             medianAgeMinutes: ages.quantileMinutes(0.5),
                             p95AgeMinutes: ages.quantileMinutes(0.95),
                             outageErrorShare: tally.outageGlances > 0 ? per(tally.outageErrorGlances, tally.outageGlances) : nil,
                             outageStaleShare: tally.outageGlances > 0 ? per(tally.outageStaleGlances, tally.outageGlances) : nil),
            quota: quota, requiredTier: nil, cost: cost, outage: outage)
    }
}
