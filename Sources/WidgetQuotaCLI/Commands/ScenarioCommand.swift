import Foundation
import WidgetQuotaKit
import WidgetQuotaModel
import WidgetQuotaSupport

/// `widget-quota scenario`: prints the full default scenario, or validates one.
struct ScenarioCommand: Command {
    static let check = Option.input("check", "FILE", "validate FILE and print it with every default filled in")
    static let migrate = Option.input(
        "migrate", "FILE", "as --check, for FILE written for an earlier release: remove the keys it replaced, naming each")

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
            --migrate reads a scenario of an earlier release: each named migration that applies removes
            the keys that release replaced (their values do not carry over; each is listed on standard
            error), and the scenario is checked and printed as --check prints it.
            """,
        options: [check, migrate, .prices],
        examples: [
            "widget-quota scenario > my-scenario.json",
            "widget-quota scenario --check my-scenario.json",
            "widget-quota scenario --migrate old-scenario.json > my-scenario.json",
        ])

    let scenario: Scenario
    let migrations: [ScenarioMigration.Applied]
    let isMigrating: Bool

    init(_ a: ParsedArguments) throws {
        try a.expectNoPositionals()
        isMigrating = a.value(Self.migrate) != nil
        switch (a.value(Self.check), a.value(Self.migrate)) {
        case (.some, .some): throw WidgetQuotaError.usage("--check and --migrate each read a scenario; give one")
        case (let check?, nil): (scenario, migrations) = (try ScenarioLoader.load(path: check), [])
        case (nil, let old?): (scenario, migrations) = try ScenarioLoader.migrate(path: old)
        case (nil, nil): (scenario, migrations) = (Scenario(), [])
        }
        // What `simulate` checks before it simulates: a price for a model billed per token.
        _ = try SimulationJob(scenario: scenario, prices: a.prices())
    }

    func run(console: Console) throws -> JobOutput {
        var output = JobOutput.standardOutput(ScenarioLoader.encode(scenario))
        output.items += migrations.map { .note("migrated: " + $0.sentence) }
        if isMigrating && migrations.isEmpty { output.items.append(.note("nothing to migrate: the scenario has the current shape")) }
        return output
    }
}
