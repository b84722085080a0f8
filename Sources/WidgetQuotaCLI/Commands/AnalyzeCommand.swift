import Foundation
import WidgetQuotaKit

/// `widget-quota analyze`: measures what devices did from their logs.
struct AnalyzeCommand: Command {
    static let format = Option.format(
        ["markdown", "csv", "json"],
        help: "markdown (default), csv (one row per device-day) or json (stable keys for CI)")
    static let strict = Option.flag("strict", "stop at the first malformed line (exit 65) instead of counting it")
    static let rules = Option.valued("rules", "FILE", "JSON rules mapping process/subsystem/category/message patterns to events")
    static let app = Option.valued(
        "app", "NAME", "the app's process name (default: identified from the logs); repeatable", repeatable: true)
    static let extensionProcess = Option.valued(
        "extension", "NAME", "the widget extension's process name (default: identified); repeatable",
        repeatable: true)
    static let emitScenario = Option.valued(
        "emit-scenario", "FILE", "write a scenario calibrated to the measurement, for `simulate --scenario`")
    static let baseScenario = Option.valued("scenario", "FILE", "the base scenario for --emit-scenario (default: the built-in one)")
    static let design = Option.design(
        """
        the design the logged app runs (default: the scenario's baseline).
        Logs show the getTimeline calls that ran: --emit-scenario simulates
        NAME to find the system's rate behind them (the reload budget drops
        calls; Apple logs count the design's own reloads as the system's).
        --design none keeps the rate as the logs show it
        """)

    static let spec = CommandSpec(
        name: "analyze",
        summary: "Measure getTimeline calls, API requests and background runs from device logs; calibrate a scenario",
        arguments: "PATH...",
        discussion: """
            Reads WidgetQuota traces (NDJSON, CSV) and Apple `log show` exports (--style ndjson, json,
            default, syslog, compact), detected per file. PATH is a file, a folder (read recursively,
            sorted by path) or - for standard input. Each file is one device unless its records carry
            a device id. Days are counted in each device's local time. Secrets in messages (API keys,
            tokens, Authorization headers) are redacted as they are read.
            """,
        options: [format, .outFile, strict, rules, app, extensionProcess, emitScenario, baseScenario, design],
        examples: [
            "widget-quota analyze SampleLogs",
            "widget-quota analyze device.ndjson --format json --out analysis.json",
            "log show --style ndjson --last 1d > today.ndjson && widget-quota analyze today.ndjson --strict",
            "widget-quota trace --design direct --devices 50 --days 14 | widget-quota analyze - --design direct --emit-scenario measured.json",
            "widget-quota simulate --scenario measured.json",
        ])

    let job: AnalysisJob
    let format: String
    let out: String?
    let emitScenario: String?
    let base: Scenario
    let loggedDesign: Design?
    let designAssumed: Bool

    init(_ a: ParsedArguments) throws {
        guard !a.positionals.isEmpty else {
            throw WidgetQuotaError.usage("analyze needs at least one PATH: a log file, a folder, or - for standard input")
        }
        format = try a.choice(Self.format, in: ["markdown", "csv", "json"], default: "markdown")
        var options = LogAnalyzer.Options()
        options.strict = a.flag(Self.strict)
        options.appProcesses = a.all(Self.app)
        options.extensionProcesses = a.all(Self.extensionProcess)
        if let rules = a.value(Self.rules) { options.rules = try LogRules.load(path: rules) }
        job = AnalysisJob(paths: a.positionals, options: options)
        base = try a.scenario()
        let designName = a.value(Self.design) ?? base.baseline
        loggedDesign = designName == "none" ? nil : try a.design(designName, option: Self.design, in: base)
        designAssumed = !a.has(Self.design)
        out = a.value(.outFile)
        emitScenario = a.value(Self.emitScenario)
    }

    func run(console: Console) throws -> ExitCode {
        let analysis = try job.run()
        let report = LogReport(analysis)
        let text: String
        switch format {
        case "csv": text = report.csv()
        case "json": text = try report.json()
        default: text = report.markdown()
        }
        if let emitScenario {
            let scenario = try AnalysisJob.calibrate(analysis, base: base, design: loggedDesign, designAssumed: designAssumed)
            try AtomicFileWriter.write(ScenarioLoader.encode(scenario), to: emitScenario)
            console.err("Wrote \(emitScenario) (calibrated: \(scenario.calibration?.fields.joined(separator: ", ") ?? ""))\n")
            if let c = scenario.calibration {
                if let design = c.design, let share = c.getTimelineLoggedShare {
                    let rate = scenario.platform.getTimelinePerDay.central
                    console.err(
                        "getTimeline: \(NumberText.fixed(rate, digits: 1)) system calls per instance-day; under \(design) "
                            + "the logs show \(NumberText.fixed(share, digits: 3)) calls per call offered\n")
                }
                for note in c.notes { console.err("Note: \(note)\n") }
            }
        }
        if let out {
            try AtomicFileWriter.write(text, to: out)
            console.err("Wrote \(out)\n")
        } else {
            console.out(text)
        }
        return .success
    }
}
