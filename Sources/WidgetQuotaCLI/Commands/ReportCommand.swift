import Foundation
import WidgetQuotaKit
import WidgetQuotaSupport

/// `widget-quota report`: the main job. Analyses the sample logs, simulates the scenario, sweeps
/// the baseline's cache TTL, and writes every report, table and chart into one folder.
struct ReportCommand: Command {
    static let logs = Option.input("logs", "PATH", "logs to analyse (file or folder; default SampleLogs)")
    static let noLogs = Option.flag("no-logs", "skip the log analysis")
    static let out = Option.valued("out", "DIR", "output folder (default Reports)")

    static let spec = CommandSpec(
        name: "report",
        summary: "The main job: analyse logs, simulate every design, sweep the TTL, write Reports/",
        discussion: """
            Runs everything a design review needs, on the bundled defaults unless told otherwise:
              1. `analyze` on PATH (default SampleLogs): analysis.md and analysis.json
              2. `simulate` with the sensitivity analysis: report.md, report.json, summary.csv,
                 metrics.csv and the SVG charts
              3. `sweep` of the baseline design's cache TTL (same runs and seed), drawn in the
                 trade-off chart: sweep-ttl.csv
              4. the recommendation: the cheapest design within --max-tier and --max-stale-share,
                 and changes to the owner's design, each simulated
            A scenario with designs of its own compares those and its baseline; --with-presets
            adds the presets, --designs names the designs outright.
            Every file is written atomically into DIR (default Reports): a failed run leaves the
            previous reports whole.
            """,
        options: [logs, noLogs, .scenario] + SimulateCommand.choosing + [out, .threads, .allowLong, .prices] + Option.thresholds + [
            format, .quiet,
        ],
        examples: [
            "swift run -c release widget-quota report",
            "widget-quota report --logs device-logs/ --scenario my-scenario.json --out review",
            "widget-quota report --scenario my-scenario.json --with-presets --max-tier tier2 --max-stale-share 0.1",
        ])

    static let format = Option.valued(
        "format", "F", "github: print an annotation per threshold that does not pass on standard output (default: nothing there)"
    ).choosing(["github"])

    let job: ReportJob
    let annotate: Bool
    let out: String
    let quiet: Bool

    init(_ a: ParsedArguments) throws {
        try a.expectNoPositionals()
        if a.flag(Self.noLogs) && a.has(Self.logs) { throw WidgetQuotaError.usage("--logs and --no-logs contradict each other; give one") }
        var scenario = try a.scenario()
        let designs = try a.chosenDesigns(in: &scenario)
        var simulation = try SimulationJob(scenario: scenario, designs: designs, threads: a.threads(), prices: a.prices())
        simulation.withPresets = a.flag(SimulateCommand.withPresets)
        simulation.thresholds = try a.thresholds()
        simulation.allowLong = a.flag(.allowLong)
        job = ReportJob(logs: a.flag(Self.noLogs) ? nil : a.value(Self.logs) ?? "SampleLogs", simulation: simulation)
        out = a.value(Self.out) ?? "Reports"
        if out == "-" { throw WidgetQuotaError.usage("--out names the report's folder; standard output (-) takes one file") }
        quiet = a.flag(.quiet)
        annotate = try a.has(Self.format) && a.choice(Self.format, in: ["github"], default: "github") == "github"
    }

    func run(console: Console) throws -> JobOutput {
        try job.output(into: out, annotate: annotate, progress: TerminalProgress(console: console, quiet: quiet))
    }
}
