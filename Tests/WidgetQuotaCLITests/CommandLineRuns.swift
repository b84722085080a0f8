import Foundation
import WidgetQuotaCLI
import WidgetQuotaLogsTestSupport
import WidgetQuotaSupport
import WidgetQuotaTestSupport

/// The command line run in-process, its output captured.
extension TestSupport {
    /// Runs the command line and captures its output.
    static func cli(_ args: [String]) -> (code: ExitCode, out: String, err: String) {
        let box = Captured()
        let console = Console(out: { box.append(out: $0) }, err: { box.append(err: $0) })
        let code = CLI.run(args, console: console)
        return (code, box.out, box.err)
    }
}

extension LogTestSupport {
    /// Runs the command line and captures its output.
    static func run(_ args: [String]) -> (code: ExitCode, out: String, err: String) {
        TestSupport.cli(args)
    }
}
