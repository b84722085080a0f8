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
    public init(scenario: Scenario, designs: [Design]? = nil, threads: Int? = nil,
                parameters: (@Sendable (Int) -> RunParameters)? = nil) {
        self.scenario = scenario
        self.designs = designs ?? scenario.availableDesigns
        self.threads = max(1, threads ?? Parallel.defaultThreads)
        self.parameterOverride = parameters
    }

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
    }

    /// Simulates `sampleUsers` users of one run and design and measures each population size.
    public static func simulate(model: SimulationModel, sampleUsers: Int, userCounts: [Int]) -> TaskOutput {
        var out = TaskOutput()
        out.perUserRequests.reserveCapacity(sampleUsers)
        var buckets = [Int32](repeating: 0, count: model.countedMinutes)
        var ages = [Int64](repeating: 0, count: AgeHistogram.binCount)
        let quotaOffset = model.scenario.quotas.resetUTCOffsetHours
        var exactLoads = [Int: LoadSummary]()
        let exactCounts = Set(userCounts.filter { $0 <= sampleUsers })
        var series = [Double](repeating: 0, count: model.countedMinutes)

        buckets.withUnsafeMutableBufferPointer { bucketBuffer in
            ages.withUnsafeMutableBufferPointer { ageBuffer in
                for user in 0..<sampleUsers {
                    var sim = UserSimulator(model: model, user: user, observer: NoObserver())
                    sim.buckets = bucketBuffer.baseAddress
                    sim.ages = ageBuffer.baseAddress
                    sim.run()
                    out.tally.add(sim.tally)
                    out.perUserRequests.append(sim.monthRequests)
                    if exactCounts.contains(user + 1) {
                        for i in 0..<bucketBuffer.count { series[i] = Double(bucketBuffer[i]) }
                        exactLoads[user + 1] = series.withUnsafeBufferPointer {
                            LoadSummary(series: $0, quotaResetUTCOffsetHours: quotaOffset)
                        }
                    }
                }
            }
        }
        out.ages.counts = ages

        let projection = userCounts.contains { $0 > sampleUsers }
            ? LoadProjection(sample: buckets, sampleUsers: sampleUsers,
                             disturbed: LoadProjection.disturbedMinutes(model: model),
                             batch: Double(model.design.requestsPerFetch))
            : nil
        for n in userCounts {
            if let exact = exactLoads[n] {
                out.loads.append(exact)
            } else if let projection {
                let projected = projection.series(users: n, seed: model.scenario.horizon.seed, run: model.run, design: model.designIndex)
                out.loads.append(projected.withUnsafeBufferPointer {
                    LoadSummary(series: $0, quotaResetUTCOffsetHours: quotaOffset)
                })
            }
        }
        let days = Double(model.scenario.horizon.days) * Double(sampleUsers)
        for (t, count) in buckets.enumerated() {
            out.minuteOfDayPerUser[t % 1_440] += Double(count) / days
        }
        return out
    }
}
