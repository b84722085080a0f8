import Foundation
import WidgetQuotaLint
import WidgetQuotaModel
import WidgetQuotaReporting
import WidgetQuotaSimulation

/// The job behind `lint`: the lint run, then the projection of the design read from the code next
/// to the cache design, the cost of the findings the projection can state, and the scenario
/// `--emit-scenario` writes.
public struct LintJob: Sendable {
    /// What to lint and how.
    public var run: LintRun
    /// Simulate the design read from the code (off: the report has no projected figures).
    public var project = true
    /// The scenario the projection starts from: the built-in one at a small, fast setting.
    package var projectionScenario: Scenario
    /// Worker threads for the projection (nil: all cores); the figures do not depend on it.
    public var threads: Int?
    /// The scenario the emitted one starts from (`lint --scenario`): its designs are kept and the
    /// design read from the code is added (nil: the built-in scenario with that design alone).
    package var emittedScenarioBase: Scenario?
    /// The name of the design read from the code in the emitted scenario (nil: the folder's name).
    package var designName: String?

    /// The projection's setting: 200 users simulated event by event, 4 runs, seed 2026, a
    /// population of 1,000.
    package static var projectionScenario: Scenario {
        var s = Scenario()
        s.horizon.users = [1_000]
        s.horizon.sampleUsers = 200
        s.horizon.runs = 4
        s.horizon.seed = 2026
        return s
    }

    /// The setting in words, for reports.
    package static let projectionSetting = "200 simulated users, 4 runs, seed 2026, the built-in scenario"

    /// A lint of `run`, on `threads` threads (nil: the machine's cores).
    public init(run: LintRun, threads: Int? = nil) {
        self.run = run
        self.threads = threads
        projectionScenario = Self.projectionScenario
    }

    /// What the job produces: the lint outcome (its report with the projection and costs filled
    /// in) and the scenario of the design read from the code.
    public struct Result: Sendable {
        package var outcome: LintRun.Outcome
        /// The design read from the code as a scenario (`designs` = [it], `baseline` = it); nil
        /// when the design could not be read.
        public var scenario: Scenario?
        /// The findings, the files read and the design read from the code.
        public var report: LintReport { outcome.report }
    }

    /// Reads the tree, checks every rule and, when the code sends requests, projects the design it reads.
    public func execute() throws -> Result {
        var outcome = try run.run()
        guard let inference = outcome.design else { return Result(outcome: outcome, scenario: nil) }
        let scenario = emittedScenario(inference)
        if project {
            var s = inference.scenario(base: projectionScenario)
            s.designs = [inference.design]
            let cache = DesignPresets.cacheBGTask
            let engine = MonteCarloEngine(scenario: s, designs: [inference.design, cache], threads: threads)
            let result = engine.run()
            func perUserMonth(_ name: String) -> Double? {
                result.results.first { $0.design == name && $0.users == 1_000 }?.requestsPerUserMonth.mean
            }
            let mine = perUserMonth(inference.design.name)
            let baseline = perUserMonth(cache.name)
            outcome.report.design?.requestsPerUserMonth = mine
            outcome.report.design?.baselineRequestsPerUserMonth = baseline
            outcome.report.design?.projection = Self.projectionSetting
            outcome.report.findings = Self.costed(outcome.report.findings, inference: inference, mine: mine, baseline: baseline)
        }
        return Result(outcome: outcome, scenario: scenario)
    }

    /// The scenario `--emit-scenario` writes: the design read from the code, named `designName`,
    /// alone in the built-in scenario, or added to `emittedScenarioBase`'s designs (replacing one
    /// of the same name) with that scenario's baseline kept.
    func emittedScenario(_ inference: DesignInference) -> Scenario {
        var inference = inference
        if let designName { inference.design.name = designName }
        guard let base = emittedScenarioBase else { return inference.scenario() }
        var s = inference.scenario(base: base)
        s.designs = base.designs.filter { $0.name != inference.design.name } + [inference.design]
        s.baseline = base.baseline
        return s
    }

    /// `findings` with the cost of the rules whose cost the projection states: a widget that
    /// calls the API and a policy shorter than the TTL (requests per user a month against the
    /// cache design's), and a retry loop (requests one refresh can make during an outage).
    package static func costed(_ findings: [Finding], inference: DesignInference, mine: Double?, baseline: Double?) -> [Finding] {
        findings.map { finding in
            var f = finding
            switch f.rule {
            case .widgetNetworkCall, .policyShorterThanTTL:
                if let mine, let baseline, inference.design.fetchTriggers.contains(.getTimeline) {
                    f.cost =
                        "≈ \(LintReportMarkdown.amount(mine)) requests per user a month instead of ≈ "
                        + "\(LintReportMarkdown.amount(baseline)) with the cache design"
                }
            case .retryLoop:
                let n = inference.attemptsPerRefresh * inference.design.requestsPerFetch
                if n > 1 {
                    f.cost = "up to \(n) requests per refresh while the API is down, instead of \(inference.design.requestsPerFetch)"
                }
            default: break
            }
            return f
        }
    }
}
