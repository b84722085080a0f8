import WidgetQuotaGates
import WidgetQuotaSupport

/// What a job hands to the command line's one writer: its rendered outputs, where each goes, the
/// notes for standard error, and what decides the exit code.
///
/// The writer writes every output first, then prints the notes and announcements in the order of
/// `items`; a write that fails prints nothing.
package struct JobOutput: Sendable {
    /// Where one rendered text goes.
    package enum Destination: Sendable, Equatable {
        case standardOutput
        /// A file, replaced atomically.
        case file(String)

        /// A path given on the command line: nil and `-` are standard output.
        package init(_ path: String?) {
            if let path, path != "-" { self = .file(path) } else { self = .standardOutput }
        }
    }

    /// One output, in the order the writer handles it.
    package enum Item: Sendable {
        /// Text for `destination`; a file is announced as "Wrote PATH" when `announce` is set.
        case text(String, to: Destination, announce: Bool)
        /// Text made piece by piece, passed to the writer's function as it is made (long logs
        /// reach standard output without being held whole).
        case streamed(@Sendable (_ write: (String) -> Void) -> Void, to: Destination, announce: Bool)
        /// Files that replace this tool's files in one folder, all or none.
        case folder(OutputFiles)
        /// Files written into a folder created if needed, leaving its other files alone.
        case files([(path: String, contents: String)], directory: String, announcement: String)
        /// A line or paragraph for standard error (`quiet` drops it).
        case note(String)
    }

    package var items: [Item] = []
    /// The thresholds checked (a failed `--fail-if` exits 1).
    package var thresholds: [ThresholdOutcome] = []
    /// The change gates checked by `diff` (a failed gate exits 1).
    package var changeGates: [ChangeOutcome] = []
    /// An exit code the job decides itself (lint's `--fail-on`); thresholds may raise it to 1.
    package var exitCode: ExitCode = .success

    package init(_ items: [Item] = []) { self.items = items }

    /// One text for standard output.
    package static func standardOutput(_ text: String) -> JobOutput { JobOutput([.text(text, to: .standardOutput, announce: false)]) }

    /// The exit code: the job's own, or 1 when a `--fail-if` threshold or change gate failed.
    package var finalExitCode: ExitCode {
        if exitCode != .success { return exitCode }
        let failed = thresholds.contains(where: \.failsRun) || changeGates.contains(where: \.failsRun)
        return failed ? .thresholdFailed : .success
    }
}
