import Foundation
import WidgetQuotaCLI

// Writing to a closed pipe (`widget-quota simulate | head`) must end quietly, not crash.
signal(SIGPIPE, SIG_IGN)
let code = CLI.run(Array(CommandLine.arguments.dropFirst()), console: .standard)
exit(code.rawValue)
