import Foundation
import WidgetQuotaGates
import WidgetQuotaKit
import WidgetQuotaLogs
import WidgetQuotaModel
import WidgetQuotaReporting
import WidgetQuotaStudies
import WidgetQuotaSupport

/// `widget-quota analyze`: measures what devices did from their logs.
struct AnalyzeCommand: Command {
    static let format = Option.format(
        AnalysisJob.Format.allCases.map(\.rawValue),
        help: "markdown (default), csv (one row per device-day) or json (stable keys for CI)")
    static let strict = Option.flag("strict", "stop at the first malformed line (exit 65) instead of counting it")
    static let rules = Option.input(
        "rules", "FILE",
        "JSON rules mapping process/subsystem/category/message patterns to events,\ntried before the built-in recognisers (default: none)")
    static let app = Option.valued(
        "app", "NAME", "the app's process name (default: identified from the logs); repeatable", repeatable: true)
    static let extensionProcess = Option.valued(
        "extension", "NAME", "the widget extension's process name (default: identified); repeatable",
        repeatable: true)
    static let emitScenario = Option.valued(
        "emit-scenario", "FILE", "write a scenario calibrated to the measurement, for `simulate --scenario`")
    static let baseScenario = Option.input("scenario", "FILE", "the base scenario for --emit-scenario (default: the built-in one)")
    static let design = Option.design(
        """
        the design the logged app runs (default: the scenario's baseline).
        Logs show the getTimeline calls that ran: --emit-scenario simulates
        NAME to find the system's rate behind them (the reload budget drops
        calls; Apple logs count the design's own reloads as the system's).
        --design none keeps the rate as the logs show it
        """)

    static let backtest = Option.flag(
        "backtest",
        """
        calibrate on the earlier days, predict the later ones and score
        the prediction (default split: each device's first half of days)
        """)
    static let split = Option.valued("split", "DATE", "--backtest: days from DATE (YYYY-MM-DD, local) are held out")
    static let trainDays = Option.valued("train-days", "N", "--backtest: days after each device's first N are held out")
    static let splitDevices = Option.flag("split-devices", "--backtest: hold out every second device (by name), not days")

    static let spec = CommandSpec(
        name: "analyze",
        summary: "Measure getTimeline calls, API requests and background runs from device logs; calibrate a scenario",
        arguments: "PATH...",
        argumentsReadFiles: true,
        discussion: """
            Reads WidgetQuota traces (NDJSON, CSV) and Apple `log show` exports (--style ndjson, json,
            default, syslog, compact), detected per file. PATH is a file, a folder (read recursively,
            sorted by path) or - for standard input. Each file is one device unless its records carry
            a device id. Days are counted in each device's local time. Secrets in messages (API keys,
            tokens, Authorization headers) are redacted as they are read.

            --backtest writes a back-test instead of the measurement (markdown or json): the figures
            per device-day of the held-out part against the model's 90% interval; --fail-if checks it,
            e.g. 'backtest.errorPercent{metric=apiRequests} > 10' (a failed gate exits 1).
            """,
        options: [
            format, .outFile, strict, rules, app, extensionProcess, emitScenario, baseScenario, design, backtest, split,
            trainDays, splitDevices, .failIf, .warnIf,
        ],
        examples: [
            "widget-quota analyze SampleLogs",
            "widget-quota analyze device.ndjson --format json --out analysis.json",
            "log show --style ndjson --last 1d > today.ndjson && widget-quota analyze today.ndjson --strict",
            "widget-quota trace --design direct --devices 50 --days 14 | widget-quota analyze - --design direct --emit-scenario measured.json",
            "widget-quota simulate --scenario measured.json",
            "widget-quota analyze logs/ --design cache-bgtask --backtest --fail-if 'backtest.errorPercent{metric=apiRequests} > 10'",
        ])

    let job: AnalysisJob
    let format: AnalysisJob.Format
    let out: JobOutput.Destination
    let calibration: AnalysisJob.Calibration?
    let backtestJob: BacktestJob?
    let thresholds: [Threshold]

