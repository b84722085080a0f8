import Foundation
import WidgetQuotaKit
import WidgetQuotaModel
import WidgetQuotaStudies
import WidgetQuotaSupport

/// `widget-quota sweep`: the trade-off between requests and staleness along one design knob.
struct SweepCommand: Command {
    static let design = Option.design("design to vary (default cache-bgtask)")
    static let knob = Option.valued(
        "knob", "K",
        "ttl (cache TTL, minutes; default), background (BGAppRefreshTask interval,\n"
            + "hours) or poll (reload policy .after, minutes)"
    ).choosing(Sweep.Knob.allCases.map(\.rawValue))
    static let values = Option.valued("values", "LIST", "values to try (default depends on the knob)")
    static let users = Option.valued("users", "N", "population for totals, cost and peak (default 1000)")
    static let format = Option.format(SweepJob.Format.allCases.map(\.rawValue))
    static let quiet = Option.flag("quiet", "no note on standard error when the sweep adds to the design what the knob needs")

    static let spec = CommandSpec(
        name: "sweep",
        summary: "Vary one design knob (TTL, background interval, poll interval) and show the trade-off",
        discussion: """
            Runs the design once per value of the knob (same users, same seed) and reports requests,
            cost, peak load and staleness for each, marking the values that no other value beats on
            both requests and staleness (the Pareto front).
            """,
        options: [design, knob, values, users, .sampleUsers, .scenario, .runs, .seed, .threads, .prices, format, .outFile, quiet],
        examples: [
            "widget-quota sweep",
            "widget-quota sweep --design cache-bgtask --knob background --values 2,4,8,12",
            "widget-quota sweep --design direct-poll-15m --knob poll --format csv",
        ])

    let job: SweepJob
    let format: SweepJob.Format
    let out: JobOutput.Destination
    let quiet: Bool

    init(_ a: ParsedArguments) throws {
        try a.expectNoPositionals()
        let users = try a.int(Self.users, min: 1, max: ScenarioValidator.maxUsers) ?? 1_000
        let scenario = try a.runScenario(users: ([users], Self.users))
        let design = try a.design(a.value(Self.design) ?? "cache-bgtask", option: Self.design, in: scenario)
        let knob = try a.choice(Self.knob, default: Sweep.Knob.ttl)
        let values =
            try a.list(Self.values).map { items in
                try items.map { item -> Double in
                    guard let v = Double(item) else { throw WidgetQuotaError.usage("--values expects numbers, got \(quoted(item))") }
                    return v
                }
            } ?? knob.defaultValues
        format = try a.choice(Self.format, default: .markdown)
        out = JobOutput.Destination(a.value(.outFile))
        quiet = a.flag(Self.quiet)
        let sweep = try Sweep(scenario: scenario, design: design, knob: knob, values: values, users: users)
        job = try SweepJob(sweep: sweep, threads: a.threads(), prices: a.prices())
    }

    func run(console: Console) throws -> JobOutput { try job.output(format: format, to: out) }
}
