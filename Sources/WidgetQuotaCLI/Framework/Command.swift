import WidgetQuotaKit
import WidgetQuotaSupport

/// A command of `widget-quota`, in the shape of swift-argument-parser's `ParsableCommand`:
/// its declaration, reading and checking of its arguments apart from the work, and the work.
protocol Command: Sendable {
    /// Name, summary, options and help.
    static var spec: CommandSpec { get }
    /// Reads and checks the arguments; everything that can be wrong with the command line fails
    /// here, before any work.
    init(_ arguments: ParsedArguments) throws
    /// Runs the command's one job and returns its rendered outputs, for `OutputWriter`.
    func run(console: Console) throws -> JobOutput
    /// `--quiet`: no notes, announcements or passed thresholds on standard error.
    var quiet: Bool { get }
}

extension Command {
    var quiet: Bool { false }
}
