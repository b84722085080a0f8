import Foundation
import WidgetQuotaModel
import WidgetQuotaSimulation
import WidgetQuotaSupport

/// How many getTimeline calls a device's logs show for each call the system asked for, found by
/// simulating the design the logged app runs.
///
/// Logs record the calls that ran, and two things stand between those and the system's rate:
/// - WidgetKit drops the system's calls once an instance's daily reload budget is spent, so busy
///   devices log fewer calls than the system asked for (about 5% fewer for the direct design
///   under the default 40–70 budget);
/// - Apple logs do not say why a timeline was built, so the design's own reloads (its reload
///   policy, the app's reload calls, reloads queued until the budget renews) count as the
///   system's. WidgetQuota traces name each call's origin.
///
/// `shownPerOffered` simulates the scenario's users twice with the same random streams, once
/// with the scenario's budgets and once with budgets that never bind (so every call the system
/// offered runs), and divides what the logs would show by what was offered.
package struct TimelineVisibility: Sendable {
    let design: Design
    /// Share of the measured devices whose logs name each call's origin (WidgetQuota traces);
    /// the others count every getTimeline that ran as the system's (Apple logs).
    let originKnownShare: Double

    package init(design: Design, originKnownShare: Double) {
        self.design = design
        self.originKnownShare = originKnownShare
    }
    /// Users simulated, and days counted per user.
    package var users = ScenarioCalibrator.defaultSimulatedUsers
    var days = 14

    /// A budget no device reaches.
    package static let unboundedBudget = 1_000_000

    /// Calls the logs would show per system call offered, for the users inside and outside a
    /// Smart Stack and for all of them (nil where the simulated users were offered none), and
    /// the day-to-day spread the logs would show.
    package struct Shares: Sendable {
        package var inside: Double?
        package var outside: Double?
        package var all: Double?
        /// The analyzer's day-to-day spread estimate on the logged calls: the mean over devices
        /// of (variance − mean) ÷ mean² of their daily counts (nil: no device had calls).
        var daySpreadSquared: Double?
    }

    package func shownPerOffered(_ scenario: Scenario) -> Shares {
        var s = scenario
        s.horizon.days = days
        var unbounded = s
        unbounded.platform.reloadBudgetMin = Self.unboundedBudget
        unbounded.platform.reloadBudgetMax = Self.unboundedBudget
        unbounded.platform.rarelyViewedBudget = Self.unboundedBudget
        let scenarios = [s, unbounded]
        let counts = Parallel.map(count: 2, threads: 2) { [self] i in count(scenarios[i]) }
        let bound = counts[0]
        let offered = counts[1]
        func share(_ b: Count, _ o: Count) -> Double? {
            guard o.system > 0 else { return nil }
            return (originKnownShare * Double(b.system) + (1 - originKnownShare) * Double(b.all)) / Double(o.system)
        }
        let spread = bound.spread.devices > 0 ? bound.spread.sum / Double(bound.spread.devices) : nil
        return Shares(
            inside: share(bound.inside, offered.inside), outside: share(bound.outside, offered.outside),
            all: share(bound.inside + bound.outside, offered.inside + offered.outside), daySpreadSquared: spread)
    }

    /// getTimeline calls that ran on the counted days: the system's and all.
    struct Count: Sendable {
        var system = 0
        var all = 0
        static func + (a: Count, b: Count) -> Count { Count(system: a.system + b.system, all: a.all + b.all) }
    }

    private func count(_ s: Scenario) -> (inside: Count, outside: Count, spread: (sum: Double, devices: Int)) {
        // Same seed, run and design index in both simulations: the system's calls (generated
        // before the event loop) are the same, whatever the budget.
        let model = SimulationModel(scenario: s, design: design, run: 0, parameters: .central(s))
        let workspace = SimulationWorkspace(model: model)
        let from = Double(model.countedFirstDay) * .secondsPerDay
        let to = Double(model.countedEndDay) * .secondsPerDay
        var inside = Count()
        var outside = Count()
        var spread = (sum: 0.0, devices: 0)
        for user in 0..<users {
            var sim = UserSimulator(model: model, user: user, observer: TimelineCounter(from: from, to: to), workspace: workspace)
            sim.run()
            let counter = sim.observer
            let c = Count(system: counter.system.reduce(0, +), all: counter.all.reduce(0, +))
            if sim.traits.smartStack { inside = inside + c } else { outside = outside + c }
            // As `ScenarioCalibrator` measures it: system-or-unknown calls per device-day.
            let system = Self.spreadSquared(counter.system)
            let all = Self.spreadSquared(counter.all)
            if let system, let all {
                spread.sum += originKnownShare * system + (1 - originKnownShare) * all
                spread.devices += 1
            }
        }
        return (inside, outside, spread)
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
    /// Calls per day: the system's, and all.
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
