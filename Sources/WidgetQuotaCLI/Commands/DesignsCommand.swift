import Foundation
import WidgetQuotaKit
import WidgetQuotaModel
import WidgetQuotaSupport

/// `widget-quota designs`: lists the designs with one line each and their source.
struct DesignsCommand: Command {
    static let scenario = Option.input("scenario", "FILE", "include the designs defined in FILE (default: the built-in designs only)")
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

    let job: DesignsJob
    let asJSON: Bool

    init(_ a: ParsedArguments) throws {
        try a.expectNoPositionals()
        job = DesignsJob(scenario: try a.value(Self.scenario).map(ScenarioLoader.load(path:)) ?? Scenario())
        asJSON = a.flag(Self.json)
    }

    func run(console: Console) throws -> JobOutput { try job.output(json: asJSON) }
}
