import Foundation
import WidgetQuotaKit

/// `widget-quota sweep`: the trade-off between requests and staleness along one design knob.
enum SweepCommand {
    static let command = CLI.Command(
        name: "sweep",
        summary: "Vary one design knob (TTL, background interval, poll interval) and show the trade-off",
        help: """
        Usage: widget-quota sweep [--design NAME] [--knob ttl|background|poll] [--values A,B,...]
                                  [--users N] [--sample-users N] [--scenario FILE] [--runs N] [--seed S] [--threads N]
                                  [--prices FILE] [--format markdown|csv|json] [--out FILE]

        Runs the design once per value of the knob (same users, same seed) and reports requests,
        cost, peak load and staleness for each, marking the values that no other value beats on
        both requests and staleness (the Pareto front).

        Options:
          --design NAME   design to vary (default cache-bgtask)
          --knob K        ttl (cache TTL, minutes; default), background (BGAppRefreshTask interval,
                          hours) or poll (reload policy .after, minutes)
          --values LIST   values to try (default depends on the knob)
          --users N       population for totals, cost and peak (default 1000)
          --sample-users N  users simulated event by event per run (default: the scenario's);
                          a larger population is projected from them
          --out FILE      write the output to FILE atomically instead of standard output

        Examples:
          widget-quota sweep
          widget-quota sweep --design cache-bgtask --knob background --values 2,4,8,12
          widget-quota sweep --design direct-poll-15m --knob poll --format csv

        Exit codes:
        \(CLI.exitCodeHelp())
        """,
        run: run)

    static func run(_ args: [String], console: Console) throws -> ExitCode {
        let a = try Arguments(args, valued: ["design", "knob", "values", "users", "scenario", "runs", "seed", "threads",
                                             "prices", "format", "out", "sample-users"], switches: ["quiet"])
        if let extra = a.positionals.first { throw WidgetQuotaError.usage("unexpected argument \"\(extra)\"") }
        var scenario = try a.value("scenario").map(ScenarioLoader.load(path:)) ?? Scenario()
        if let runs = try a.int("runs") { scenario.horizon.runs = runs }
        if let seed = try a.uint64("seed") { scenario.horizon.seed = seed }
        if let sample = try a.int("sample-users") { scenario.horizon.sampleUsers = sample }
        let users = try a.int("users", min: 1, max: ScenarioValidator.maxUsers) ?? 1_000
        scenario.horizon.users = [users]
        try ScenarioValidator.validate(scenario)
        let name = a.value("design") ?? "cache-bgtask"
        try ScenarioValidator.checkDesignNames([name], in: scenario, field: "--design")
        let design = scenario.availableDesigns.first { $0.name == name }!
        let knobName = a.value("knob") ?? "ttl"
        guard let knob = Sweep.Knob(rawValue: knobName) else {
            throw WidgetQuotaError.usage("--knob expects ttl, background or poll, got \"\(knobName)\"")
        }
        let values = try a.list("values").map { items in
            try items.map { item -> Double in
                guard let v = Double(item) else { throw WidgetQuotaError.usage("--values expects numbers, got \"\(item)\"") }
                return v
            }
        } ?? knob.defaultValues
        let prices = try a.value("prices").map(PriceTable.load(path:)) ?? .bundled
        _ = try prices.price(for: scenario.api.model)
        let format = a.value("format") ?? "markdown"
        guard ["markdown", "csv", "json"].contains(format) else {
            throw WidgetQuotaError.usage("--format expects markdown, csv or json, got \"\(format)\"")
        }
        let sweep = try Sweep(scenario: scenario, design: design, knob: knob, values: values, users: users)
        if let addition = knob.addition(to: design) { console.err("widget-quota sweep: note: \(addition)\n") }
        let result = sweep.run(threads: try a.int("threads", min: 1, max: 1_024), prices: prices)
        let text: String
        switch format {
        case "csv": text = result.csv()
        case "json": text = try JSONOutput.encode(result)
        default: text = result.markdown()
        }
        if let out = a.value("out") {
            try AtomicFileWriter.write(text, to: out)
        } else {
            console.out(text)
        }
        return .success
    }
}
