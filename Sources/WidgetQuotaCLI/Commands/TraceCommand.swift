import Foundation
import WidgetQuotaKit
import WidgetQuotaModel
import WidgetQuotaStudies
import WidgetQuotaSupport

/// `widget-quota trace`: synthetic device logs from the model.
struct TraceCommand: Command {
    static let design = Option.design("the design the devices run (see `widget-quota designs`)")
    static let devices = Option.valued("devices", "N", "devices to simulate (default 10)")
    static let days = Option.valued("days", "D", "days per device (default 14)")
    static let style = Option.valued(
        "style", "STYLE",
        "trace (NDJSON, default), trace-csv, or an Apple style: ndjson, json,\n"
            + "default, syslog, compact"
    ).choosing(TraceGenerator.Style.allCases.map(\.rawValue))
    static let out = Option.valued(
        "out", "PATH",
        """
        a file for trace styles; a folder (one file per device) for Apple styles,
        which carry no device id (default: standard output, where Apple styles
        need --devices 1).
        """)

    static let spec = CommandSpec(
        name: "trace",
        summary: "Write the logs simulated devices would produce (WidgetQuota trace or Apple log show styles)",
        discussion: """
            Simulates N devices for D days with the engine that `simulate` uses (the scenario's
            assumptions at their central values) and writes what they would have logged: WidgetQuota's
            trace format, or an Apple `log show` export with the app, its widget extension, chronod,
            dasd and nsurlsessiond. `analyze` reads every style back.
            """,
        options: [design, devices, days, style, .seed, .scenario, out],
        examples: [
            "widget-quota trace --design direct --devices 20 --days 14 > direct.ndjson",
            "widget-quota trace --design cache-bgtask --devices 3 --days 7 --style ndjson --out exports",
            "widget-quota trace --design direct --devices 200 --days 14 | widget-quota analyze - --design direct --emit-scenario measured.json",
        ])

    let job: TraceJob
    let out: JobOutput.Destination

    init(_ a: ParsedArguments) throws {
        try a.expectNoPositionals()
        guard let designName = a.value(Self.design) else {
            throw WidgetQuotaError.usage("trace needs --design NAME (see `widget-quota designs`)")
        }
        var scenario = try a.scenario()
        let design = try a.design(designName, option: Self.design, in: scenario)
        let devices = try a.int(Self.devices, min: 1, max: 1_000_000) ?? 10
        scenario.horizon.days = try a.int(Self.days, min: 1, max: ScenarioValidator.maxDays) ?? 14
        // Outages are placed on days of the reported month; keep only those inside the trace.
        scenario.api.outages = scenario.api.outages.filter { $0.day <= scenario.horizon.days }
        if let seed = try a.uint64(.seed) { scenario.horizon.seed = seed }
        do {
            try ScenarioValidator.validate(scenario)
        } catch WidgetQuotaError.invalidScenario(let field, let problem) where field.hasPrefix("horizon.days") {
            throw WidgetQuotaError.usage("--days: \(problem)")
        }
        let style = try a.choice(Self.style, default: TraceGenerator.Style.trace)
        out = JobOutput.Destination(a.value(Self.out))
        if out == .standardOutput && style.isApple && devices > 1 {
            throw WidgetQuotaError.usage(
                "Apple log styles carry no device id, so \(devices) devices on standard output would read back as one; "
                    + "use --out FOLDER (one file per device), --devices 1, or --style trace")
        }
        job = TraceJob(scenario: scenario, design: design, devices: devices, style: style)
    }

    func run(console: Console) throws -> JobOutput { job.output(to: out) }
}
