import Foundation
import WidgetQuotaCLI
import WidgetQuotaSupport

// Writing to a closed pipe (`widget-quota simulate | head`) must end quietly, not crash.
signal(SIGPIPE, SIG_IGN)
// Ctrl-C or a `kill` while a report is being written removes the files half written.
InterruptCleanup.process.install()
let code = CLI.run(Array(CommandLine.arguments.dropFirst()), console: .standard)
exit(code.rawValue)
