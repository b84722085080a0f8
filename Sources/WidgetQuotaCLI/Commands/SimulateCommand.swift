import Foundation
import WidgetQuotaKit

/// `widget-quota simulate`: the Monte-Carlo projection.
struct SimulateCommand: Command {
    static let designs = Option.valued(
        "designs", "LIST", "designs to compare, e.g. direct,cache-bgtask (default: all; see `widget-quota designs`)")
    static let users = Option.valued("users", "LIST", "population sizes, e.g. 1000,100000")
    static let formats = ["markdown", "csv", "csv-long", "json"]
    static let format = Option.format(
        formats,
        help: "on standard output: markdown (default), csv (wide summary),\n"
            + "csv-long (tidy: design, users, tier, metric, statistic, value) or json")
    static let out = Option.valued(
        "out", "DIR",
        "write report.md, report.json, summary.csv, metrics.csv and the SVG charts\n"
            + "into DIR, all or nothing (a failed run leaves the previous report intact)")
    static let noSensitivity = Option.flag("no-sensitivity", "skip \"What drives the number\" (17 small runs, about 1 CPU-second)")

    static let spec = CommandSpec(
        name: "simulate",
        summary: "Project requests, load, quota and freshness for each design and user count",
        discussion: """
            Simulates populations of users under each design (WidgetKit's reload budget, Smart Stack,
            Low Power Mode, app opens, BGAppRefreshTask, outages) and reports requests per user and in
            total, load per minute and per quota day, quota risk and freshness. Flags override the scenario.

            Threshold expressions: METRIC{LABEL=VALUE,...} OP NUMBER, where METRIC is a dotted path into a
            result row of the JSON report (or an alias such as quotaExceedProbability, costPerMonth,
            requestsPerMonth), labels are design, users and tier, and OP is one of > >= < <= == !=.
            """,
        options: [.scenario, designs, users, .runs, .seed, .threads, .sampleUsers, .prices, format, out]
            + Option.thresholds + [noSensitivity, .quiet],
        examples: [
            "widget-quota simulate",
            "widget-quota simulate --designs direct,cache-bgtask --users 1000 --format json",
            "widget-quota simulate --scenario my-scenario.json --out Reports",
            "widget-quota simulate --out Reports --fail-if 'requestsPerUserMonth.p95{design=cache-bgtask} > 120' \\",
            "                      --warn-if 'quotaExceedProbability{tier=free,users=1000} > 0.05'",
        ])

    let job: SimulationJob
    let format: String
    let out: String?
    let quiet: Bool

    init(_ a: ParsedArguments) throws {
        try a.expectNoPositionals()
        var scenario = try a.runScenario(users: a.intList(Self.users).map { ($0, Self.users) })
        var designs: [Design]?
        if let names = a.list(Self.designs) {
            guard !names.isEmpty else { throw WidgetQuotaError.usage("--designs needs at least one design name") }
            if let twice = names.enumerated().first(where: { names[..<$0.offset].contains($0.element) })?.element {
                throw WidgetQuotaError.usage("--designs names \(quoted(twice)) twice; each design is one row")
            }
            designs = try ParsedArguments.designs(names, option: Self.designs, in: scenario)
            if !names.contains(scenario.baseline), let first = names.first { scenario.baseline = first }
        }
        format = try a.choice(Self.format, in: Self.formats, default: "markdown")
        var job = try SimulationJob(scenario: scenario, designs: designs, threads: a.threads(), prices: a.prices())
        job.thresholds = try a.thresholds()
        job.sensitivity = !a.flag(Self.noSensitivity)
        self.job = job
        out = a.value(Self.out)
        quiet = a.flag(.quiet)
    }

    func run(console: Console) throws -> ExitCode {
        let report = try job.run(progress: TerminalProgress(console: console, quiet: quiet))
        if let out {
            var files = OutputFiles(directory: out, ownNames: SimulationReport.FileName.all)
            files.add(contentsOf: try report.files(in: out))
            try files.write()
            console.verdict(report, quiet: quiet)
            console.wrote(files, quiet: quiet)
        } else {
            switch format {
            case "csv": console.out(report.csv())
            case "csv-long": console.out(report.tidyCSV())
            case "json": console.out(try report.json())
            default: console.out(report.markdown())
            }
        }
        return ThresholdMessages.report(report.thresholds, console: console, quiet: quiet)
    }
}
