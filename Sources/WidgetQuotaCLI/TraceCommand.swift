import Foundation
import WidgetQuotaKit

/// `widget-quota trace`: synthetic device logs from the model.
enum TraceCommand {
    static let command = CLI.Command(
        name: "trace",
        summary: "Write the logs simulated devices would produce (WidgetQuota trace or Apple log show styles)",
        help: """
        Usage: widget-quota trace --design NAME [--devices N] [--days D] [--style STYLE] [--seed S]
                                  [--scenario FILE] [--out PATH]

        Simulates N devices for D days with the engine that `simulate` uses (the scenario's
        assumptions at their central values) and writes what they would have logged: WidgetQuota's
        trace format, or an Apple `log show` export with the app, its widget extension, chronod,
        dasd and nsurlsessiond. `analyze` reads every style back.

        Options:
          --design NAME    the design the devices run (see `widget-quota designs`)
          --devices N      devices to simulate (default 10)
          --days D         days per device (default 14)
          --style STYLE    trace (NDJSON, default), trace-csv, or an Apple style: ndjson, json,
                           default, syslog, compact
          --seed S         random seed (same seed and inputs: byte-identical output)
          --scenario FILE  scenario JSON (default: the built-in one)
          --out PATH       a file for trace styles; a folder (one file per device) for Apple styles,
                           which carry no device id. Without --out, output goes to standard output
                           (Apple styles then need --devices 1).
          -h, --help       show this help

        Examples:
          widget-quota trace --design direct --devices 20 --days 14 > direct.ndjson
          widget-quota trace --design cache-bgtask --devices 3 --days 7 --style ndjson --out exports
          widget-quota trace --design direct --devices 200 --days 14 | widget-quota analyze - --design direct --emit-scenario measured.json

        Exit codes:
        \(CLI.exitCodeHelp())
        """,
        run: run)

    static func run(_ args: [String], console: Console) throws -> ExitCode {
        let a = try Arguments(args, valued: ["design", "devices", "days", "style", "seed", "scenario", "out"], switches: [])
        if let extra = a.positionals.first { throw WidgetQuotaError.usage("unexpected argument \"\(extra)\"") }
        guard let designName = a.value("design") else { throw WidgetQuotaError.usage("trace needs --design NAME (see `widget-quota designs`)") }
        var scenario = try a.value("scenario").map(ScenarioLoader.load(path:)) ?? Scenario()
        try ScenarioValidator.checkDesignNames([designName], in: scenario, field: "--design")
        let design = scenario.availableDesigns.first { $0.name == designName }!
        let devices = try a.int("devices", min: 1, max: 1_000_000) ?? 10
        if let days = try a.int("days", min: 1, max: ScenarioValidator.maxDays) { scenario.horizon.days = days } else { scenario.horizon.days = 14 }
        // Outages are placed on days of the reported month; keep only those inside the trace.
        scenario.api.outages = scenario.api.outages.filter { $0.day <= scenario.horizon.days }
        if let seed = try a.uint64("seed") { scenario.horizon.seed = seed }
        try ScenarioValidator.validate(scenario)
        let styleName = a.value("style") ?? "trace"
        guard let style = TraceGenerator.Style(rawValue: styleName) else {
            throw WidgetQuotaError.usage("--style expects one of \(TraceGenerator.Style.allCases.map(\.rawValue).joined(separator: ", ")), got \"\(styleName)\"")
        }
        let generator = TraceGenerator(scenario: scenario, design: design, devices: devices, style: style)

        if let out = a.value("out") {
            if style.isApple {
                let files = (0..<devices).map { i -> (path: String, contents: String) in
                    var text = ""
                    generator.write(device: i, header: true) { text += $0 }
                    return (out + "/" + generator.deviceName(i) + "." + style.fileExtension, text)
                }
                try AtomicFileWriter.write(files: files, createDirectory: out)
                console.err("Wrote \(devices) file\(devices == 1 ? "" : "s") into \(out)\n")
            } else {
                var text = ""
                for i in 0..<devices { generator.write(device: i, header: i == 0) { text += $0 } }
                try AtomicFileWriter.write(text, to: out)
                console.err("Wrote \(out)\n")
            }
            return .success
        }
        if style.isApple && devices > 1 {
            throw WidgetQuotaError.usage("Apple log styles carry no device id, so \(devices) devices on standard output would read back as one; "
                                         + "use --out FOLDER (one file per device), --devices 1, or --style trace")
        }
        for i in 0..<devices { generator.write(device: i, header: i == 0) { console.out($0) } }
        return .success
    }
}
