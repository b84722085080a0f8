import Foundation

/// Runs the Monte-Carlo projection: for every run and design, simulates a sample of users event by
/// event, then measures every requested population size from it.
///
/// Populations up to `horizon.sampleUsers` are simulated in full (the first N users of the sample,
/// so the populations are nested and totals grow monotonically); larger ones are projected from
/// the sample (see `LoadProjection`). Work is split by (run, design) and every random stream is
/// keyed by seed, run, user and purpose, so the result is identical for any thread count.
public struct MonteCarloEngine: Sendable {
    public let scenario: Scenario
    public let designs: [Design]
    public let threads: Int
    /// Replaces the per-run draw of the uncertain assumptions (sensitivity analysis, tests).
    public let parameterOverride: (@Sendable (Int) -> RunParameters)?

    /// - Parameters:
    ///   - designs: the designs to compare (defaults to every available design).
    ///   - threads: worker threads (defaults to every core).
    ///   - parameters: the assumptions of run `i`; by default drawn from the scenario's distributions.
    ///   - prices: the price table; the scenario's `api.model` is looked up in it (no cost when absent).
    public init(scenario: Scenario, designs: [Design]? = nil, threads: Int? = nil,
                parameters: (@Sendable (Int) -> RunParameters)? = nil, prices: PriceTable = .bundled) {
        self.scenario = scenario
        self.designs = designs ?? scenario.availableDesigns
        self.threads = max(1, threads ?? Parallel.defaultThreads)
        self.parameterOverride = parameters
        self.prices = prices
    }

    /// Prices used for cost.
    public let prices: PriceTable

    /// Users simulated event by event per run.
    public var sampleSize: Int { min(scenario.horizon.sampleUsers, scenario.horizon.users.max() ?? 1) }

    /// Runs every (run, design) pair and aggregates the results.
    public func run() -> SimulationResult {
        let runs = scenario.horizon.runs
        let designCount = designs.count
        let scenario = self.scenario, designs = self.designs
        let parameters = (0..<runs).map { parameterOverride?($0) ?? RunParameters.draw(scenario, run: $0) }
        let sample = sampleSize
        let userCounts = scenario.horizon.users.sorted()
        let outputs = Parallel.map(count: runs * designCount, threads: threads) { index in
            let run = index / designCount, d = index % designCount
            let model = SimulationModel(scenario: scenario, design: designs[d], designIndex: d, run: run, parameters: parameters[run])
            return MonteCarloEngine.simulate(model: model, sampleUsers: sample, userCounts: userCounts)
        }
        return ResultAggregator(scenario: scenario, designs: designs, parameters: parameters,
                                price: try? prices.price(for: scenario.api.model), priceSource: prices.source,
                                userCounts: userCounts, sampleUsers: sample, outputs: outputs).aggregate()
    }

    /// What one (run, design) pair produced.
    public struct TaskOutput: Sendable {
        public var tally = UserTally()
        public var perUserRequests: [Int32] = []
        public var ages = AgeHistogram()
        /// One load summary per user count, in ascending user-count order.
        public var loads: [LoadSummary] = []
        /// Mean requests per user in each UTC minute of the day, for the typical-day chart.
        public var minuteOfDayPerUser = [Double](repeating: 0, count: 1_440)
        /// Per quota tier: the smallest population that breaks one of its limits in this run
        /// (nil: none up to `MonteCarloEngine.largestPopulation`).
        public var firstExceedingUsers: [Int?] = []
        /// Requests per user per month that the outages added (same users simulated without them).
        public var outageExtraRequestsPerUser: Double?
    }

    /// The largest population a headroom search considers.
    public static let largestPopulation = ScenarioValidator.maxUsers

    /// Users re-simulated without outages to measure what an outage adds.
    public static let outageCounterfactualUsers = 100

