import Foundation
import WidgetQuotaModel
import WidgetQuotaSimulation
import WidgetQuotaSupport

/// What drives the number: each uncertain assumption moved alone to its p5 and its p95 while every
/// other assumption stays at its central value, and the resulting monthly requests (credits, for
/// an API billed per credit: `unit`) of one design.
public struct SensitivityResult: Codable, Sendable, Equatable {
    /// The design measured.
    public var design: String
    /// The population the monthly requests are stated for (per-user mean × users).
    public var users: Int
    /// Users simulated per setting (one run each, the same users and random streams every time).
    public var sampleUsers: Int
    /// Monthly requests with every assumption at its central value.
    public var central: Double
    /// One entry per uncertain assumption and per fixed input moved (`SensitivityInput`: keys a
    /// user follows, keys, the reload budget), widest swing first.
    public var drivers: [Driver]
    /// The sample's own noise: the standard error of a swing, in monthly requests (nil when the
    /// sample is too small to split or no assumption is uncertain). Each swing is measured again
    /// on the first and on the second half of the sample's users (same settings, same random
    /// streams); half their difference is one estimate of the full sample's error, and this is
    /// the root mean square of those estimates over every assumption.
    public var noise: Double?
    /// `noise` as a share of the central value.
    public var noiseShare: Double?
    /// The tier or plan `users` users need with every assumption central (nil: none listed is
    /// enough, or no tiers).
    public var centralTier: String?
    /// Their cost a month with every assumption central (nil: no price).
    public var centralCost: Double?
    /// What `central`, each driver's `requestsAtLow`, `requestsAtHigh` and `swing`, and `noise`
    /// count: `credits` for an API billed per credit (the credits the requests carry, as its
    /// limits count them: a watchlist's length moves them, not the requests), else `requests`
    /// (nil: requests).
    public var unit: String?

    /// `unit`, `requests` when absent.
    public var measure: String { unit ?? "requests" }

    /// A cost swing that moves the decision: this share of the central cost.
    public static let decisiveCostShare = 0.05

    /// What moves the decision rather than the total: the assumptions whose p5 or p95 changes
    /// the tier or plan needed, then those that swing the cost by `decisiveCostShare` of it or
    /// more (output tokens move the cost of a language model, not its requests), each group the
    /// widest cost swing first.
    public var decisionDrivers: [Driver] {
        let centralCost = self.centralCost ?? 0
        func decisive(_ d: Driver) -> Bool {
            d.movesTier == true || (centralCost > 0 && (d.costSwing ?? 0) >= Self.decisiveCostShare * centralCost)
        }
        return drivers.enumerated().filter { decisive($0.element) }.sorted { a, b in
            let (ta, tb) = (a.element.movesTier == true, b.element.movesTier == true)
            if ta != tb { return ta }
            let (x, y) = (a.element.costSwing ?? 0, b.element.costSwing ?? 0)
            return x != y ? x > y : a.offset < b.offset
        }.map(\.element)
    }

    package init(
        design: String, users: Int, sampleUsers: Int, central: Double, drivers: [Driver], noise: Double? = nil, noiseShare: Double? = nil
    ) {
        self.design = design
        self.users = users
        self.sampleUsers = sampleUsers
        self.central = central
        self.drivers = drivers
        self.noise = noise
        self.noiseShare = noiseShare
    }

    /// A swing counts as more than noise when it is at least this many times `noise`.
    public static let noiseMultiple = 3.0

    /// The assumption that clearly moves the answer most: the widest swing, when it is at least
    /// `noiseMultiple` times the noise; nil when no swing clearly exceeds the noise (or nothing is uncertain).
    public var dominantDriver: Driver? {
        guard let top = drivers.first, top.swing > 0 else { return nil }
        guard let noise else { return top }
        return top.swing >= Self.noiseMultiple * noise ? top : nil
    }

    /// One assumption's effect.
    public struct Driver: Codable, Sendable, Equatable {
        /// Dotted scenario path, e.g. `platform.getTimelinePerDay`.
        public var assumption: String
        /// The distribution, e.g. `triangular(1, 2, 3)`.
        public var distribution: String
        /// The assumption's value at its p5.
        public var lowValue: Double
        /// The assumption's value at its p95.
        public var highValue: Double
        /// Monthly requests with the assumption at its p5.
        public var requestsAtLow: Double
        /// Monthly requests with the assumption at its p95.
        public var requestsAtHigh: Double
        /// |requestsAtHigh − requestsAtLow|.
        public var swing: Double
        /// Swing as a share of the central value.
        public var swingShare: Double
        /// True when the swing is at least `noiseMultiple` times the sample's noise (nil: noise not measured).
        public var exceedsNoise: Bool?
        /// The tier or plan needed with the assumption at its p5 (nil: none listed is enough,
        /// or no tiers).
        public var tierAtLow: String?
        /// The tier or plan needed with the assumption at its p95.
        public var tierAtHigh: String?
        /// The cost a month with the assumption at its p5 (nil: no price).
        public var costAtLow: Double?
        /// The cost a month with the assumption at its p95 (nil: no price).
        public var costAtHigh: Double?
        /// True when the tier or plan needed at p5 or p95 differs from the central one's (nil:
        /// the scenario lists no tiers).
        public var movesTier: Bool?

