import Foundation
import WidgetQuotaKit
import WidgetQuotaModel
import WidgetQuotaSupport

/// `widget-quota scenario`: prints the full default scenario, or validates one.
struct ScenarioCommand: Command {
    static let check = Option.input("check", "FILE", "validate FILE and print it with every default filled in")

    static let spec = CommandSpec(
        name: "scenario",
        summary: "Print the default scenario (every assumption, with its default) or check a scenario file",
        discussion: """
            Prints the full default scenario as JSON, ready to copy and edit. Every section and top-level
            field is optional in a scenario file: missing fields take these defaults. An item added to a
            list must hold its required fields: a tier `name` and `readOn`; an outage `day`, `startHourUTC`,
            `durationHours` and `errorRate`; a design `name`; a distribution `distribution` and its
            parameters (docs/scenario.md lists them all). --check runs the checks simulate runs before
            simulating, the price of a model billed per token included (--prices as simulate takes it).
            """,
        options: [check, .prices],
        examples: [
            "widget-quota scenario > my-scenario.json",
            "widget-quota scenario --check my-scenario.json",
        ])

    let scenario: Scenario

    init(_ a: ParsedArguments) throws {
        try a.expectNoPositionals()
        scenario = try a.value(Self.check).map(ScenarioLoader.load(path:)) ?? Scenario()
        // What `simulate` checks before it simulates: a price for a model billed per token.
        _ = try SimulationJob(scenario: scenario, prices: a.prices())
    }

    func run(console: Console) throws -> JobOutput { .standardOutput(ScenarioLoader.encode(scenario)) }
}
