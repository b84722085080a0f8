import Foundation
import WidgetQuotaGates
import WidgetQuotaModel
import WidgetQuotaReporting
import WidgetQuotaSimulation
import WidgetQuotaStudies
import WidgetQuotaSupport

/// The projection job behind `simulate` and `report`: simulate the scenario's designs, then
/// (optionally) the sensitivity analysis and the TTL sweep of the baseline design and the
/// recommendation (changes to the owner's design, each simulated), and check the thresholds
/// against the result.
public struct SimulationJob: Sendable {
    /// The scenario, with any command-line overrides applied and validated.
    public var scenario: Scenario
    /// The designs to simulate (nil: `scenario.comparedDesigns(withPresets:)`, the scenario's own
    /// designs and its baseline, or every preset when it defines none).
    public var designs: [Design]?
    /// With `designs` nil: compare every preset as well as the scenario's own designs.
    public var withPresets = false
    /// Recommend a design within `scenario.targets` and simulate changes to the owner's design.
    public var recommend = true
    /// Worker threads (nil: all cores); the result does not depend on it.
    public var threads: Int?
    /// The prices the cost column uses (the bundled table unless given).
    public var prices: PriceTable
    /// Run "What drives the number" for the baseline design.
    public var sensitivity = true
    /// Sweep the baseline design's cache TTL (when it has a cache), or else its reload policy's
    /// interval (when it fetches in getTimeline under `.after`), for the trade-off chart and the
    /// recommendation.
    public var sweep = false
    /// Measure the loads of ordinary days as well (when the scenario has outages), so that the
    /// verdict can say which tier the outage costs; the simulation runs once either way.
    public var withoutOutages = true
    /// Thresholds checked against the report.
    public var thresholds: [Threshold] = []
    /// Run even when the projection would simulate more than `maxUserDays` (`--allow-long`).
    public var allowLong = false

    /// The most user-days (runs × users simulated per run × simulated days × designs) a run
    /// simulates without `allowLong`: a billion, over 200 times the default scenario's 4.6
    /// million, which already takes minutes. A typo such as `--runs 100000` would otherwise run
    /// for hours without a word.
    package static let maxUserDays = 1e9

    /// Checks the scenario as `scenario --check` does, and that the price table prices its model,
    /// before any work is done.
    public init(scenario: Scenario, designs: [Design]? = nil, threads: Int? = nil, prices: PriceTable = .bundled) throws {
        try ScenarioValidator.validate(scenario)
        if scenario.api.pricedPerToken { _ = try prices.price(for: scenario.api.model) }
        self.scenario = scenario
        self.designs = designs
        self.threads = threads
        self.prices = prices
    }

    /// Runs the simulation and the studies; the report carries the threshold outcomes.
    public func run(progress: some JobProgress = .silent) throws -> SimulationReport {
        let designs = self.designs ?? scenario.comparedDesigns(withPresets: withPresets)
        var engine = MonteCarloEngine(scenario: scenario, designs: designs, threads: threads, prices: prices)
        let work = engine.simulatedUserDays
        guard allowLong || work <= Self.maxUserDays else {
            let h = scenario.horizon
            func whole(_ n: Int) -> String { n < 100 ? String(n) : NumberText.human(Double(n)) }
            throw WidgetQuotaError.usage(
                "this run would simulate \(NumberText.human(work)) user-days (\(whole(h.runs)) runs × "
                    + "\(whole(engine.sampleSize)) users × \(h.days + h.warmupDays + 2) days × \(engine.designs.count) designs), "
                    + "more than the \(NumberText.human(Self.maxUserDays)) a run simulates without --allow-long "
                    + "(the default scenario simulates 4,620,000, and the studies after it add more); "
                    + "lower --runs, --sample-users or the designs compared, or pass --allow-long to run it anyway")
        }
        progress.note("Simulating \(engine.designs.count) designs × \(scenario.horizon.runs) runs × \(engine.sampleSize) users…")
        engine.onTaskFinished = progress.counter(label: "Simulating", total: engine.taskCount)
        let (result, ordinaryDays) = engine.runWithOrdinaryDays()
        var report = SimulationReport(result)
        if withoutOutages { report.withoutOutages = ordinaryDays }
        var ttlSweep: Sweep?
        if let baseline = engine.designs.first(where: { $0.name == result.method.baseline }) {
            if sensitivity {
                // No more users per setting than the scenario simulates event by event.
                let sample = min(SensitivityAnalysis.defaultSampleUsers, scenario.horizon.sampleUsers)
                let analysis = SensitivityAnalysis(
                    scenario: scenario, design: baseline, users: result.focusUsers,
                    sampleUsers: sample, threads: threads)
                report.sensitivity = analysis.run(progress: progress.counter(label: "Sensitivity", total: analysis.settingCount))
            }
            // The cache TTL of a design with a cache, else the interval of a reload policy that fetches.
            var knob: Sweep.Knob?
            if baseline.hasCache {
                knob = .ttl
            } else if case .after = baseline.reloadPolicy, baseline.fetchTriggers.contains(.getTimeline) {
                knob = .poll
            }
            if sweep, let knob {
                // Same runs and seed as the projection, so the sweep's row of the design as it is matches its table.
                ttlSweep = try Sweep(
                    scenario: scenario, design: baseline, knob: knob, values: knob.defaultValues, users: result.focusUsers)
            }
        }
        let study = recommend ? RecommendationStudy(scenario: scenario, designs: engine.designs) : nil
        let studied = (ttlSweep?.variants ?? []) + (study?.plannedChanges(result: result).map(\.design) ?? [])
        if ttlSweep != nil || study != nil {
            progress.note("Simulating the TTL sweep and the changes to the owner's design…")
            let batch = StudyBatch(
                scenario: scenario, designs: studied, known: (engine.designs, result), threads: threads, prices: prices)
            report.sweep = ttlSweep?.result(from: batch)
            report.recommendation = study?.run(result: result, batch: batch)
            if let study, let recommendation = report.recommendation, let sweep = report.sweep, let ttlSweep {
                report.recommendation = study.adding(
                    sweep: sweep, variants: ttlSweep.variants, batch: batch, result: result, to: recommendation)
            }
        }
        progress.finish()
        report.thresholds = try ThresholdEvaluator.evaluate(thresholds, on: report.thresholdMetrics)
        return report
    }
}
