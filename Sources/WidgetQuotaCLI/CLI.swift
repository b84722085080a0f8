import Foundation
import WidgetQuotaKit
import WidgetQuotaSupport

/// The `widget-quota` command line: flags → a command's job → an exit code; every decision is in
/// WidgetQuotaKit.
package enum CLI {
    /// Every command, in the order `--help` lists them.
    package static let commands: [Registered] = [
        Registered(ReportCommand.self),
        Registered(SimulateCommand.self),
        Registered(DiffCommand.self),
        Registered(ScenarioCommand.self),
        Registered(DesignsCommand.self),
        Registered(AnalyzeCommand.self),
        Registered(LintCommand.self),
        Registered(TraceCommand.self),
        Registered(SweepCommand.self),
        Registered(BenchCommand.self),
    ]

    /// A command's declaration and the function that reads its arguments and runs it.
    package struct Registered: Sendable {
        package let spec: CommandSpec
        let execute: @Sendable ([String], Console) throws -> ExitCode

        init<C: Command>(_ type: C.Type) {
            spec = C.spec
            execute = { args, console in
                let arguments = try ParsedArguments(args, options: C.spec.options)
                try arguments.expectStandardInputOnce(C.spec)
                let command = try C(arguments)
                return try OutputWriter.write(command.run(console: console), console: console, quiet: command.quiet)
            }
        }
    }

    /// Runs the command line `args` (without the program name) and returns the exit code.
    package static func run(_ args: [String], console: Console) -> ExitCode {
        guard let first = args.first else {
            console.err(usage())
            return .usage
        }
        switch first {
        case "--help", "-h", "help":
            guard args.count > 1 else {
                console.out(usage())
                return .success
            }
            guard let command = commands.first(where: { $0.spec.name == args[1] }) else {
                let hint = Levenshtein.nearest(to: args[1], in: commands.map(\.spec.name)).map { " (did you mean \"\($0)\"?)" } ?? ""
                console.err("widget-quota: no command \(quoted(args[1])) to show help for\(hint)\n\n" + usage())
                return .usage
            }
            console.out(command.spec.help)
            return .success
        case "--generate-completion-script":
            let shells = CompletionScript.Shell.allCases.map(\.rawValue)
            guard args.count == 2, let shell = CompletionScript.Shell(rawValue: args[1]) else {
                console.err("widget-quota: --generate-completion-script expects one shell: \(ParsedArguments.orList(shells))\n\n" + usage())
                return .usage
            }
            console.out(CompletionScript.script(for: shell))
            return .success
        case "--version", "version":
            console.out("widget-quota \(WidgetQuotaVersion.current)\n")
            return .success
        default:
            break
        }
        guard let command = commands.first(where: { $0.spec.name == first }) else {
            let problem: String
            if first.hasPrefix("-") && !first.hasPrefix("--") {
                problem = ParsedArguments.shortOptionMessage(first)
            } else {
                let hint = Levenshtein.nearest(to: first, in: commands.map(\.spec.name)).map { " (did you mean \"\($0)\"?)" } ?? ""
                problem = "unknown command \(quoted(first))\(hint)"
            }
            console.err("widget-quota: \(problem)\n\n" + usage())
            return .usage
        }
        let rest = Array(args.dropFirst())
        if ParsedArguments.asksForHelp(rest, options: command.spec.options) {
            console.out(command.spec.help)
            return .success
        }
        let name = command.spec.name
        do {
            let code = try command.execute(rest, console)
            // A result that did not reach standard output (a full disk) is not a success, and it
            // outranks a failed gate or lint's findings (exit 1): the report they refer to is lost.
            if let failure = console.outputFailure {
                console.err("widget-quota \(name): cannot write to standard output: \(failure)\n")
                return code.rawValue <= 1 ? .ioError : code
            }
            return code
        } catch let error as WidgetQuotaError {
            console.err("widget-quota \(name): \(CLI.bounded(error.description))\n")
            if case .usage = error { console.err("Try: widget-quota \(name) --help\n") }
            return error.exitCode
        } catch {
            console.err("widget-quota \(name): \(error)\n")
            return .internalError
        }
    }

    /// An error message cut to a readable length: input data must never flood the terminal.
    static func bounded(_ raw: String, limit: Int = 2_000) -> String {
        let message = PrintableText.clean(raw)  // a file name or value must not drive the terminal
        return message.count <= limit ? message : String(message.prefix(limit)) + "… (message shortened)"
    }

    /// The top-level help.
    static func usage() -> String {
        var text = """
            widget-quota \(WidgetQuotaVersion.current) — how many API requests, dollars and quota will this widget design burn?

            Usage: widget-quota <command> [options]

            Commands:

            """
        let width = (commands.map(\.spec.name.count).max() ?? 0) + 2
        for c in commands {
            text += "  " + c.spec.name.padding(toLength: width, withPad: " ", startingAt: 0) + c.spec.summary + "\n"
        }
        text += """

            Run `widget-quota <command> --help` for a command's options and examples, and
            `widget-quota --generate-completion-script bash|zsh|fish` for shell completion.

            Exit codes:

            """
        text += exitCodeHelp(thresholds: true)
        return text
    }

    /// The exit codes a command can return; code 1 only for commands that take `--fail-if`.
    static func exitCodeHelp(thresholds: Bool = false) -> String {
        ExitCode.allCases.filter { thresholds || $0 != .thresholdFailed }
            .map { "  \(String($0.rawValue).padding(toLength: 4, withPad: " ", startingAt: 0))\($0.meaning)\n" }.joined()
    }
}
