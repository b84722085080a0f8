import Foundation
import WidgetQuotaKit

/// `widget-quota diff BASE.json HEAD.json`: what a change does to requests, cost and tiers, as
/// Markdown for a pull request; thresholds are checked against HEAD.
struct DiffCommand: Command {
    static let out = Option.valued("out", "FILE", "write the Markdown to FILE (atomically) instead of standard output")
    static let quiet = Option.flag("quiet", "no threshold-pass messages on standard error")

    static let spec = CommandSpec(
        name: "diff",
        summary: "Compare two JSON reports (baseline and proposed) as Markdown for a pull request",
        arguments: "BASE.json HEAD.json",
        discussion: """
            Compares two reports written by `simulate --format json` (or report.json from --out): per design
            and user count the old and new requests a month, the change and the percent, the cost when both
            reports have it, the quota tier each needs, and a footnote listing the assumptions that changed.
            Thresholds are checked against HEAD.
            """,
        options: Option.thresholds + [out, quiet],
        examples: [
            "widget-quota diff base/report.json Reports/report.json >> \"$GITHUB_STEP_SUMMARY\"",
            "widget-quota diff main.json pr.json --fail-if 'requestsPerMonth{design=cache-bgtask,users=1000} > 150000'",
        ])

    let job: DiffJob
    let out: String?
    let quiet: Bool

    init(_ a: ParsedArguments) throws {
        guard a.positionals.count == 2 else {
            throw WidgetQuotaError.usage("diff needs two JSON reports, BASE and HEAD; got \(a.positionals.count) argument(s)")
        }
        job = DiffJob(base: a.positionals[0], head: a.positionals[1], thresholds: try a.thresholds())
        out = a.value(Self.out)
        quiet = a.flag(Self.quiet)
    }

    func run(console: Console) throws -> ExitCode {
        let (markdown, outcomes) = try job.run()
        if let out {
            try AtomicFileWriter.write(markdown, to: out)
        } else {
            console.out(markdown)
        }
        return ThresholdMessages.report(outcomes, console: console, quiet: quiet)
    }
}
