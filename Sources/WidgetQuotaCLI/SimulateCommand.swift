import Foundation
import WidgetQuotaKit

/// `widget-quota simulate`: the Monte-Carlo projection.
enum SimulateCommand {
    static let command = CLI.Command(
        name: "simulate",
        summary: "Project requests, load, quota and freshness for each design and user count",
        help: """
        Usage: widget-quota simulate [--scenario FILE] [--designs A,B] [--users N,M] [--runs N]
                                     [--seed S] [--threads N] [--format markdown|csv|json] [--out DIR]

        Simulates populations of users under each design (WidgetKit's reload budget, Smart Stack,
        Low Power Mode, app opens, BGAppRefreshTask, outages) and reports requests per user and in
        total, load per minute and per quota day, quota risk and freshness. Flags override the scenario.

        Options:
          --scenario FILE   scenario JSON (see `widget-quota scenario`); defaults from the seeds otherwise
          --designs LIST    designs to compare (default: all; see `widget-quota designs`)
          --users LIST      population sizes, e.g. 1000,100000
          --runs N          Monte-Carlo runs
          --seed S          random seed (same seed and inputs: byte-identical output)
          --threads N       worker threads (default: all cores; the output does not depend on it)
          --sample-users N  users simulated event by event per run; larger populations are projected
          --prices FILE     price table in LiteLLM's model_prices_and_context_window.json format
          --format F        markdown (default), csv or json, on standard output
          --out DIR         write report.md, summary.csv and report.json into DIR (atomically)
          --quiet           no progress messages
          -h, --help        show this help

        Examples:
          widget-quota simulate
          widget-quota simulate --designs direct,cache-bgtask --users 1000 --format json
          widget-quota simulate --scenario my-scenario.json --out Reports

        Exit codes:
        \(CLI.exitCodeHelp())
        """,
        run: run)

    static func run(_ args: [String], console: Console) throws -> ExitCode {
        let a = try Arguments(args, valued: ["scenario", "designs", "users", "runs", "seed", "threads", "format", "out", "sample-users", "prices"],
                              switches: ["quiet"])
        if let extra = a.positionals.first { throw WidgetQuotaError.usage("unexpected argument \"\(extra)\"") }
        var scenario = try a.value("scenario").map(ScenarioLoader.load(path:)) ?? Scenario()
        if let users = try a.intList("users") { scenario.horizon.users = users }
        if let runs = try a.int("runs") { scenario.horizon.runs = runs }
        if let seed = try a.uint64("seed") { scenario.horizon.seed = seed }
        if let sample = try a.int("sample-users") { scenario.horizon.sampleUsers = sample }
        try ScenarioValidator.validate(scenario)
        let threads = try a.int("threads", min: 1, max: 1_024)
        let format = a.value("format") ?? "markdown"
        guard ["markdown", "csv", "json"].contains(format) else {
            throw WidgetQuotaError.usage("--format expects markdown, csv or json, got \"\(format)\"")
        }
        var designs: [Design]?
        if let names = a.list("designs") {
            try ScenarioValidator.checkDesignNames(names, in: scenario)
            let available = scenario.availableDesigns
            designs = names.map { name in available.first { $0.name == name }! }
            if !names.contains(scenario.baseline), let first = names.first { scenario.baseline = first }
        }
        let prices = try a.value("prices").map(PriceTable.load(path:)) ?? .bundled
        _ = try prices.price(for: scenario.api.model)
        let engine = MonteCarloEngine(scenario: scenario, designs: designs, threads: threads, prices: prices)
        let quiet = a.flag("quiet")
        if !quiet && console.stderrIsTerminal {
            console.err("Simulating \(engine.designs.count) designs × \(scenario.horizon.runs) runs × \(engine.sampleSize) users…\n")
        }
        let result = engine.run()
        let report = SimulationReport(result)
        if let out = a.value("out") {
            let files = [
                (out + "/report.md", report.markdown()),
                (out + "/summary.csv", report.csv()),
                (out + "/report.json", try report.json()),
            ]
            try AtomicFileWriter.write(files: files.map { (path: $0.0, contents: $0.1) }, createDirectory: out)
            if !quiet { console.err("Wrote \(files.map(\.0).joined(separator: ", "))\n") }
        } else {
            switch format {
            case "csv": console.out(report.csv())
            case "json": console.out(try report.json())
            default: console.out(report.markdown())
            }
        }
        return .success
    }
}
