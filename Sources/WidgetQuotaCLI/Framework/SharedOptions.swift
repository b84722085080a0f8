import Foundation
import WidgetQuotaGates
import WidgetQuotaKit
import WidgetQuotaModel
import WidgetQuotaSupport

/// The options several commands share, each declared once.
extension Option {
    package static let help = Option.flag("help", "show this help (also -h)")
    package static let scenario = Option.input(
        "scenario", "FILE", "scenario JSON (see `widget-quota scenario`; default: the built-in one)")
    package static let seed = Option.valued(
        "seed", "S",
        "random seed; same seed and inputs: byte-identical output\n(default: horizon.seed, \(Scenario().horizon.seed) built in)")
    package static let threads = Option.valued("threads", "N", "worker threads (default: all cores; the output does not depend on it)")
    package static let runs = Option.valued("runs", "N", "Monte-Carlo runs (default: horizon.runs, \(Scenario().horizon.runs) built in)")
    package static let sampleUsers = Option.valued(
        "sample-users", "N",
        "users simulated event by event per run; larger populations are projected\n"
            + "(default: horizon.sampleUsers, \(ReportFormat.users(Scenario().horizon.sampleUsers)) built in)")
    package static let prices = Option.input(
        "prices", "FILE",
        "price table in LiteLLM's model_prices_and_context_window.json format\n(default: the bundled prices of \(PriceTable.bundled.prices.keys.sorted().joined(separator: ", ")))"
    )
    package static let quiet = Option.flag("quiet", "no progress or threshold-pass messages on standard error")
    package static let allowLong = Option.flag(
        "allow-long",
        "run even when the projection would simulate more than a billion user-days\n(runs × users × days × designs; the default is 4.6 million)"
    )
    package static let failIf = Option.valued(
        "fail-if", "EXPR", "fail (exit 1, after writing the output) if EXPR holds for any matching row",
        repeatable: true)
    package static let warnIf = Option.valued("warn-if", "EXPR", "print a warning if EXPR holds for any matching row", repeatable: true)
    /// `--fail-if` and `--warn-if`.
    static let thresholds: [Option] = [.failIf, .warnIf]

    /// `--format` with the formats a command writes; the first is the default.
    static func format(_ choices: [String], help: String? = nil) -> Option {
        .valued("format", "F", help ?? "\(ParsedArguments.orList(choices)) (default \(choices[0]))").choosing(choices)
    }

    /// `--out` writing to a file (atomically) instead of standard output.
    static let outFile = Option.valued("out", "FILE", "write the output to FILE (atomically) instead of standard output (-)")
    /// `--design`, the one design a command works on.
    static func design(_ help: String) -> Option { .valued("design", "NAME", help) }
}

extension ParsedArguments {
    /// The scenario named by `--scenario`, or the built-in one.
    func scenario() throws -> Scenario {
        try value(.scenario).map(ScenarioLoader.load(path:)) ?? Scenario()
    }

    /// The scenario with the population, `--runs`, `--seed` and `--sample-users` applied and
    /// validated; a value from a flag that makes it invalid is a usage error naming the flag.
    ///
    /// - Parameter users: the populations to simulate and the option they came from (nil: the scenario's).
    func runScenario(users: (values: [Int], option: Option)? = nil) throws -> Scenario {
        var scenario = try self.scenario()
        if let users { scenario.horizon.users = users.values }
        if let runs = try int(.runs, min: 1, max: ScenarioValidator.maxRuns) { scenario.horizon.runs = runs }
        if let seed = try uint64(.seed) { scenario.horizon.seed = seed }
        if let sample = try int(.sampleUsers, min: 1, max: ScenarioValidator.maxSampleUsers) { scenario.horizon.sampleUsers = sample }
        do {
            try ScenarioValidator.validate(scenario)
        } catch WidgetQuotaError.invalidScenario(let field, let problem) {
            var flags: [(field: String, option: Option)] = [("horizon.runs", .runs), ("horizon.sampleUsers", .sampleUsers)]
            if let users { flags.append(("horizon.users", users.option)) }
            if let flag = flags.first(where: { field.hasPrefix($0.field) && has($0.option) }) {
                throw WidgetQuotaError.usage("--\(flag.option.name): \(problem)")
            }
            throw WidgetQuotaError.invalidScenario(field: field, problem: problem)
        }
        return scenario
    }

    /// `--threads` (nil: all cores).
    func threads() throws -> Int? { try int(.threads, min: 1, max: 1_024) }

    /// The price table named by `--prices`, or the bundled one.
    func prices() throws -> PriceTable {
        try value(.prices).map(PriceTable.load(path:)) ?? .bundled
    }

    /// `--fail-if` and `--warn-if`, parsed before any work so that a typo fails fast.
    ///
    /// - Parameter changes: whether `change(…)` and `tierChange(…)` are allowed (only `diff` has two reports).
    func thresholds(changes: Bool = false) throws -> [Threshold] {
        let all = try all(.failIf).map { try Threshold($0, severity: .fail) } + all(.warnIf).map { try Threshold($0, severity: .warn) }
        if !changes, let gate = all.first(where: \.expression.comparesReports) {
            throw WidgetQuotaError.badExpression(expression: gate.expression.text, problem: ThresholdEvaluator.needsTwoReports)
        }
        return all
    }

    /// The design named by `option` in `scenario`; an unknown name is a usage error naming the option.
    func design(_ name: String, option: Option, in scenario: Scenario) throws -> Design {
        try ParsedArguments.designs([name], option: option, in: scenario)[0]
    }

    /// The designs named by `option` in `scenario`; an unknown name is a usage error naming the option.
    static func designs(_ names: [String], option: Option, in scenario: Scenario) throws -> [Design] {
        let available = scenario.availableDesigns
        return try names.map { name in
            guard let design = available.first(where: { $0.name == name }) else {
                let known = available.map(\.name)
                let hint = Levenshtein.nearest(to: name, in: known).map { "; did you mean \(quoted($0))?" } ?? ""
                throw WidgetQuotaError.usage(
                    "--\(option.name): unknown design \(quoted(name))\(hint); known designs: "
                        + known.joined(separator: ", "))
            }
            return design
        }
    }
}
