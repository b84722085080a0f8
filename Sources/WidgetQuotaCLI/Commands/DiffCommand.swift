import Foundation
import WidgetQuotaKit
import WidgetQuotaSupport

/// `widget-quota diff BASE.json HEAD.json`: what a change does to requests, cost and tiers, as
/// Markdown for a pull request; thresholds are checked against HEAD.
struct DiffCommand: Command {
    static let out = Option.valued("out", "FILE", "write the Markdown to FILE (atomically) instead of standard output (-)")
    static let quiet = Option.flag("quiet", "no threshold-pass messages on standard error")
    static let baseLabel = Option.valued("base-label", "TEXT", "name BASE in the comparison (default: its path), e.g. the base branch")
    static let headLabel = Option.valued("head-label", "TEXT", "name HEAD in the comparison (default: its path), e.g. \"this branch\"")
    static let newFindings = Option.input(
        "new-findings", "FILE",
        "list the findings of FILE (lint --format json --baseline BASE on HEAD's code) as the code lines behind the change")
    static let formats = DiffJob.Format.allCases.map(\.rawValue)
    static let format = Option.format(
        formats,
        help:
            "markdown (default: the comment on standard output) or github (standard output: an annotation per failed gate; the Markdown goes to --out)"
    )

    static let spec = CommandSpec(
        name: "diff",
        summary: "Compare two JSON reports (baseline and proposed) as a pull-request comment",
        arguments: "BASE.json HEAD.json",
        argumentsReadFiles: true,
        discussion: """
            Compares two reports written by `simulate --format json` (or report.json from --out). The comment
            opens with a line or two per changed design: requests and cost a month, the quota tier, the share of
            glances older than the freshness target and the busiest minute, each as base → head with its change
            and whether that is better or worse, and the trade-off in words. Then one table of changed rows;
            unchanged rows, and rows that differ only within the Monte-Carlo noise, folded in <details>; the
            assumptions that changed, by design name and field; and the thresholds. It stays under GitHub's
            65,536-character comment limit, leaving out folded rows first.
            Thresholds are checked against HEAD. Change gates compare the two: change(METRIC{…}) > 10% (relative
            to BASE), change(freshness.overTargetShare{…}) > 0.05 (in the metric's units: five points),
            tierChange({design=…,users=…}) > 0 (a more expensive tier); a failed --fail-if gate exits 1.
            --new-findings lists the lint findings HEAD's code adds (lint HEAD with --baseline of BASE's
            findings) after the changed rows: the lines of code behind the change.
            Two log analyses (`analyze --format json`) compare in the same layout, device by device.
            """,
        options: Option.thresholds + [format, out, baseLabel, headLabel, newFindings, quiet],
        examples: [
            "widget-quota diff base/report.json Reports/report.json >> \"$GITHUB_STEP_SUMMARY\"",
            "widget-quota diff main.json pr.json --fail-if 'change(costPerMonth{design=cache-bgtask,users=10000}) > 10%'",
            "widget-quota diff main.json pr.json --fail-if 'change(freshness.overTargetShare{design=cache-bgtask}) > 0.05'",
            "widget-quota diff main.json pr.json --fail-if 'tierChange({design=cache-bgtask}) > 0'",
        ])

    let job: DiffJob
    let format: DiffJob.Format
    let out: JobOutput.Destination
    let quiet: Bool

    init(_ a: ParsedArguments) throws {
        guard a.positionals.count == 2 else {
            throw WidgetQuotaError.usage("diff needs two JSON reports, BASE and HEAD; got \(a.positionals.count) argument(s)")
        }
        var job = DiffJob(base: a.positionals[0], head: a.positionals[1], thresholds: try a.thresholds(changes: true))
        job.baseLabel = a.value(Self.baseLabel)
        job.headLabel = a.value(Self.headLabel)
        job.newFindingsPath = a.value(Self.newFindings)
        self.job = job
        out = JobOutput.Destination(a.value(Self.out))
        format = try a.choice(Self.format, default: .markdown)
        quiet = a.flag(Self.quiet)
    }

    func run(console: Console) throws -> JobOutput { try job.output(format: format, to: out) }
}
