import Foundation
import WidgetQuotaKit

/// `widget-quota scenario`: prints the full default scenario, or validates one.
enum ScenarioCommand {
    static let command = CLI.Command(
        name: "scenario",
        summary: "Print the default scenario (every assumption, with its default) or check a scenario file",
        help: """
        Usage: widget-quota scenario [--check FILE]

        Prints the full default scenario as JSON, ready to copy and edit. Every field is optional in a
        scenario file: missing fields take these defaults.

        Options:
          --check FILE   validate FILE and print it with every default filled in
          -h, --help     show this help

        Examples:
          widget-quota scenario > my-scenario.json
          widget-quota scenario --check my-scenario.json

        Exit codes:
        \(CLI.exitCodeHelp())
        """,
        run: run)

    static func run(_ args: [String], console: Console) throws -> ExitCode {
        let a = try Arguments(args, valued: ["check"], switches: [])
        if let extra = a.positionals.first { throw WidgetQuotaError.usage("unexpected argument \"\(extra)\"") }
        let scenario = try a.value("check").map(ScenarioLoader.load(path:)) ?? Scenario()
        console.out(ScenarioLoader.encode(scenario))
        return .success
    }
}

/// `widget-quota designs`: lists the designs with one line each and their source.
enum DesignsCommand {
    static let command = CLI.Command(
        name: "designs",
        summary: "List the built-in designs (and a scenario's own) with the article each comes from",
        help: """
        Usage: widget-quota designs [--scenario FILE] [--json]

        Options:
          --scenario FILE  include the designs defined in FILE
          --json           print the full definitions as JSON
          -h, --help       show this help

        Examples:
          widget-quota designs
          widget-quota designs --scenario my-scenario.json --json

        Exit codes:
        \(CLI.exitCodeHelp())
        """,
        run: run)

    static func run(_ args: [String], console: Console) throws -> ExitCode {
        let a = try Arguments(args, valued: ["scenario"], switches: ["json"])
        let scenario = try a.value("scenario").map(ScenarioLoader.load(path:)) ?? Scenario()
        let designs = scenario.availableDesigns
        if a.flag("json") {
            console.out(try JSONOutput.encode(designs))
            return .success
        }
        let width = (designs.map(\.name.count).max() ?? 0) + 2
        for d in designs {
            console.out(d.name.padding(toLength: width, withPad: " ", startingAt: 0) + d.summary + " [\(d.source)]\n")
        }
        return .success
    }
}