    init(_ a: ParsedArguments) throws {
        guard !a.positionals.isEmpty else {
            throw WidgetQuotaError.usage("analyze needs at least one PATH: a log file, a folder, or - for standard input")
        }
        format = try a.choice(Self.format, default: .markdown)
        var options = LogAnalyzer.Options()
        options.strict = a.flag(Self.strict)
        options.appProcesses = a.all(Self.app)
        options.extensionProcesses = a.all(Self.extensionProcess)
        if let rules = a.value(Self.rules) { options.rules = try LogRules.load(path: rules) }
        let base = try a.scenario()
        let designName = a.value(Self.design) ?? base.baseline
        let loggedDesign = designName == "none" ? nil : try a.design(designName, option: Self.design, in: base)
        let designAssumed = !a.has(Self.design)
        // Only a design the user named is a claim the checklist findings may hold the logs to.
        options.claimedDesign = designAssumed ? nil : loggedDesign
        job = AnalysisJob(paths: a.positionals, options: options)
        let out = JobOutput.Destination(a.value(.outFile))
        self.out = out
        calibration = try a.value(Self.emitScenario).map { path in
            let destination = JobOutput.Destination(path)
            if destination == .standardOutput && out == .standardOutput {
                throw WidgetQuotaError.usage(
                    "--emit-scenario - puts the scenario on standard output: send the measurement to a file with --out FILE")
            }
            return AnalysisJob.Calibration(base: base, design: loggedDesign, designAssumed: designAssumed, destination: destination)
        }
        thresholds = try a.thresholds()
        backtestJob = try Self.backtestJob(a, base: base, design: loggedDesign, designAssumed: designAssumed, format: format)
        if backtestJob == nil, !thresholds.isEmpty {
            throw WidgetQuotaError.usage("--fail-if and --warn-if check a back-test: add --backtest")
        }
    }

    /// The back-test asked for, or nil; back-test options without `--backtest` are usage errors.
    static func backtestJob(
        _ a: ParsedArguments, base: Scenario, design: Design?, designAssumed: Bool, format: AnalysisJob.Format
    ) throws -> BacktestJob? {
        let splitOptions = [split, trainDays, splitDevices].filter(a.has)
        guard a.flag(backtest) else {
            if let first = splitOptions.first { throw WidgetQuotaError.usage("--\(first.name) sets up a back-test: add --backtest") }
            return nil
        }
        guard splitOptions.count <= 1 else {
            throw WidgetQuotaError.usage("--split, --train-days and --split-devices choose one split: give at most one")
        }
        if a.has(emitScenario) { throw WidgetQuotaError.usage("--backtest and --emit-scenario: run them one at a time") }
        guard format != .csv else { throw WidgetQuotaError.usage("--backtest writes markdown or json, not csv") }
        guard let design else {
            throw WidgetQuotaError.usage("--backtest simulates the design the logged app runs: name it with --design NAME, not none")
        }
        var rule = Backtest.Split.half
        if let text = a.value(split) {
            let parts = text.split(separator: "-").compactMap { Int($0) }
            guard parts.count == 3, text.count == 10, (1...12).contains(parts[1]), (1...31).contains(parts[2]) else {
                throw WidgetQuotaError.usage("--split expects a date as YYYY-MM-DD, got \"\(text)\"")
            }
            let day = LogTimestamp.daysFromCivil(year: parts[0], month: parts[1], day: parts[2])
            // 2026-02-30 would roll over into March: the date must exist.
            guard LogTimestamp.dateText(day: day) == text else {
                throw WidgetQuotaError.usage(
                    "--split expects a date that exists, got \"\(text)\" (\(monthName(parts[1])) has no day \(parts[2]))")
            }
            rule = .date(day)
        } else if let n = try a.int(trainDays, min: 1, max: 100_000) {
            rule = .trainDays(n)
        } else if a.flag(splitDevices) {
            rule = .devices
        }
        return BacktestJob(split: rule, base: base, design: design, designAssumed: designAssumed)
    }

    func run(console: Console) throws -> JobOutput {
        if let backtestJob { return try job.output(backtest: backtestJob, format: format, to: out, thresholds: thresholds) }
        return try job.output(format: format, to: out, calibration: calibration)
    }
}

/// The English name of month `m` (1–12).
private func monthName(_ m: Int) -> String {
    ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"][m - 1]
}
