import Foundation
import WidgetQuotaModel
import WidgetQuotaSupport

/// The job behind `designs`: the designs a scenario can compare, a line each with its source, or
/// their full definitions as JSON.
public struct DesignsJob: Sendable {
    /// The designs: the built-in presets and the scenario's own.
    public var designs: [Design]

    /// The built-in designs and those `scenario` defines.
    public init(scenario: Scenario = Scenario()) { designs = scenario.availableDesigns }

    /// A line per design (name, what it does, its source), or with `json` every definition.
    package func output(json: Bool) throws -> JobOutput {
        if json { return .standardOutput(try JSONOutput.encode(designs)) }
        let width = (designs.map(\.name.count).max() ?? 0) + 2
        return .standardOutput(
            designs.map { d in d.name.padding(toLength: width, withPad: " ", startingAt: 0) + d.shownSummary + " [\(d.source)]\n" }
                .joined())
    }
}
