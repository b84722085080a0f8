import Foundation
import WidgetQuotaModel
import WidgetQuotaSupport

/// Runs the Monte-Carlo projection: for every run and design, simulates a sample of users event by
/// event, then measures every requested population size from it.
///
/// Populations up to `horizon.sampleUsers` are simulated in full (the first N users of the sample,
/// so the populations are nested and totals grow monotonically); larger ones are projected from
/// the sample (see `LoadProjection`). Work is split by (run, design) and every random stream is
/// keyed by seed, run, user and purpose, so the result is identical for any thread count.
package struct MonteCarloEngine: Sendable {
    package let scenario: Scenario
    package let designs: [Design]
    package let threads: Int
    /// Replaces the per-run draw of the uncertain assumptions (sensitivity analysis, tests).
    package let parameterOverride: (@Sendable (Int) -> RunParameters)?

    /// - Parameters:
    ///   - designs: the designs to compare (defaults to every available design).
    ///   - threads: worker threads (defaults to every core).
    ///   - parameters: the assumptions of run `i`; by default drawn from the scenario's distributions.
    ///   - prices: the price table; the scenario's `api.model` is looked up in it (no cost when
    ///     absent), and the provider it names for the model chooses the bundled quota tiers when
    ///     the scenario lists none.
    ///   - measuresOutageExtra: simulate each run's first `outageCounterfactualUsers` users
    ///     without the outages to measure the requests they add; the studies, which do not
    ///     report it, turn it off.
    package init(
        scenario: Scenario, designs: [Design]? = nil, threads: Int? = nil,
        parameters: (@Sendable (Int) -> RunParameters)? = nil, prices: PriceTable = .bundled,
        measuresOutageExtra: Bool = true
    ) {
        self.scenario = scenario.choosingTiers(prices: prices)
        self.designs = designs ?? scenario.availableDesigns
        self.threads = max(1, threads ?? Parallel.defaultThreads)
        self.parameterOverride = parameters
        self.prices = prices
        self.measuresOutageExtra = measuresOutageExtra
    }

    /// Whether each run's first users are simulated without the outages as well (see `init`).
    package let measuresOutageExtra: Bool

    /// Prices used for cost.
    package let prices: PriceTable

    /// Users simulated event by event per run: `horizon.sampleUsers`, or fewer when no listed
    /// population (nor month of `horizon.growth`) has that many users.
    package var sampleSize: Int { Self.sampleSize(scenario) }

    /// Users simulated event by event per run for `scenario` (see `sampleSize`).
    package static func sampleSize(_ scenario: Scenario) -> Int {
        min(scenario.horizon.sampleUsers, max(scenario.horizon.users.max() ?? 1, scenario.horizon.growth?.users.max() ?? 1))
    }

    /// Called from a worker each time a task (one run under a group of designs) ends; there are
    /// `taskCount` of them. Nil: nothing is reported.
    package var onTaskFinished: (@Sendable () -> Void)?

    /// Tasks `run()` and `runWithOrdinaryDays()` split the work into.
    package var taskCount: Int { scenario.horizon.runs * designGroups().count }

    /// User-days the simulation runs through, every design and run together (the padding and
    /// warm-up days included): the measure of how long it takes.
    package var simulatedUserDays: Double {
        let h = scenario.horizon
        let days = SimulationModel.paddingDays + h.warmupDays + h.days + 1
        return Double(h.runs) * Double(sampleSize) * Double(days) * Double(designs.count)
    }

    /// Runs every (run, design) pair and aggregates the results.
    package func run() -> SimulationResult { simulateAll().aggregate() }

    /// Runs every (run, design) pair once and aggregates the results twice: as simulated, and
    /// (when the scenario has outages) with every minute an outage or its recovery disturbs at
    /// the same minute's mean over the other days, which is what the verdict compares against
    /// to say which tier an outage costs. Only loads, quota outcomes and tiers differ between
    /// the two; the second has no headroom table (its tier is read from its own quota outcomes).
    ///
    /// A task simulates one run under a group of designs, user by user: each user's
    /// design-independent activity is drawn once and replayed under every design of the group.
    /// Designs are split into as many groups as keep every thread busy (one group when there
    /// are runs enough), and the result does not depend on the grouping.
    package func runWithOrdinaryDays() -> (result: SimulationResult, withoutOutages: SimulationResult?) {
        var aggregator = simulateAll()
        let result = aggregator.aggregate()
        guard !scenario.api.outages.isEmpty else { return (result, nil) }
        aggregator.ordinaryDays = true
        return (result, aggregator.aggregate())
    }

    /// Simulates every (run, design) pair; the aggregator holds their outputs in (run, design) order.
    private func simulateAll() -> ResultAggregator {
        let runs = scenario.horizon.runs
        let designCount = designs.count
        let scenario = self.scenario
        let designs = self.designs.map { scenario.simulated($0) }
        // The engine counts requests: a credit-priced API's limits become each design's requests.
        let counted = designs.map { scenario.limitsInRequests(for: $0) }
        let measuresOutageExtra = self.measuresOutageExtra
        let parameters = (0..<runs).map { parameterOverride?($0) ?? RunParameters.draw(scenario, run: $0) }
        let sample = sampleSize
        let userCounts = scenario.horizon.users.sorted()
        let groups = designGroups()
        let onTaskFinished = self.onTaskFinished
        // Background launch rates depend on the design's interval and the scenario, not the run.
        let backgroundShape = DayShape(weights: scenario.population.activity.background)
        let intervals = Set(
            designs.filter { $0.fetchTriggers.contains(.backgroundTask) }
                .map { SimulationModel.backgroundIntervalHours($0, scenario) })
        let calibrations = Dictionary(
            uniqueKeysWithValues: intervals.map {
                ($0, BackgroundCalibration(shape: backgroundShape, intervalHours: $0))
            })
        let grouped = Parallel.map(count: runs * groups.count, threads: threads) { index in
            let run = index / groups.count
            let group = groups[index % groups.count]
            let models = group.map { d in
                SimulationModel(
                    scenario: counted[d], design: designs[d], run: run, parameters: parameters[run],
                    backgroundCalibration: calibrations[SimulationModel.backgroundIntervalHours(designs[d], scenario)])
            }
            let output = MonteCarloEngine.simulate(
                models: models, sampleUsers: sample, userCounts: userCounts, measuresOutageExtra: measuresOutageExtra)
            onTaskFinished?()
            return output
        }
        // Back in (run, design) order.
        var outputs = [TaskOutput?](repeating: nil, count: runs * designCount)
        for (index, results) in grouped.enumerated() {
            let run = index / groups.count
            for (d, output) in zip(groups[index % groups.count], results) { outputs[run * designCount + d] = output }
        }
        return ResultAggregator(
            scenario: scenario, tiersByDesign: counted.map(\.quotas.tiers), designs: designs, parameters: parameters,
            price: scenario.api.pricedPerToken ? try? prices.price(for: scenario.api.model) : nil, priceSource: prices.source,
            userCounts: userCounts, sampleUsers: sample, outputs: outputs.map { $0! })
    }

    /// The design groups of the tasks: a task keeps every design of its group's counters, at
    /// most `taskMemoryBudget` of them.
    private func designGroups() -> [[Int]] {
        let perDesign = DesignTask.bytesPerDesign(days: scenario.horizon.days)
        return MonteCarloEngine.designGroups(
            designs: designs.count, runs: scenario.horizon.runs, threads: threads,
            maxPerGroup: max(1, MonteCarloEngine.taskMemoryBudget / perDesign))
    }

    /// Bytes of per-design counters one task may hold (a long horizon with many designs would
    /// otherwise multiply them by the designs sharing a task).
    static let taskMemoryBudget = 16 << 20

    /// Design indices by group: one group when the runs alone give every thread two tasks,
    /// otherwise as many as needed (up to one design each), and never more than `maxPerGroup`
    /// designs in a group. Designs are dealt round-robin, so heavy designs (frequent polling)
    /// spread over the groups and the threads finish together.
    package static func designGroups(designs: Int, runs: Int, threads: Int, maxPerGroup: Int = .max) -> [[Int]] {
        guard designs > 0 else { return [] }
        let wanted = (2 * threads + max(runs, 1) - 1) / max(runs, 1)
        let perGroup = max(maxPerGroup, 1)
        let bounded = designs / perGroup + (designs % perGroup == 0 ? 0 : 1)  // rounded up, without overflow
        let count = min(designs, max(1, wanted, bounded))
        return (0..<count).map { g in Array(stride(from: g, to: designs, by: count)) }
    }

    /// What one (run, design) pair produced.
    package struct TaskOutput: Sendable {
        package var tally = UserTally()
        /// Requests per user in the counted month, one distribution per user count in ascending
        /// user-count order: the first N users for a population simulated in full, the whole
        /// sample for a projected one.
        package var requestsPerUser: [CountHistogram] = []
        package var ages = AgeHistogram()
        /// The ages of the glances in the calendar's open hours (empty without them).
        package var openAges = AgeHistogram()
        /// One load summary per user count, in ascending user-count order.
        package var loads: [LoadSummary] = []
        /// The same loads on ordinary days: each minute an outage or its recovery disturbs at the
        /// same minute's mean over the other days (nil: the scenario has no outage).
        package var loadsWithoutOutages: [LoadSummary]?
        /// Mean requests per user in each UTC minute of the day, for the typical-day chart.
        package var minuteOfDayPerUser = [Double](repeating: 0, count: TimeUnits.minutesPerDay)
        /// Per quota tier: the smallest population that breaks one of its limits in this run
        /// (nil: none up to `MonteCarloEngine.largestPopulation`).
        package var firstExceedingUsers: [Int?] = []
        /// Per quota tier: the first population with a user whose one request costs more credits
        /// than the tier allows a minute (a long watchlist on a small plan); nil: none in the sample.
        package var firstOversizedUsers: [Int?] = []
        /// Requests per user per month that the outages added (same users simulated without them).
        package var outageExtraRequestsPerUser: Double?
        /// A backend design's device requests, one load per user count (`loads` then holds its
        /// paid requests); nil for a design whose devices call the API.
        package var backendLoads: [LoadSummary]?
    }

    /// The largest population a headroom search considers.
    package static let largestPopulation = ScenarioValidator.maxUsers

    /// Users of each run simulated without the outages as well, to measure what they add.
    package static let outageCounterfactualUsers = 100

    /// Simulates `sampleUsers` users of one run and design and measures each population size.
    package static func simulate(model: SimulationModel, sampleUsers: Int, userCounts: [Int]) -> TaskOutput {
        simulate(models: [model], sampleUsers: sampleUsers, userCounts: userCounts)[0]
    }

    /// Simulates `sampleUsers` users of one run under each of `models` (designs of that run:
    /// same scenario, run and parameters), drawing each user's activity once, and measures each
    /// population size per design.
    package static func simulate(
        models: [SimulationModel], sampleUsers: Int, userCounts: [Int], measuresOutageExtra: Bool = true
    ) -> [TaskOutput] {
        guard let first = models.first else { return [] }
        // Checked by what the activity is drawn from: run, seed and days (not by comparing whole
        // scenarios, which a NaN in overridden parameters would never equal).
        precondition(
            models.allSatisfy {
                $0.run == first.run && $0.scenario.horizon.seed == first.scenario.horizon.seed
                    && $0.simulatedDays == first.simulatedDays
            }, "a user's activity is shared only between designs of one run")
        let tasks = models.map {
            DesignTask(model: $0, sampleUsers: sampleUsers, userCounts: userCounts, measuresOutageExtra: measuresOutageExtra)
        }
        let buffers = ActivityBuffers(model: first)
        let series = UnsafeMutableBufferPointer<Double>.allocate(capacity: first.countedMinutes)
        defer { series.deallocate() }
        // The activity points into `buffers`: keep them alive for the whole loop.
        withExtendedLifetime(buffers) {
            for user in 0..<sampleUsers {
                let activity = UserActivity(model: first, user: user, buffers: buffers)
                for task in tasks { task.simulate(user: user, activity: activity, series: series) }
            }
        }
        let deviates = LoadProjection.deviates(model: first)
        return tasks.map { $0.finish(deviates: deviates) }
    }

    /// The smallest population above `above` whose projected load breaks `tier`, by bisection over
    /// whole projected series: the reference that `LoadProjection.firstExceeding` must agree with.
    package static func firstExceeding(
        tier: QuotaTier, projection: LoadProjection, model: SimulationModel,
        above: Int, tokens: Double
    ) -> Int? {
        func breaks(_ n: Int) -> Bool {
            tier.isExceeded(projection.peaks(users: n, model: model), tokensPerRequest: tokens)
        }
        var low = above
        var high = largestPopulation
        guard breaks(high) else { return nil }
        while high - low > 1 {
            let mid = low + (high - low) / 2
            if breaks(mid) { high = mid } else { low = mid }
        }
        return high
    }
}
