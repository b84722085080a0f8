import Foundation
import WidgetQuotaKit

/// `widget-quota report`: the main job. Analyses the sample logs, simulates the scenario, sweeps
/// the baseline's cache TTL, and writes every report, table and chart into one folder.
enum ReportCommand {
    static let command = CLI.Command(
        name: "report",
        summary: "The main job: analyse logs, simulate every design, sweep the TTL, write Reports/",
        help: """
        Usage: widget-quota report [--logs PATH] [--no-logs] [--scenario FILE] [--out DIR]
                                   [--threads N] [--prices FILE] [--fail-if EXPR] [--warn-if EXPR] [--quiet]

        Runs everything a design review needs, on the bundled defaults unless told otherwise:
          1. `analyze` on PATH (default SampleLogs): analysis.md and analysis.json
          2. `simulate` with the sensitivity analysis: report.md, report.json, summary.csv,
             metrics.csv and the SVG charts
          3. `sweep` of the baseline design's cache TTL (same runs and seed), drawn in the
             trade-off chart: sweep-ttl.csv
        Every file is written atomically into DIR (default Reports): a failed run leaves the
        previous reports whole.

        Options:
          --logs PATH       logs to analyse (file or folder; default SampleLogs)
          --no-logs         skip the log analysis
          --scenario FILE   scenario JSON (default: the built-in one)
          --out DIR         output folder (default Reports)
          --threads N       worker threads (default: all cores; the output does not depend on it)
          --prices FILE     price table in LiteLLM's format
          --fail-if EXPR    fail (exit 1) when EXPR holds for any result row; repeatable
          --warn-if EXPR    warn when EXPR holds; repeatable
          --quiet           no progress messages

        Examples:
          swift run -c release widget-quota report
          widget-quota report --logs device-logs/ --scenario my-scenario.json --out review

        Exit codes:
        \(CLI.exitCodeHelp(thresholds: true))
        """,
        run: run)

    static func run(_ args: [String], console: Console) throws -> ExitCode {
        let valued: Set = ["logs", "scenario", "out", "threads", "prices"]
        let a = try Arguments(args, valued: valued.union(ThresholdFlags.names), switches: ["no-logs", "quiet"])
        if let extra = a.positionals.first { throw WidgetQuotaError.usage("unexpected argument \(quoted(extra))") }
        let out = a.value("out") ?? "Reports"
        let quiet = a.flag("quiet")
        let threads = try a.int("threads", min: 1, max: 1_024)
        let scenario = try a.value("scenario").map(ScenarioLoader.load(path:)) ?? Scenario()
        let prices = try a.value("prices").map(PriceTable.load(path:)) ?? .bundled
        _ = try prices.price(for: scenario.api.model)
        let thresholds = try ThresholdFlags.parse(a)
        let progress = Progress(console: console, enabled: !quiet && console.stderrIsTerminal)
        var files = [(path: String, contents: String)]()

        if !a.flag("no-logs") {
            let logs = a.value("logs") ?? "SampleLogs"
            guard FileManager.default.fileExists(atPath: logs) else {
                throw WidgetQuotaError.unreadable(file: logs, problem: "no such file or folder (pass --logs PATH, or --no-logs)")
            }
            progress.note("Analysing \(logs)…")
            var analyzer = LogAnalyzer()
            try analyzer.read(path: logs)
            let analysis = LogReport(analyzer.analysis())
            files.append((out + "/" + LogReport.fileNames[0], analysis.markdown()))
            files.append((out + "/" + LogReport.fileNames[1], try analysis.json()))
        }

        let engine = MonteCarloEngine(scenario: scenario, threads: threads, prices: prices)
        progress.note("Simulating \(engine.designs.count) designs × \(scenario.horizon.runs) runs × \(engine.sampleSize) users…")
        let result = engine.run()
        var report = SimulationReport(result)
        if let baseline = engine.designs.first(where: { $0.name == result.method.baseline }) {
            let analysis = SensitivityAnalysis(scenario: scenario, design: baseline, users: result.focusUsers, threads: threads)
            report.sensitivity = analysis.run(progress: progress.counter(label: "Sensitivity", total: analysis.settingCount))
            if baseline.hasCache {
                progress.note("Sweeping the cache TTL of \(baseline.name)…")
                // Same runs and seed as the projection, so the sweep's default-TTL row matches its table.
                let sweep = try Sweep(scenario: scenario, design: baseline, knob: .ttl,
                                      values: Sweep.Knob.ttl.defaultValues, users: result.focusUsers)
                report.sweep = sweep.run(threads: threads, prices: prices)
            }
        }
        progress.finish()
        report.thresholds = try ThresholdEvaluator.evaluate(thresholds, on: report.metrics)
        files += try report.files(in: out)
        try AtomicFileWriter.replaceSet(files: files, in: out, ownNames: SimulationReport.FileName.all + LogReport.fileNames)
        if !quiet {
            console.err("Wrote \(files.count) files into \(out): \(files.map { ($0.path as NSString).lastPathComponent }.joined(separator: ", "))\n")
        }
        return ThresholdFlags.report(report.thresholds, console: console, quiet: quiet)
    }
}