        /// |costAtHigh − costAtLow| (nil unless both are priced).
        public var costSwing: Double? {
            guard let costAtLow, let costAtHigh else { return nil }
            return abs(costAtHigh - costAtLow)
        }

        package init(
            assumption: String, distribution: String, lowValue: Double, highValue: Double, requestsAtLow: Double, requestsAtHigh: Double,
            swing: Double, swingShare: Double, exceedsNoise: Bool? = nil
        ) {
            self.assumption = assumption
            self.distribution = distribution
            self.lowValue = lowValue
            self.highValue = highValue
            self.requestsAtLow = requestsAtLow
            self.requestsAtHigh = requestsAtHigh
            self.swing = swing
            self.swingShare = swingShare
            self.exceedsNoise = exceedsNoise
        }
    }
}

/// Runs the one-at-a-time sensitivity analysis cheaply: one run of a small user sample per setting,
/// with common random numbers, so the differences come from the assumption and not from noise.
package struct SensitivityAnalysis: Sendable {
    package var scenario: Scenario
    package var design: Design
    package var users: Int
    package var sampleUsers: Int
    package var threads: Int
    /// The quantiles an assumption is moved to.
    package static let lowQuantile = 0.05, highQuantile = 0.95
    /// Users simulated per setting unless told otherwise: about a second for all settings.
    package static let defaultSampleUsers = 300

    /// - Parameters:
    ///   - users: the population monthly requests are stated for.
    ///   - sampleUsers: users simulated per setting (default `defaultSampleUsers`).
    package init(scenario: Scenario, design: Design, users: Int, sampleUsers: Int = defaultSampleUsers, threads: Int? = nil) {
        self.scenario = scenario
        self.design = design
        self.users = users
        self.sampleUsers = max(1, sampleUsers)
        self.threads = max(1, threads ?? Parallel.defaultThreads)
    }

    /// The uncertain assumptions that will be moved.
    package var uncertain: [(path: String, distribution: Distribution)] {
        RunParameters.assumptions(of: scenario).filter { $0.distribution.isUncertain }
    }

    /// The fixed inputs that will be moved (keys a user follows, keys, the reload budget).
    var inputs: [SensitivityInput] { SensitivityInput.inputs(of: scenario, design: design) }

    /// Settings simulated: the centre, then each assumption at its low and high quantile, then
    /// each fixed input at its low and high value.
    package var settingCount: Int { 1 + 2 * (uncertain.count + inputs.count) }

    /// Below this many users the sample is not split into halves to measure its noise.
    static let minimumUsersToSplit = 4

    /// One run of `sampleUsers` users, simulated in full, stated for the whole sample and for
    /// its first half (the exact first N users), from which the noise is measured.
    static func reduced(_ scenario: Scenario, sampleUsers: Int) -> Scenario {
        var small = scenario
        small.horizon.runs = 1
        small.horizon.sampleUsers = sampleUsers
        small.horizon.users = sampleUsers >= minimumUsersToSplit ? [sampleUsers / 2, sampleUsers] : [sampleUsers]
        return small
    }

    /// The tier and cost of one setting's row for the stated population.
    struct Decision {
        var tier: String?
        var cost: Double?
    }

    /// Runs every setting; `progress` is called once per finished setting (from any thread).
    package func run(progress: (@Sendable () -> Void)? = nil) -> SensitivityResult {
        let assumptions = uncertain
        let inputs = self.inputs
        // (assumption path, value) or (input index, value); the centre first.
        let settings: [(path: String?, input: Int?, value: Double)] =
            [(nil, nil, 0)]
            + assumptions.flatMap { a in
                [(a.path, nil, a.distribution.quantile(Self.lowQuantile)), (a.path, nil, a.distribution.quantile(Self.highQuantile))]
            }
            + inputs.enumerated().flatMap { i, input in [(nil, i, input.low), (nil, i, input.high)] }
        let design = self.design
        let users = Double(self.users)
        var reduced = Self.reduced(scenario, sampleUsers: sampleUsers)
        let half = reduced.horizon.users.count > 1 ? reduced.horizon.users[0] : nil
        let sampleCount = reduced.horizon.users.last ?? sampleUsers
        // The stated population too, projected from the sample, for the tier and cost it needs.
        let stated = self.users
        if !reduced.horizon.users.contains(stated) { reduced.horizon.users = (reduced.horizon.users + [stated]).sorted() }
        let small = reduced
        let hasTiers = !small.quotas.tiers.isEmpty
        let sample = Double(sampleUsers)
        // An API billed per credit is measured in the credits its requests carry, as its limits
        // count them: requests × the credits of one (the keys a user follows move them).
        let credits = small.api.pricing?.per == .credit
        // Monthly requests of the whole sample and of its two halves, scaled to `users`.
        let monthly = Parallel.map(count: settings.count, threads: threads) {
            i -> (all: Double, halves: (Double, Double)?, decision: Decision) in
            let setting = settings[i]
            var moved = small
            if let input = setting.input { inputs[input].apply(&moved, setting.value) }
            let parameters = RunParameters(scenario: moved) { path, distribution in
                path == setting.path ? setting.value : distribution.central
            }
            let engine = MonteCarloEngine(scenario: moved, designs: [design], threads: 1, parameters: { _ in parameters })
            let results = engine.run().results
            let unitsPerRequest = credits ? moved.unitsPerRequest(of: design) : 1
            func perUserMonth(_ row: DesignResult?) -> Double? { row.map { $0.requestsPerUserMonth.mean * unitsPerRequest } }
            let all = perUserMonth(results.first { $0.users == sampleCount }) ?? .nan
            let row = results.first { $0.users == stated }
            let decision = Decision(tier: row?.requiredTier, cost: row?.cost?.perMonth.mean)
            var halves: (Double, Double)?
            if let half, let first = perUserMonth(results.first(where: { $0.users == half })) {
                let n = Double(half)
                halves = (first * users, (all * sample - first * n) / (sample - n) * users)
            }
            progress?()
            return (all * users, halves, decision)
        }
        let central = monthly[0].all
        // Half the difference between the halves' swings estimates the error of the full sample's swing.
        let movedCount = assumptions.count + inputs.count
        let errors = (0..<movedCount).compactMap { k -> Double? in
            guard let low = monthly[1 + 2 * k].halves, let high = monthly[2 + 2 * k].halves else { return nil }
            return ((high.0 - low.0) - (high.1 - low.1)) / 2
        }
        let noise = errors.isEmpty ? nil : (errors.reduce(0) { $0 + $1 * $1 } / Double(errors.count)).squareRoot()
        let moved: [(path: String, summary: String)] =
            assumptions.map { ($0.path, $0.distribution.summary) } + inputs.map { ($0.path, $0.summary) }
        let drivers = moved.enumerated().map { k, a -> SensitivityResult.Driver in
            let low = monthly[1 + 2 * k].all
            let high = monthly[2 + 2 * k].all
            let swing = abs(high - low)
            var driver = SensitivityResult.Driver(
                assumption: a.path, distribution: a.summary,
                lowValue: settings[1 + 2 * k].value, highValue: settings[2 + 2 * k].value,
                requestsAtLow: low, requestsAtHigh: high, swing: swing,
                swingShare: central > 0 ? swing / central : 0,
                exceedsNoise: noise.map { swing > 0 && swing >= SensitivityResult.noiseMultiple * $0 })
            let (atLow, atHigh) = (monthly[1 + 2 * k].decision, monthly[2 + 2 * k].decision)
            driver.tierAtLow = atLow.tier
            driver.tierAtHigh = atHigh.tier
            driver.costAtLow = atLow.cost
            driver.costAtHigh = atHigh.cost
            if hasTiers { driver.movesTier = atLow.tier != monthly[0].decision.tier || atHigh.tier != monthly[0].decision.tier }
            return driver
        }
        // Widest first; ties in scenario order (the sort is stable).
        let sorted = drivers.enumerated().sorted {
            $0.element.swing != $1.element.swing ? $0.element.swing > $1.element.swing : $0.offset < $1.offset
        }
        var result = SensitivityResult(
            design: design.name, users: self.users, sampleUsers: sampleUsers, central: central,
            drivers: sorted.map(\.element), noise: noise,
            noiseShare: noise.map { central > 0 ? $0 / central : 0 })
        result.centralTier = monthly[0].decision.tier
        result.centralCost = monthly[0].decision.cost
        result.unit = credits ? "credits" : "requests"
        return result
    }
}
