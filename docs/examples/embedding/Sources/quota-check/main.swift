import Foundation
import WidgetQuotaKit

// Projects two built-in designs for a few populations (or a scenario file's own designs) and
// prints requests per user a month, the quota tier each needs and its cost.
let arguments = CommandLine.arguments.dropFirst()
do {
    var scenario = try arguments.first.map { try ScenarioLoader.load(path: $0) } ?? Scenario()
    if arguments.isEmpty {
        scenario.horizon.users = [1_000, 100_000]
        scenario.horizon.runs = 4
    }
    let designs = arguments.isEmpty ? scenario.availableDesigns.filter { ["direct", "cache-bgtask"].contains($0.name) } : nil
    var job = try SimulationJob(scenario: scenario, designs: designs)
    job.sensitivity = false
    let report = try job.run()
    for row in report.result.results {
        let cost = row.cost.map { String(format: "$%.0f a month", $0.perMonth.mean) } ?? "no price"
        let requests = String(format: "%.0f", row.requestsPerUserMonth.mean)
        print(
            "\(row.design) at \(row.users) users: \(requests) requests per user a month, tier \(row.requiredTier ?? "none fits"), \(cost)")
    }
} catch {
    FileHandle.standardError.write(Data("quota-check: \(error)\n".utf8))
    exit(1)
}
