import Foundation
import WidgetQuotaGates
import WidgetQuotaKit
import WidgetQuotaModel
import WidgetQuotaReporting
import WidgetQuotaSupport

/// `widget-quota simulate`: the Monte-Carlo projection.
struct SimulateCommand: Command {
    static let designs = Option.valued(
        "designs", "LIST",
        "designs to compare, e.g. direct,cache-bgtask (default: the scenario's own designs\n"
            + "and its baseline, or every preset when it defines none; see `widget-quota designs`)")
    static let withPresets = Option.flag("with-presets", "compare every preset as well as the scenario's own designs")
    static let maxTier = Option.valued(
        "max-tier", "TIER",
        "the most expensive quota tier you will pay for, for the recommendation\n(default: targets.maxTier, else any listed tier)")
    static let maxStaleShare = Option.valued(
        "max-stale-share", "SHARE",
        "the largest share of glances (0–1) you accept at content older than the\nfreshness target, or at none (default: targets.maxStaleShare, 0.25)"
    )
    /// The options `simulate` and `report` share for choosing designs and the recommendation's limits.
    static let maxCost = Option.valued(
        "max-cost", "DOLLARS",
        "the most you will pay for the API a month (mean cost, US dollars), for the verdict,\nthe recommendation and the growth plan (default: targets.maxCostPerMonth, else no budget)"
    )
    static let choosing = [designs, withPresets, maxTier, maxStaleShare, maxCost]
    static let users = Option.valued(
        "users", "LIST",
        "population sizes, e.g. 1000,100000\n(default: horizon.users, \(Scenario().horizon.users.map(String.init).joined(separator: ",")) built in)"
    )
    static let formats = SimulationJob.Format.allCases.map(\.rawValue)
    static let format = Option.format(
        formats,
        help: "on standard output: markdown (default), csv (wide summary),\n"
            + "csv-long (tidy: design, users, tier, metric, statistic, value), json, or github\n"
            + "(no report: a GitHub annotation per threshold that does not pass; with --out the report goes there)")
    static let out = Option.valued(
        "out", "DIR",
        "write report.md, report.json, summary.csv, metrics.csv and the SVG charts\n"
            + "into DIR, all or nothing (a failed run leaves the previous report intact;\n"
            + "default: the report in --format on standard output)")
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
        options: [.scenario] + choosing + [users, .runs, .seed, .threads, .sampleUsers, .allowLong, .prices, format, out]
            + Option.thresholds + [noSensitivity, .quiet],
        examples: [
            "widget-quota simulate",
            "widget-quota simulate --designs direct,cache-bgtask --users 1000 --format json",
            "widget-quota simulate --scenario my-scenario.json --with-presets --max-tier tier2 --max-stale-share 0.1",
            "widget-quota simulate --scenario my-scenario.json --out Reports",
            "widget-quota simulate --out Reports --fail-if 'requestsPerUserMonth.p95{design=cache-bgtask} > 120' \\",
            "                      --warn-if 'quotaExceedProbability{tier=free,users=1000} > 0.05'",
        ])

    let job: SimulationJob
    let format: SimulationJob.Format
    let out: String?
    let quiet: Bool

    init(_ a: ParsedArguments) throws {
        try a.expectNoPositionals()
        var scenario = try a.runScenario(users: a.intList(Self.users).map { ($0, Self.users) })
        let designs = try a.chosenDesigns(in: &scenario)
        format = try a.choice(Self.format, default: .markdown)
        var job = try SimulationJob(scenario: scenario, designs: designs, threads: a.threads(), prices: a.prices())
        job.withPresets = a.flag(Self.withPresets)
        job.thresholds = try a.thresholds()
        job.sensitivity = !a.flag(Self.noSensitivity)
        job.allowLong = a.flag(.allowLong)
        self.job = job
        out = a.value(Self.out)
        if out == "-" {
            throw WidgetQuotaError.usage("--out names a folder; without --out the report goes to standard output")
        }
        quiet = a.flag(.quiet)
    }

    func run(console: Console) throws -> JobOutput {
        try job.output(format: format, folder: out, progress: TerminalProgress(console: console, quiet: quiet))
    }
}

extension ParsedArguments {
    /// The designs `--designs` names (nil: the default, or `--with-presets`), making the first the
    /// baseline when the baseline is not among them; `--max-tier`, `--max-stale-share` and `--max-cost` are set
    /// into the scenario's targets, a bad value a usage error naming the flag.
    func chosenDesigns(in scenario: inout Scenario) throws -> [Design]? {
        if let tier = value(SimulateCommand.maxTier) {
            let tiers = scenario.quotas.tiers.map(\.name)
            guard tiers.contains(tier) else {
                let hint = Levenshtein.nearest(to: tier, in: tiers).map { "; did you mean \(quoted($0))?" } ?? ""
                throw WidgetQuotaError.usage(
                    "--max-tier: unknown tier \(quoted(tier))\(hint); the scenario's tiers are " + tiers.joined(separator: ", "))
            }
            scenario.targets.maxTier = tier
        }
        if let text = value(SimulateCommand.maxStaleShare) {
            guard let share = Double(text), share.isFinite, (0...1).contains(share) else {
                throw WidgetQuotaError.usage("--max-stale-share expects a share between 0 and 1 (0.1 for 10%), got \(quoted(text))")
            }
            scenario.targets.maxStaleShare = share
        }
        if let text = value(SimulateCommand.maxCost) {
            let digits = text.hasPrefix("$") ? String(text.dropFirst()) : text
            guard let budget = Double(digits.replacingOccurrences(of: "_", with: "")), budget.isFinite, (0...1e12).contains(budget)
            else {
                throw WidgetQuotaError.usage("--max-cost expects dollars a month between 0 and 1e12 (300 or $300), got \(quoted(text))")
            }
            scenario.targets.maxCostPerMonth = budget
        }
        guard let names = list(SimulateCommand.designs) else { return nil }
        if flag(SimulateCommand.withPresets) {
            throw WidgetQuotaError.usage(
                "--designs names the designs to compare and --with-presets adds every preset to the scenario's own; give one")
        }
        guard !names.isEmpty else { throw WidgetQuotaError.usage("--designs needs at least one design name") }
        if let twice = names.enumerated().first(where: { names[..<$0.offset].contains($0.element) })?.element {
            throw WidgetQuotaError.usage("--designs names \(quoted(twice)) twice; each design is one row")
        }
        let designs = try ParsedArguments.designs(names, option: SimulateCommand.designs, in: scenario)
        if !names.contains(scenario.baseline), let first = names.first { scenario.baseline = first }
        return designs
    }
}
