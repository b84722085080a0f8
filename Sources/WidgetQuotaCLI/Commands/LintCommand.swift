import Foundation
import WidgetQuotaKit
import WidgetQuotaLint
import WidgetQuotaModel
import WidgetQuotaReporting
import WidgetQuotaSupport

/// `widget-quota lint`: checks an app's source against the widget pre-release checklist and
/// reads the design it implements.
struct LintCommand: Command {
    static let formats = LintJob.Format.allCases.map(\.rawValue)
    static let format = Option.format(
        formats,
        help: """
            markdown (default), json (stable keys for CI), sarif (SARIF 2.1.0, for code scanning), github \
            (workflow annotations for the Actions log and the PR's lines) or xcode (path:line:column: error: …, \
            for a Run Script build phase)
            """)
    static let sarifRoot = Option.valued(
        "sarif-root", "DIR",
        "name files in sarif and github output relative to DIR (default: the git top level above the first PATH, else the current folder)")
    static let failOn = Option.valued(
        "fail-on", "S", "exit 1 when a finding of severity S or higher remains: error (default), warning, note or never"
    ).choosing(LintFailOn.allCases.map(\.rawValue))
    static let config = Option.input(
        "config", "FILE", "the configuration file (default: .widget-quota-lint.json in the first folder, when present)")
    static let emitScenario = Option.valued(
        "emit-scenario", "FILE", "write the design read from the code as a scenario, for `simulate --scenario`")
    static let scenario = Option.input(
        "scenario", "FILE",
        "with --emit-scenario: start from FILE (its users, prices, plans and designs) and add the code's design to its designs "
            + "(default: the built-in scenario, with the code's design alone)")
    static let designName = Option.valued(
        "design-name", "NAME", "with --emit-scenario: name the code's design NAME (default: the folder's name)")
    static let baseline = Option.input(
        "baseline", "FILE", "leave out the findings FILE holds (written by --write-baseline): report only new ones")
    static let writeBaseline = Option.valued(
        "write-baseline", "FILE", "write every finding (before --baseline) as a baseline FILE, to accept them as they are")

    static let spec = CommandSpec(
        name: "lint",
        summary: "Check an app's source against the widget pre-release checklist and read its design from the code",
        arguments: "PATH...",
        discussion: """
            Reads Swift files, property lists, entitlements, project.pbxproj and .xcconfig files under
            each PATH (an app's folder or single files), follows calls within the targets and modules
            that compile them, checks the \(ChecklistRule.allCases.count) checklist rules (see docs/lint.md) and reads the
            design the code implements: who fetches and when, the cache TTL, the reload policy. The
            design is simulated next to the cache design to show its requests per user a month and the
            cost of the findings that change it (\(LintJob.projectionSetting)).
            A rule is silenced by the configuration file or an inline comment
            (// widget-quota:disable rule-id). Keys are never printed: messages redact them.
            A baseline accepts the findings of an existing codebase (or of a pull request's base branch):
            --write-baseline writes them, --baseline leaves them out, matched by rule, file and the line's
            text, so code moved down a file or re-indented stays known.
            """,
        options: [
            format, .outFile, failOn, config, emitScenario, scenario, designName, baseline, writeBaseline, sarifRoot, .quiet,
        ],
        examples: [
            "widget-quota lint MyApp",
            "widget-quota lint MyApp --format sarif --out lint.sarif --fail-on never",
            "widget-quota lint \"$SRCROOT\" --format xcode --fail-on never",
            "widget-quota lint MyApp --emit-scenario mine.json && widget-quota simulate --scenario mine.json",
            "widget-quota lint MyApp --write-baseline lint-baseline.json --fail-on never",
            "widget-quota lint MyApp --baseline lint-baseline.json --format github",
            "widget-quota lint Tests/WidgetQuotaTestSupport/Fixtures/apps/broken-app --out Reports/lint.md",
        ])

    let job: LintJob
    let format: LintJob.Format
    let failOn: LintFailOn
    let out: JobOutput.Destination
    let emitScenario: JobOutput.Destination?
    let baseline: LintBaseline?
    let writeBaseline: JobOutput.Destination?
    let quiet: Bool
    /// How findings' files are named relative to the repository root.
    let paths: RepositoryPath

    init(_ a: ParsedArguments) throws {
        guard !a.positionals.isEmpty else {
            throw WidgetQuotaError.usage("lint needs at least one PATH: an app's source folder or Swift files")
        }
        format = try a.choice(Self.format, default: .markdown)
        failOn = try a.choice(Self.failOn, default: .error)
        out = JobOutput.Destination(a.value(.outFile))
        emitScenario = a.value(Self.emitScenario).map(JobOutput.Destination.init)
        if emitScenario == .standardOutput && out == .standardOutput {
            throw WidgetQuotaError.usage(
                "--emit-scenario - puts the scenario on standard output: send the findings to a file with --out FILE")
        }
        writeBaseline = a.value(Self.writeBaseline).map(JobOutput.Destination.init)
        if writeBaseline == .standardOutput && (out == .standardOutput || emitScenario == .standardOutput) {
            throw WidgetQuotaError.usage(
                "--write-baseline - puts the baseline on standard output: send the findings (and the scenario) to files")
        }
        for option in [Self.scenario, Self.designName] where emitScenario == nil && a.value(option) != nil {
            throw WidgetQuotaError.usage("--\(option.name) shapes the scenario --emit-scenario writes; add --emit-scenario FILE")
        }
        quiet = a.flag(.quiet)
        baseline = try a.value(Self.baseline).map(LintBaseline.load(path:))
        let configuration = try a.value(Self.config).map(LintConfiguration.load(path:))
        var job = LintJob(run: LintRun(paths: a.positionals, configuration: configuration))
        job.emittedScenarioBase = try a.value(Self.scenario).map(ScenarioLoader.load(path:))
        if let name = a.value(Self.designName) {
            guard !name.isEmpty, PrintableText.clean(name) == name, !name.contains(where: \.isNewline) else {
                throw WidgetQuotaError.usage("--design-name needs a name without line breaks or control characters")
            }
            job.designName = name
        }
        self.job = job
        // Findings name files relative to the folder given (when one folder is given), else as typed.
        let base = a.positionals.count == 1 && Self.isFolder(a.positionals[0]) ? a.positionals[0] : "."
        let root = try a.value(Self.sarifRoot).map { root in
            guard Self.isFolder(root) else { throw WidgetQuotaError.usage("--sarif-root \(root) is not a folder") }
            return root
        }
        paths = RepositoryPath(base: base, root: root)
    }

    static func isFolder(_ path: String) -> Bool {
        var isDir: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDir) && isDir.boolValue
    }

    func run(console: Console) throws -> JobOutput {
        try job.output(
            format: format, to: out, scenario: emitScenario, failOn: failOn, paths: paths, baseline: baseline,
            writeBaseline: writeBaseline)
    }
}
