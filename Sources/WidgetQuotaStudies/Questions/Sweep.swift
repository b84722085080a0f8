import Foundation
import WidgetQuotaModel
import WidgetQuotaSimulation
import WidgetQuotaSupport

/// Varies one design knob over a range and measures requests, cost, peak load and staleness
/// for each value, marking the values no other value beats on both requests and staleness.
public struct Sweep: Sendable {
    /// The design knobs a sweep can vary.
    public enum Knob: String, Sendable, Codable, CaseIterable {
        /// Cache TTL in minutes.
        case ttl
        /// BGAppRefreshTask earliest-begin interval in hours.
        case background
        /// Timeline reload policy `.after(minutes)`.
        case poll

        /// The unit of the knob's values.
        public var unit: String {
            switch self {
            case .ttl, .poll: return "min"
            case .background: return "h"
            }
        }

        /// Sensible values when none are given.
        public var defaultValues: [Double] {
            switch self {
            case .ttl: return [15, 30, 60, 120, 240, 480, 720]
            case .background: return [1, 2, 4, 6, 8, 12]
            case .poll: return [15, 30, 60, 120, 240]
            }
        }

        /// What the knob adds to `design` beyond its own value (a cache, a reload policy, background
        /// refresh), or nil when the design already has what the knob varies.
        package func addition(to design: Design) -> String? {
            switch self {
            case .ttl where design.cacheTTLMinutes == nil:
                return "\(design.name) has no cache: each value gives it one (`cacheTTLMinutes`), a different design"
            case .poll where design.reloadPolicy == .never:
                return "\(design.name) has no reload policy: each value gives it `.after(value)`, a different design"
            case .poll where design.reloadPolicy == .atEnd:
                return "\(design.name) reloads at its timeline's end: each value replaces that with `.after(value)`"
            case .background where !design.fetchTriggers.contains(.backgroundTask):
                return "\(design.name) does not refresh in the background: each value adds a BGAppRefreshTask, a different design"
            default:
                return nil
            }
        }

        /// `design` with the knob set to `value`.
        /// This knob's value in `design` (nil: the design has none, such as no cache).
        package func current(of design: Design) -> Double? {
            switch self {
            case .ttl: return design.cacheTTLMinutes
            case .background: return design.fetchTriggers.contains(.backgroundTask) ? design.backgroundIntervalHours : nil
            case .poll:
                if case .after(let minutes) = design.reloadPolicy { return minutes }
                return nil
            }
        }

        /// The setting in words: `a cache TTL of 2 h`, `a BGAppRefreshTask interval of 4 h`, `a reload policy of .after(1 h)`.
        package func setting(_ value: Double) -> String {
            switch self {
            case .ttl: return "a cache TTL of \(Design.duration(minutes: value))"
            case .background: return "a BGAppRefreshTask interval of \(Design.duration(hours: value))"
            case .poll: return "a reload policy of .after(\(Design.duration(minutes: value)))"
            }
        }

        package func apply(_ value: Double, to design: Design) -> Design {
            var d = design
            d.name = "\(design.name)@\(rawValue)=\(NumberText.plain(value))"
            switch self {
            case .ttl: d.cacheTTLMinutes = value
            case .background:
                d.backgroundIntervalHours = value
                if !d.fetchTriggers.contains(.backgroundTask) { d.fetchTriggers.append(.backgroundTask) }
            case .poll: d.reloadPolicy = .after(minutes: value)
            }
            return d
        }
    }

    /// The scenario every value is simulated in.
    public let scenario: Scenario
    /// The design whose knob moves.
    public let design: Design
    /// The knob.
    public let knob: Knob
    /// The knob's values, in its unit (`Knob.unit`), each simulated on its own.
    public let values: [Double]
    /// The population the totals, cost and peaks are for.
    public let users: Int

    /// A sweep of `knob` over `values`; throws a usage error for no value, a value that is not
    /// positive, a poll interval under the platform's minimum entry spacing, or a value that makes
    /// the design invalid.
    public init(scenario: Scenario, design: Design, knob: Knob, values: [Double], users: Int) throws {
        guard !values.isEmpty else { throw WidgetQuotaError.usage("--values needs at least one value") }
        for v in values where !(v.isFinite && v > 0) {
            throw WidgetQuotaError.usage("--values must be positive numbers, got \(NumberText.plain(v))")
        }
        if knob == .poll, let bad = values.first(where: { $0 < scenario.platform.minEntrySpacingMinutes }) {
            throw WidgetQuotaError.usage(
                "poll intervals below \(NumberText.plain(scenario.platform.minEntrySpacingMinutes)) min are not honoured by WidgetKit, got \(NumberText.plain(bad))"
            )
        }
        // Each variant must be a design the scenario validator accepts (a TTL over 30 days, a
        // background interval over a week, ... cannot be simulated).
        for v in values {
            var checker = ScenarioValidator.Checker()
            let variant = knob.apply(v, to: design)
            ScenarioValidator.validate(design: variant, field: quoted(variant.name), platform: scenario.platform, into: &checker)
            if case .invalidScenario(let field, let problem)? = checker.first {
                throw WidgetQuotaError.usage("--values \(NumberText.plain(v)) gives an invalid design: \(field): \(problem)")
            }
        }
        self.scenario = scenario
        self.design = design
        self.knob = knob
        self.values = values
        self.users = users
    }

    /// The design at each value, in the order of `values`.
    public var variants: [Design] { values.map { knob.apply($0, to: design) } }

