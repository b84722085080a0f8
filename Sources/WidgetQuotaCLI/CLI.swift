import Foundation
import WidgetQuotaKit

/// The `widget-quota` command line: a thin layer that parses flags and calls WidgetQuotaKit.
public enum CLI {
    /// A command: its name, one line of help, its full help, and what it does.
    struct Command: Sendable {
        let name: String
        let summary: String
        let help: String
        let run: @Sendable ([String], Console) throws -> ExitCode
    }

    static let commands: [Command] = [
        ReportCommand.command,
        SimulateCommand.command,
        DiffCommand.command,
        ScenarioCommand.command,
        DesignsCommand.command,
        AnalyzeCommand.command,
        TraceCommand.command,
        SweepCommand.command,
        BenchCommand.command,
    ]

    /// Runs the command line `args` (without the program name) and returns the exit code.
    public static func run(_ args: [String], console: Console) -> ExitCode {
        guard let first = args.first else {
            console.err(usage())
            return .usage
        }
        switch first {
        case "--help", "-h", "help":
            if args.count > 1, let command = commands.first(where: { $0.name == args[1] }) {
                console.out(command.help)
            } else {
                console.out(usage())
            }
            return .success
        case "--version", "version":
            console.out("widget-quota \(WidgetQuotaVersion.current)\n")
            return .success
        default:
            break
        }
        guard let command = commands.first(where: { $0.name == first }) else {
            let hint = Levenshtein.nearest(to: first, in: commands.map(\.name)).map { " (did you mean \"\($0)\"?)" } ?? ""
            console.err("widget-quota: unknown command \(quoted(first))\(hint)\n\n" + usage())
            return .usage
        }
        let rest = Array(args.dropFirst())
        if rest.contains("--help") || rest.contains("-h") {
            console.out(command.help)
            return .success
        }
        do {
            let code = try command.run(rest, console)
            // A result that did not reach standard output (a full disk) is not a success.
            if let failure = console.outputFailure {
                console.err("widget-quota \(command.name): cannot write to standard output: \(failure)\n")
                return code == .success ? .ioError : code
            }
            return code
        } catch let error as WidgetQuotaError {
            console.err("widget-quota \(command.name): \(CLI.bounded(error.description))\n")
            if case .usage = error { console.err("Try: widget-quota \(command.name) --help\n") }
            return error.exitCode
        } catch {
            console.err("widget-quota \(command.name): \(error)\n")
            return .internalError
        }
    }

    /// An error message cut to a readable length: input data must never flood the terminal.
    static func bounded(_ raw: String, limit: Int = 2_000) -> String {
        let message = PrintableText.clean(raw)   // a file name or value must not drive the terminal
        return message.count <= limit ? message : String(message.prefix(limit)) + "… (message shortened)"
    }

    /// The top-level help.
    static func usage() -> String {
        var text = """
        widget-quota \(WidgetQuotaVersion.current) — how many API requests, dollars and quota will this widget design burn?

        Usage: widget-quota <command> [options]

        Commands:

        """
        let width = (commands.map(\.name.count).max() ?? 0) + 2
        for c in commands {
            text += "  " + c.name.padding(toLength: width, withPad: " ", startingAt: 0) + c.summary + "\n"
        }
        text += """

        Run `widget-quota <command> --help` for a command's options and examples.

        Exit codes:

        """
        text += exitCodeHelp(thresholds: true)
        return text
    }

    /// The exit-code table shared by every `--help`.
    /// The exit codes a command can return; code 1 only for commands that take `--fail-if`.
    static func exitCodeHelp(thresholds: Bool = false) -> String {
        ExitCode.allCases.filter { thresholds || $0 != .thresholdFailed }
            .map { "  \(String($0.rawValue).padding(toLength: 4, withPad: " ", startingAt: 0))\($0.meaning)\n" }.joined()
    }
}
