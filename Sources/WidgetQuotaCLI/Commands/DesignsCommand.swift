import Foundation
import WidgetQuotaKit
import WidgetQuotaModel
import WidgetQuotaSupport

/// `widget-quota designs`: lists the designs with one line each and their source.
struct DesignsCommand: Command {
    static let scenario = Option.valued("scenario", "FILE", "include the designs defined in FILE")
    static let json = Option.flag("json", "print the full definitions as JSON")

    static let spec = CommandSpec(
        name: "designs",
        summary: "List the built-in designs (and a scenario's own) with the article each comes from",
        discussion: "Lists each design with what it does and the source it comes from.",
        options: [scenario, json],
        examples: [
            "widget-quota designs",
            "widget-quota designs --scenario my-scenario.json --json",
        ])

    let designs: [Design]
    let asJSON: Bool

    init(_ a: ParsedArguments) throws {
        try a.expectNoPositionals()
        designs = try (a.value(Self.scenario).map(ScenarioLoader.load(path:)) ?? Scenario()).availableDesigns
        asJSON = a.flag(Self.json)
    }

    func run(console: Console) throws -> ExitCode {
        if asJSON {
            console.out(try JSONOutput.encode(designs))
            return .success
        }
        let width = (designs.map(\.name.count).max() ?? 0) + 2
        for d in designs {
            console.out(d.name.padding(toLength: width, withPad: " ", startingAt: 0) + d.shownSummary + " [\(d.source)]\n")
        }
        return .success
    }
}
