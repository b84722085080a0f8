import Foundation
import WidgetQuotaModel
import WidgetQuotaSimulation
import WidgetQuotaSupport

/// What a device's logs would show of its getTimeline calls under the design the logged app
/// runs, found by simulating that design.
///
/// Every cause of a getTimeline call lands in the logs alike: the design's reload policy, the
/// app's reload calls, reloads queued until the budget renews, WidgetKit's own reloads and
/// Smart Stack rotation; the reload budget drops what is over it. WidgetQuota traces name each
/// call's origin, and the analyzer then counts only WidgetKit's own; Apple logs do not say why
/// a timeline was built, so it counts every call. `shown(_:)` simulates the scenario's users
/// and counts their calls the way the analyzer counts the real ones.
package struct TimelineVisibility: Sendable {
    let design: Design
    /// Share of the measured devices whose logs name each call's origin (WidgetQuota traces);
    /// the others count every getTimeline that ran (Apple logs).
    let originKnownShare: Double

    package init(design: Design, originKnownShare: Double) {
        self.design = design
        self.originKnownShare = originKnownShare
    }
    /// Users simulated, and days counted per user.
    package var users = ScenarioCalibrator.defaultSimulatedUsers
    package var days = 14

    /// What the simulated logs show: the mean over devices of getTimeline calls per
    /// instance-day as the analyzer counts them (`LogAnalyzer.instanceRate`), inside a Smart
    /// Stack, outside one and over every device (nil where no simulated device was), and the
    /// day-to-day spread estimate.
    package struct Shown: Sendable {
        package var inside: Double?
        package var outside: Double?
        package var all: Double?
        /// The analyzer's day-to-day spread estimate on the counted calls: the mean over devices
        /// of (variance − mean) ÷ mean² of their daily counts (nil: no device had calls).
        var daySpreadSquared: Double?
        /// Calls counted per getTimeline call that ran (1 for Apple logs, which count them all).
        package var countedShare: Double?
    }

    package func shown(_ scenario: Scenario) -> Shown {
        var s = scenario
        s.horizon.days = days
        // The design's own reloads depend on the system's calls: one run, every user.
        let model = SimulationModel(scenario: s, design: design, run: 0, parameters: .central(s))
        let workspace = SimulationWorkspace(model: model)
        let from = Double(model.countedFirstDay) * .secondsPerDay
        let to = Double(model.countedEndDay) * .secondsPerDay
        var inside = Mean()
        var outside = Mean()
        var counted = 0.0
        var ran = 0
        var spread = Mean()
        for user in 0..<users {
            var sim = UserSimulator(model: model, user: user, observer: TimelineCounter(from: from, to: to), workspace: workspace)
            sim.run()
            let counter = sim.observer
            let system = counter.system.reduce(0, +)
            let all = counter.all.reduce(0, +)
            let shown = originKnownShare * Double(system) + (1 - originKnownShare) * Double(all)
            let rate = shown / Double(counter.system.count) / Double(sim.traits.instances)
            if sim.traits.smartStack { inside.add(rate) } else { outside.add(rate) }
            counted += shown
            ran += all
            // A device without calls of one kind has no spread of that kind, which only matters
            // when the logs count that kind.
            let systemSpread = originKnownShare > 0 ? Self.spreadSquared(counter.system) : 0
            let allSpread = originKnownShare < 1 ? Self.spreadSquared(counter.all) : 0
            if let systemSpread, let allSpread { spread.add(originKnownShare * systemSpread + (1 - originKnownShare) * allSpread) }
        }
        var every = inside
        every.merge(outside)
        return Shown(
            inside: inside.value, outside: outside.value, all: every.value, daySpreadSquared: spread.value,
            countedShare: ran > 0 ? counted / Double(ran) : nil)
    }

    /// A running mean.
    private struct Mean {
        var sum = 0.0
        var count = 0
        mutating func add(_ x: Double) {
            sum += x
            count += 1
        }
        mutating func merge(_ other: Mean) {
            sum += other.sum
            count += other.count
        }
        var value: Double? { count > 0 ? sum / Double(count) : nil }
    }

    /// (variance − mean) ÷ mean² of daily counts: the spread beyond Poisson noise (nil: no calls).
    static func spreadSquared(_ counts: [Int]) -> Double? {
        guard counts.count >= 3 else { return nil }
        let n = Double(counts.count)
        let mean = Double(counts.reduce(0, +)) / n
        guard mean > 0 else { return nil }
        let variance = counts.reduce(0.0) { $0 + (Double($1) - mean) * (Double($1) - mean) } / (n - 1)
        return (variance - mean) / (mean * mean)
    }
}

/// Counts the getTimeline calls that ran on each local day of a window, by origin.
private struct TimelineCounter: SimulationObserver {
    let from: Double
    let to: Double
    /// Calls per day: WidgetKit's own (Smart Stack rotation included), and all.
    var system: [Int]
    var all: [Int]

    init(from: Double, to: Double) {
        self.from = from
        self.to = to
        let days = Int(((to - from) / .secondsPerDay).rounded())
        system = Array(repeating: 0, count: days)
        all = Array(repeating: 0, count: days)
    }

    mutating func record(_ event: SimulationEvent, local: Double, utc: Double) {
        guard case .getTimeline(_, let origin, _) = event, local >= from, local < to else { return }
        let day = Int((local - from) / .secondsPerDay)
        all[day] += 1
        if origin == .system { system[day] += 1 }
    }
}
