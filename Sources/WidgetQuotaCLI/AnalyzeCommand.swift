import Foundation
import WidgetQuotaKit

/// `widget-quota analyze`: measures what devices did from their logs.
enum AnalyzeCommand {
    static let command = CLI.Command(
        name: "analyze",
        summary: "Measure getTimeline calls, API requests and background runs from device logs; calibrate a scenario",
        help: """
        Usage: widget-quota analyze PATH... [--format markdown|csv|json] [--out FILE] [--strict]
                                    [--rules FILE] [--app NAME] [--extension NAME]
                                    [--emit-scenario FILE] [--scenario FILE] [--design NAME]

        Reads WidgetQuota traces (NDJSON, CSV) and Apple `log show` exports (--style ndjson, json,
        default, syslog, compact), detected per file. PATH is a file, a folder (read recursively,
        sorted by path) or - for standard input. Each file is one device unless its records carry
        a device id. Days are counted in each device's local time. Secrets in messages (API keys,
        tokens, Authorization headers) are redacted as they are read.

        Options:
          --format F            markdown (default), csv (one row per device-day) or json (stable keys for CI)
          --out FILE            write the report to FILE (atomically) instead of standard output
          --strict              stop at the first malformed line (exit 65) instead of counting it
          --rules FILE          JSON rules mapping process/subsystem/category/message patterns to events
          --app NAME            the app's process name (default: identified from the logs); repeatable
          --extension NAME      the widget extension's process name (default: identified); repeatable
          --emit-scenario FILE  write a scenario calibrated to the measurement, for `simulate --scenario`
          --scenario FILE       the base scenario for --emit-scenario (default: the built-in one)
          --design NAME         the design the logged app runs (default: the scenario's baseline).
                                Logs show the getTimeline calls that ran: --emit-scenario simulates
                                NAME to find the system's rate behind them (the reload budget drops
                                calls; Apple logs count the design's own reloads as the system's).
                                --design none keeps the rate as the logs show it
          -h, --help            show this help

        Examples:
          widget-quota analyze SampleLogs
          widget-quota analyze device.ndjson --format json --out analysis.json
          log show --style ndjson --last 1d > today.ndjson && widget-quota analyze today.ndjson --strict
          widget-quota trace --design direct --devices 50 --days 14 | widget-quota analyze - --design direct --emit-scenario measured.json
          widget-quota simulate --scenario measured.json

        Exit codes:
        \(CLI.exitCodeHelp())
        """,
        run: run)

    static func run(_ args: [String], console: Console) throws -> ExitCode {
        let a = try Arguments(args, valued: ["format", "out", "rules", "app", "extension", "emit-scenario", "scenario", "design"],
                              switches: ["strict"])
        guard !a.positionals.isEmpty else {
            throw WidgetQuotaError.usage("analyze needs at least one PATH: a log file, a folder, or - for standard input")
        }
        let format = a.value("format") ?? "markdown"
        guard ["markdown", "csv", "json"].contains(format) else {
            throw WidgetQuotaError.usage("--format expects markdown, csv or json, got \"\(format)\"")
        }
        var options = LogAnalyzer.Options()
        options.strict = a.flag("strict")
        options.appProcesses = a.all("app")
        options.extensionProcesses = a.all("extension")
        if let rules = a.value("rules") { options.rules = try LogRules.load(path: rules) }
        let base = try a.value("scenario").map(ScenarioLoader.load(path:)) ?? Scenario()
        let designName = a.value("design") ?? base.baseline
        var loggedDesign: Design?
        if designName != "none" {
            try ScenarioValidator.checkDesignNames([designName], in: base, field: "--design")
            loggedDesign = base.availableDesigns.first { $0.name == designName }
        }

        var analyzer = LogAnalyzer(options: options)
        for path in a.positionals { try analyzer.read(path: path) }
        let analysis = analyzer.analysis()
        let report = LogReport(analysis)
        let text: String
        switch format {
        case "csv": text = report.csv()
        case "json": text = try report.json()
        default: text = report.markdown()
        }
        if let scenarioPath = a.value("emit-scenario") {
            var scenario = try ScenarioCalibrator.calibrate(analysis, base: base, design: loggedDesign)
            if a.value("design") == nil, let design = loggedDesign, scenario.calibration?.design == design.name {
                // The file must say what the correction assumed, not only the terminal.
                scenario.calibration?.notes.append("the getTimeline rate was corrected as if the logged app ran \(design.name), "
                                                   + "the scenario's baseline; pass --design NAME with the design it runs, or --design none")
            }
            try AtomicFileWriter.write(ScenarioLoader.encode(scenario), to: scenarioPath)
            console.err("Wrote \(scenarioPath) (calibrated: \(scenario.calibration?.fields.joined(separator: ", ") ?? ""))\n")
            if let c = scenario.calibration {
                if let design = c.design, let share = c.getTimelineLoggedShare {
                    let rate = scenario.platform.getTimelinePerDay.central
                    console.err("getTimeline: \(String(format: "%.1f", rate)) system calls per instance-day; under \(design) "
                                + "the logs show \(String(format: "%.3f", share)) calls per call offered\n")
                }
                for note in c.notes { console.err("Note: \(note)\n") }
            }
        }
        if let out = a.value("out") {
            try AtomicFileWriter.write(text, to: out)
            console.err("Wrote \(out)\n")
        } else {
            console.out(text)
        }
        return .success
    }
}
