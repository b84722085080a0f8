import Foundation

/// What drives the number: each uncertain assumption moved alone to its p5 and its p95 while every
/// other assumption stays at its central value, and the resulting monthly requests of one design.
public struct SensitivityResult: Codable, Sendable, Equatable {
    /// The design measured.
    public var design: String
    /// The population the monthly requests are stated for (per-user mean × users).
    public var users: Int
    /// Users simulated per setting (one run each, the same users and random streams every time).
    public var sampleUsers: Int
    /// Monthly requests with every assumption at its central value.
    public var central: Double
    /// One entry per uncertain assumption, widest swing first.
    public var drivers: [Driver]

    /// One assumption's effect.
    public struct Driver: Codable, Sendable, Equatable {
        /// Dotted scenario path, e.g. `platform.getTimelinePerDay`.
        public var assumption: String
        /// The distribution, e.g. `triangular(1, 2, 3)`.
        public var distribution: String
        /// The assumption's value at its p5 and p95.
        public var lowValue: Double
        public var highValue: Double
        /// Monthly requests with the assumption at its p5 and at its p95.
        public var requestsAtLow: Double
        public var requestsAtHigh: Double
        /// |requestsAtHigh − requestsAtLow|.
        public var swing: Double
        /// Swing as a share of the central value.
        public var swingShare: Double
    }
}

/// Runs the one-at-a-time sensitivity analysis cheaply: one run of a small user sample per setting,
/// with common random numbers, so the differences come from the assumption and not from noise.
public struct SensitivityAnalysis: Sendable {
    public var scenario: Scenario
    public var design: Design
    public var users: Int
    public var sampleUsers: Int
    public var threads: Int
    /// The quantiles an assumption is moved to.
    public static let lowQuantile = 0.05, highQuantile = 0.95
    /// Users simulated per setting unless told otherwise: about a second for all settings.
    public static let defaultSampleUsers = 300

    /// - Parameters:
    ///   - users: the population monthly requests are stated for.
    ///   - sampleUsers: users simulated per setting (default `defaultSampleUsers`).
    public init(scenario: Scenario, design: Design, users: Int, sampleUsers: Int = defaultSampleUsers, threads: Int? = nil) {
        self.scenario = scenario
        self.design = design
        self.users = users
        self.sampleUsers = max(1, sampleUsers)
        self.threads = max(1, threads ?? Parallel.defaultThreads)
    }

    /// The uncertain assumptions that will be moved.
    public var uncertain: [(path: String, distribution: Distribution)] {
        RunParameters.assumptions(of: scenario).filter { $0.distribution.isUncertain }
    }

    /// Settings simulated: the centre, then each assumption at its low and high quantile.
    public var settingCount: Int { 1 + 2 * uncertain.count }

    /// One run of `sampleUsers` users, simulated in full.
    static func reduced(_ scenario: Scenario, sampleUsers: Int) -> Scenario {
        var small = scenario
        small.horizon.runs = 1
        small.horizon.sampleUsers = sampleUsers
        small.horizon.users = [sampleUsers]
        return small
    }

    /// Runs every setting; `progress` is called once per finished setting (from any thread).
    public func run(progress: (@Sendable () -> Void)? = nil) -> SensitivityResult {
        let assumptions = uncertain
        let settings: [(path: String?, value: Double)] = [(nil, 0)] + assumptions.flatMap { a in
            [(a.path, a.distribution.quantile(Self.lowQuantile)), (a.path, a.distribution.quantile(Self.highQuantile))]
        }
        let design = self.design, users = Double(self.users), small = Self.reduced(scenario, sampleUsers: sampleUsers)
        let monthly = Parallel.map(count: settings.count, threads: threads) { i -> Double in
            let setting = settings[i]
            let parameters = RunParameters(scenario: small) { path, distribution in
                path == setting.path ? setting.value : distribution.central
            }
            let engine = MonteCarloEngine(scenario: small, designs: [design], threads: 1, parameters: { _ in parameters })
            let perUser = engine.run().results.first?.requestsPerUserMonth.mean ?? .nan
            progress?()
            return perUser * users
        }
        let central = monthly[0]
        let drivers = assumptions.enumerated().map { k, a -> SensitivityResult.Driver in
            let low = monthly[1 + 2 * k], high = monthly[2 + 2 * k]
            let swing = abs(high - low)
            return .init(assumption: a.path, distribution: a.distribution.summary,
                         lowValue: settings[1 + 2 * k].value, highValue: settings[2 + 2 * k].value,
                         requestsAtLow: low, requestsAtHigh: high, swing: swing,
                         swingShare: central > 0 ? swing / central : 0)
        }
        // Widest first; ties in scenario order (the sort is stable).
        let sorted = drivers.enumerated().sorted { $0.element.swing != $1.element.swing ? $0.element.swing > $1.element.swing : $0.offset < $1.offset }
        return SensitivityResult(design: design.name, users: self.users, sampleUsers: sampleUsers, central: central,
                                 drivers: sorted.map(\.element))
    }
}
