import Foundation
import WidgetQuotaKit

/// `widget-quota simulate`: the Monte-Carlo projection.
enum SimulateCommand {
    static let command = CLI.Command(
        name: "simulate",
        summary: "Project requests, load, quota and freshness for each design and user count",
        help: """
        Usage: widget-quota simulate [--scenario FILE] [--designs A,B] [--users N,M] [--runs N]
                                     [--seed S] [--threads N] [--format F] [--out DIR]
                                     [--fail-if EXPR]... [--warn-if EXPR]... [--no-sensitivity]

        Simulates populations of users under each design (WidgetKit's reload budget, Smart Stack,
        Low Power Mode, app opens, BGAppRefreshTask, outages) and reports requests per user and in
        total, load per minute and per quota day, quota risk and freshness. Flags override the scenario.

        Options:
          --scenario FILE   scenario JSON (see `widget-quota scenario`); built-in defaults otherwise
          --designs LIST    designs to compare (default: all; see `widget-quota designs`)
          --users LIST      population sizes, e.g. 1000,100000
          --runs N          Monte-Carlo runs
          --seed S          random seed (same seed and inputs: byte-identical output)
          --threads N       worker threads (default: all cores; the output does not depend on it)
          --sample-users N  users simulated event by event per run; larger populations are projected
          --prices FILE     price table in LiteLLM's model_prices_and_context_window.json format
          --format F        on standard output: markdown (default), csv (wide summary),
                            csv-long (tidy: design, users, tier, metric, statistic, value) or json
          --out DIR         write report.md, report.json, summary.csv, metrics.csv and the SVG charts
                            into DIR, all or nothing (a failed run leaves the previous report intact)
        \(ThresholdFlags.help)
          --no-sensitivity  skip "What drives the number" (17 small runs, about 1 CPU-second)
          --quiet           no progress or threshold-pass messages on standard error
          -h, --help        show this help

        Threshold expressions: METRIC{LABEL=VALUE,...} OP NUMBER, where METRIC is a dotted path into a
        result row of the JSON report (or an alias such as quotaExceedProbability, costPerMonth,
        requestsPerMonth), labels are design, users and tier, and OP is one of > >= < <= == !=.

        Examples:
          widget-quota simulate
          widget-quota simulate --designs direct,cache-bgtask --users 1000 --format json
          widget-quota simulate --scenario my-scenario.json --out Reports
          widget-quota simulate --out Reports --fail-if 'requestsPerUserMonth.p95{design=cache-bgtask} > 120' \\
                                --warn-if 'quotaExceedProbability{tier=free,users=1000} > 0.05'

        Exit codes:
        \(CLI.exitCodeHelp(thresholds: true))
        """,
        run: run)

    static let formats = ["markdown", "csv", "csv-long", "json"]

    static func run(_ args: [String], console: Console) throws -> ExitCode {
        let valued: Set = ["scenario", "designs", "users", "runs", "seed", "threads", "format", "out", "sample-users", "prices"]
        let a = try Arguments(args, valued: valued.union(ThresholdFlags.names),
                              switches: ["quiet", "no-sensitivity"])
        if let extra = a.positionals.first { throw WidgetQuotaError.usage("unexpected argument \"\(extra)\"") }
        var scenario = try a.value("scenario").map(ScenarioLoader.load(path:)) ?? Scenario()
        if let users = try a.intList("users") { scenario.horizon.users = users }
        if let runs = try a.int("runs") { scenario.horizon.runs = runs }
        if let seed = try a.uint64("seed") { scenario.horizon.seed = seed }
        if let sample = try a.int("sample-users") { scenario.horizon.sampleUsers = sample }
        do {
            try ScenarioValidator.validate(scenario)
        } catch WidgetQuotaError.invalidScenario(let field, let problem) {
            // A value that came from a flag is a usage error (exit 64) naming the flag.
            let flags = [("horizon.users", "users"), ("horizon.runs", "runs"), ("horizon.sampleUsers", "sample-users")]
            if let (_, flag) = flags.first(where: { field.hasPrefix($0.0) && a.value($0.1) != nil }) {
                throw WidgetQuotaError.usage("--\(flag): \(problem)")
            }
            throw WidgetQuotaError.invalidScenario(field: field, problem: problem)
        }
        let threads = try a.int("threads", min: 1, max: 1_024)
        let format = a.value("format") ?? "markdown"
        guard formats.contains(format) else {
            throw WidgetQuotaError.usage("--format expects markdown, csv or json, or csv-long for the tidy CSV, got \"\(format)\"")
        }
        let thresholds = try ThresholdFlags.parse(a)
        var designs: [Design]?
        if let names = a.list("designs") {
            guard !names.isEmpty else { throw WidgetQuotaError.usage("--designs needs at least one design name") }
            if let twice = names.enumerated().first(where: { names[..<$0.offset].contains($0.element) })?.element {
                throw WidgetQuotaError.usage("--designs names \(quoted(twice)) twice; each design is one row")
            }
            try ScenarioValidator.checkDesignNames(names, in: scenario)
            let available = scenario.availableDesigns
            designs = names.map { name in available.first { $0.name == name }! }
            if !names.contains(scenario.baseline), let first = names.first { scenario.baseline = first }
        }
        let prices = try a.value("prices").map(PriceTable.load(path:)) ?? .bundled
        _ = try prices.price(for: scenario.api.model)
        let quiet = a.flag("quiet")
        let progress = Progress(console: console, enabled: !quiet && console.stderrIsTerminal)
        let engine = MonteCarloEngine(scenario: scenario, designs: designs, threads: threads, prices: prices)
        progress.note("Simulating \(engine.designs.count) designs × \(scenario.horizon.runs) runs × \(engine.sampleSize) users…")
        let result = engine.run()

        var sensitivity: SensitivityResult?
        if !a.flag("no-sensitivity"), let baseline = engine.designs.first(where: { $0.name == result.method.baseline }) {
            let analysis = SensitivityAnalysis(scenario: scenario, design: baseline, users: result.focusUsers,
                                               threads: threads)
            let counter = progress.counter(label: "Sensitivity", total: analysis.settingCount)
            sensitivity = analysis.run(progress: counter)
        }
        progress.finish()

        var report = SimulationReport(result, sensitivity: sensitivity)
        report.thresholds = try ThresholdEvaluator.evaluate(thresholds, on: report.metrics)
        if let out = a.value("out") {
            let files = try report.files(in: out)
            try AtomicFileWriter.replaceSet(files: files, in: out, ownNames: SimulationReport.FileName.all)
            if !quiet { console.err("Wrote \(files.count) files into \(out): \(files.map { ($0.path as NSString).lastPathComponent }.joined(separator: ", "))\n") }
        } else {
            switch format {
            case "csv": console.out(report.csv())
            case "csv-long": console.out(report.tidyCSV())
            case "json": console.out(try report.json())
            default: console.out(report.markdown())
            }
        }
        return ThresholdFlags.report(report.thresholds, console: console, quiet: quiet)
    }
}