    /// Runs every value as its own design in one Monte-Carlo batch (same users, same seed).
    ///
    /// - Parameter known: the design as it is, already simulated with this scenario (its runs,
    ///   seed and users): its row at `users` and the users simulated event by event. A value that
    ///   leaves the design unchanged takes that row instead of being simulated again, when the
    ///   sample is the one this sweep would simulate (the result is then the same).
    package func run(
        threads: Int? = nil, prices: PriceTable = .bundled, known: (row: DesignResult, sampleUsers: Int)? = nil
    ) -> SweepResult {
        var s = scenario
        s.horizon.users = [users]
        let sample = MonteCarloEngine.sampleSize(s)
        let reused = known.flatMap { k -> DesignResult? in
            k.row.design == design.name && k.row.users == users && k.sampleUsers == sample ? k.row : nil
        }
        func unchanged(_ variant: Design) -> Bool {
            var renamed = variant
            renamed.name = design.name
            return renamed == design
        }
        let batch = StudyBatch(
            scenario: s, designs: variants.filter { reused == nil || !unchanged($0) }, threads: threads, prices: prices)
        return result { variant in batch.row(variant, users: users) ?? reused! }
    }

    /// The sweep's result from the studies' batch of its scenario (which must hold `variants`).
    package func result(from batch: StudyBatch) -> SweepResult {
        result { variant in batch.row(variant, users: users)! }
    }

    /// The sweep's result from each variant's row at `users`.
    private func result(rows row: (Design) -> DesignResult) -> SweepResult {
        var points = zip(values, variants).map { value, variant -> SweepResult.Point in
            let r = row(variant)
            return SweepResult.Point(
                value: value, requestsPerUserMonth: r.requestsPerUserMonth.mean,
                totalRequestsPerMonth: r.totalRequestsPerMonth, costPerMonth: r.cost?.perMonth.mean,
                peakRequestsPerMinuteP95: r.load.peakRequestsPerMinute.p95, overTargetShare: r.freshness.overTargetShare,
                staleShare: r.freshness.staleShare,
                errorShare: r.freshness.errorShare, medianAgeMinutes: r.freshness.medianAgeMinutes, pareto: false)
        }
        for i in points.indices {
            let p = points[i]
            points[i].pareto = !points.contains { q in
                q.requestsPerUserMonth <= p.requestsPerUserMonth && q.overTargetShare <= p.overTargetShare
                    && (q.requestsPerUserMonth < p.requestsPerUserMonth || q.overTargetShare < p.overTargetShare)
            }
        }
        return SweepResult(
            design: design.name, knob: knob, unit: knob.unit, users: users,
            runs: scenario.horizon.runs, seed: scenario.horizon.seed, points: points, addition: knob.addition(to: design))
    }
}

/// The outcome of a sweep; its JSON is a contract like the simulate report's.
public struct SweepResult: Codable, Sendable {
    /// The version of the JSON's shape: keys are added within a version, never renamed or removed.
    public var schemaVersion = 1
    /// The design swept.
    public var design: String
    /// The knob moved.
    public var knob: Sweep.Knob
    /// The knob's unit (`min`, `h`).
    public var unit: String
    /// The population the totals, cost and peaks are for.
    public var users: Int
    /// Monte-Carlo runs per value.
    public var runs: Int
    /// The seed every value's simulation starts from.
    public var seed: UInt64
    /// One point per value, in the order given.
    public var points: [Point]
    /// What the sweep added to the design beyond the knob's value (nil: nothing).
    public var addition: String?

    package init(
        design: String, knob: Sweep.Knob, unit: String, users: Int, runs: Int, seed: UInt64, points: [Point], addition: String? = nil
    ) {
        self.design = design
        self.knob = knob
        self.unit = unit
        self.users = users
        self.runs = runs
        self.seed = seed
        self.points = points
        self.addition = addition
    }

    /// One value of the knob and what it gave.
    public struct Point: Codable, Sendable {
        /// The knob's value.
        public var value: Double
        /// Mean requests per user a month.
        public var requestsPerUserMonth: Double
        /// The population's requests a month, across runs.
        public var totalRequestsPerMonth: RunSpread
        /// Mean USD a month (nil when the model has no price).
        public var costPerMonth: Double?
        /// The 95th percentile across runs of the busiest minute's requests.
        public var peakRequestsPerMinuteP95: Double
        /// Glances at content older than the freshness target, or at an error: the staleness the
        /// Pareto front uses, comparable across values because it does not move with the TTL.
        public var overTargetShare: Double
        /// Glances at content older than both this value's TTL and the target.
        public var staleShare: Double
        /// Glances at an error or placeholder.
        public var errorShare: Double
        /// The median age of the content at a glance, in minutes.
        public var medianAgeMinutes: Double?
        /// No other value has both fewer requests and fewer glances over the freshness target.
        public var pareto: Bool

        package init(
            value: Double, requestsPerUserMonth: Double, totalRequestsPerMonth: RunSpread, costPerMonth: Double? = nil,
            peakRequestsPerMinuteP95: Double, overTargetShare: Double, staleShare: Double, errorShare: Double,
            medianAgeMinutes: Double? = nil, pareto: Bool
        ) {
            self.value = value
            self.requestsPerUserMonth = requestsPerUserMonth
            self.totalRequestsPerMonth = totalRequestsPerMonth
            self.costPerMonth = costPerMonth
            self.peakRequestsPerMinuteP95 = peakRequestsPerMinuteP95
            self.overTargetShare = overTargetShare
            self.staleShare = staleShare
            self.errorShare = errorShare
            self.medianAgeMinutes = medianAgeMinutes
            self.pareto = pareto
        }
    }
}
