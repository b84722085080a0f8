import Foundation
import WidgetQuotaKit

/// `widget-quota diff BASE.json HEAD.json`: what a change does to requests, cost and tiers, as
/// Markdown for a pull request; thresholds are checked against HEAD.
enum DiffCommand {
    static let command = CLI.Command(
        name: "diff",
        summary: "Compare two JSON reports (baseline and proposed) as Markdown for a pull request",
        help: """
        Usage: widget-quota diff BASE.json HEAD.json [--fail-if EXPR]... [--warn-if EXPR]... [--out FILE]

        Compares two reports written by `simulate --format json` (or report.json from --out): per design
        and user count the old and new requests a month, the change and the percent, the cost when both
        reports have it, the quota tier each needs, and a footnote listing the assumptions that changed.
        Thresholds are checked against HEAD.

        Options:
        \(ThresholdFlags.help)
          --out FILE        write the Markdown to FILE (atomically) instead of standard output
          --quiet           no threshold-pass messages on standard error
          -h, --help        show this help

        Examples:
          widget-quota diff base/report.json Reports/report.json >> "$GITHUB_STEP_SUMMARY"
          widget-quota diff main.json pr.json --fail-if 'requestsPerMonth{design=cache-bgtask,users=1000} > 150000'

        Exit codes:
        \(CLI.exitCodeHelp(thresholds: true))
        """,
        run: run)

    static func run(_ args: [String], console: Console) throws -> ExitCode {
        let a = try Arguments(args, valued: ThresholdFlags.names.union(["out"]), switches: ["quiet"])
        guard a.positionals.count == 2 else {
            throw WidgetQuotaError.usage("diff needs two JSON reports, BASE and HEAD; got \(a.positionals.count) argument(s)")
        }
        let thresholds = try ThresholdFlags.parse(a)
        let base = try load(a.positionals[0]), head = try load(a.positionals[1])
        let outcomes = try ThresholdEvaluator.evaluate(thresholds, on: MetricTable(json: head))
        let diff = ReportDiff(base: base, head: head)
        let markdown = diff.markdown(base: name(a.positionals[0]), head: name(a.positionals[1]), thresholds: outcomes)
        if let out = a.value("out") {
            try AtomicFileWriter.write(markdown, to: out)
        } else {
            console.out(markdown)
        }
        return ThresholdFlags.report(outcomes, console: console, quiet: a.flag("quiet"))
    }

    static func name(_ path: String) -> String { (path as NSString).lastPathComponent == "report.json" ? path : (path as NSString).lastPathComponent }

    /// Reads a JSON report: a missing file is exit 66, a file that is not a report exit 65.
    static func load(_ path: String) throws -> JSONValue {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw WidgetQuotaError.unreadable(file: path, problem: FileManager.default.fileExists(atPath: path) ? "permission denied" : "no such file")
        }
        guard !data.isEmpty else { throw WidgetQuotaError.emptyInput(file: path) }
        let json = try JSONValue.parse(data, file: path)
        guard json["results"]?.array != nil else {
            throw WidgetQuotaError.malformedInput(file: path, line: nil,
                                                  problem: "not a widget-quota JSON report (no \"results\"); write one with `simulate --format json`")
        }
        return json
    }
}