    /// Simulates `sampleUsers` users of one run and design and measures each population size.
    public static func simulate(model: SimulationModel, sampleUsers: Int, userCounts: [Int]) -> TaskOutput {
        var out = TaskOutput()
        out.perUserRequests.reserveCapacity(sampleUsers)
        var buckets = [Int32](repeating: 0, count: model.countedMinutes)
        var quotaDays = [Int64](repeating: 0, count: max(model.completeQuotaDays, 1))
        var ages = [Int64](repeating: 0, count: AgeHistogram.binCount)
        let tiers = model.scenario.quotas.tiers
        let tokens = model.parameters.tokensPerRequest
        var firstExceeding = [Int?](repeating: nil, count: tiers.count)
        var exactLoads = [Int: LoadSummary]()
        let exactCounts = Set(userCounts.filter { $0 <= sampleUsers })
        var series = [Double](repeating: 0, count: model.countedMinutes)
        var peakPerMinute: Int32 = 0
        var peakQuotaDay: Int64 = 0

        buckets.withUnsafeMutableBufferPointer { bucketBuffer in
            ages.withUnsafeMutableBufferPointer { ageBuffer in
                quotaDays.withUnsafeMutableBufferPointer { dayBuffer in
                    let workspace = SimulationWorkspace(model: model)
                    for user in 0..<sampleUsers {
                        var sim = UserSimulator(model: model, user: user, observer: NoObserver(), workspace: workspace)
                        sim.buckets = bucketBuffer.baseAddress
                        sim.ages = ageBuffer.baseAddress
                        sim.quotaDays = dayBuffer.baseAddress
                        sim.peakPerMinute = peakPerMinute
                        sim.peakQuotaDay = peakQuotaDay
                        sim.run()
                        peakPerMinute = sim.peakPerMinute
                        peakQuotaDay = sim.peakQuotaDay
                        out.tally.add(sim.tally)
                        out.perUserRequests.append(sim.monthRequests)
                        for (t, tier) in tiers.enumerated() where firstExceeding[t] == nil {
                            if tier.isExceeded(peakPerMinute: Double(peakPerMinute), peakQuotaDay: Double(peakQuotaDay), tokensPerRequest: tokens) {
                                firstExceeding[t] = user + 1
                            }
                        }
                        if exactCounts.contains(user + 1) {
                            for i in 0..<bucketBuffer.count { series[i] = Double(bucketBuffer[i]) }
                            exactLoads[user + 1] = series.withUnsafeBufferPointer { LoadSummary(series: $0, model: model) }
                        }
                    }
                }
            }
        }
        out.ages.counts = ages

        let projection = LoadProjection(sample: buckets, sampleUsers: sampleUsers, model: model)
        for n in userCounts {
            if let exact = exactLoads[n] {
                out.loads.append(exact)
            } else {
                let projected = projection.series(users: n)
                out.loads.append(projected.withUnsafeBufferPointer { LoadSummary(series: $0, model: model) })
            }
        }
        // Beyond the sample, search the projection: its load grows monotonically with N.
        for (t, tier) in tiers.enumerated() where firstExceeding[t] == nil {
            firstExceeding[t] = projection.firstExceeding(tier: tier, tokensPerRequest: tokens, above: sampleUsers,
                                                          largest: largestPopulation, model: model)
        }
        out.firstExceedingUsers = firstExceeding
        out.outageExtraRequestsPerUser = outageExtra(model: model, withOutage: out.perUserRequests)
        let days = Double(model.scenario.horizon.days) * Double(sampleUsers)
        for (t, count) in buckets.enumerated() {
            out.minuteOfDayPerUser[t % 1_440] += Double(count) / days
        }
        return out
    }

    /// The smallest population above `above` whose projected load breaks `tier`, by bisection over
    /// whole projected series: the reference that `LoadProjection.firstExceeding` must agree with.
    static func firstExceeding(tier: QuotaTier, projection: LoadProjection, model: SimulationModel,
                               above: Int, tokens: Double) -> Int? {
        func breaks(_ n: Int) -> Bool {
            let p = projection.peaks(users: n, model: model)
            return tier.isExceeded(peakPerMinute: p.perMinute, peakQuotaDay: p.quotaDay, tokensPerRequest: tokens)
        }
        var low = above, high = largestPopulation
        guard breaks(high) else { return nil }
        while high - low > 1 {
            let mid = low + (high - low) / 2
            if breaks(mid) { high = mid } else { low = mid }
        }
        return high
    }

    /// Re-simulates the first users without outages (same random streams) and returns the
    /// requests per user per month the outages added.
    static func outageExtra(model: SimulationModel, withOutage: [Int32]) -> Double? {
        guard !model.outages.isEmpty else { return nil }
        var calm = model.scenario
        calm.api.outages = []
        let calmModel = SimulationModel(scenario: calm, design: model.design, designIndex: model.designIndex,
                                        run: model.run, parameters: model.parameters)
        let users = min(outageCounterfactualUsers, withOutage.count)
        guard users > 0 else { return nil }
        var difference = 0.0
        let workspace = SimulationWorkspace(model: calmModel)
        for user in 0..<users {
            var sim = UserSimulator(model: calmModel, user: user, observer: NoObserver(), workspace: workspace)
            sim.run()
            difference += Double(withOutage[user]) - Double(sim.monthRequests)
        }
        return difference / Double(users)
    }
}
