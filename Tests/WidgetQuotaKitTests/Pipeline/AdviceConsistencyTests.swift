import Foundation
import Testing
import WidgetQuotaKit
import WidgetQuotaModel
import WidgetQuotaReporting
import WidgetQuotaStudies
import WidgetQuotaTestSupport

/// The recommendation's advice must agree with its own simulations: it never proposes what a
/// design already is, never offers a change that moved nothing as help, and takes up every
/// point of its sweep that beats the design on both requests and staleness.
@Suite("Advice consistency")
struct AdviceConsistencyTests {
    /// Each preset as the owner's design, and each example scenario as written.
    static let cases: [String] =
        DesignPresets.all.map { "preset:" + $0.name } + [
            "growth.json", "weather-widget.json", "sports-widget.json", "tickerboard.json", "tickerboard-crypto.json",
        ]

    static func scenario(_ name: String) throws -> Scenario {
        var s: Scenario
        if name.hasPrefix("preset:") {
            let preset = String(name.dropFirst("preset:".count))
            s = Scenario()
            s.designs = [DesignPresets.named(preset)!]
            s.baseline = preset
        } else {
            s = try ScenarioLoader.load(path: Fixtures.packageURL("docs/examples/" + name).path)
        }
        s.horizon.runs = 2
        s.horizon.sampleUsers = 200
        s.horizon.days = 14
        s.horizon.users = [1_000, 100_000]
        s.horizon.growth = nil
        s.calendar.events = s.calendar.events.filter { $0.day <= 14 }
        return s
    }

    @Test("The recommendation never contradicts its own simulations", arguments: cases)
    func adviceAgreesWithSimulation(name: String) throws {
        let s = try Self.scenario(name)
        var job = try SimulationJob(scenario: s, threads: 2)
        job.sensitivity = false
        job.sweep = true
        let report = try job.run()
        let recommendation = try #require(report.recommendation)
        let designs = s.availableDesigns
        let own = try #require(designs.first { $0.name == recommendation.ownDesign })
        // Every design a change names: the planned changes and the sweep's values.
        let study = RecommendationStudy(scenario: s, designs: designs.filter { d in report.result.method.designs.contains(d.name) })
        var changed = Dictionary(uniqueKeysWithValues: study.plannedChanges(result: report.result).map { ($0.design.name, $0.design) })
        if let sweep = report.sweep {
            for point in sweep.points {
                let variant = sweep.knob.apply(point.value, to: own)
                changed[variant.name] = variant
            }
        }

        for change in recommendation.changes {
            // A change is a change: its design differs from the owner's in some field.
            let design = try #require(changed[change.design], "\(name): \(change.design)")
            #expect(!design.differences(from: own).isEmpty, "\(name): \"\(change.description)\" is \(own.name) as it is")
            // Marked measurable exactly when a figure moved beyond noise somewhere.
            #expect(change.measurable == change.effects.contains(where: RecommendationStudy.moves), "\(name): \(change.kind)")
        }
        // The advice in words names only changes that moved something.
        let text = RecommendationSection(result: report.result, recommendation: recommendation).markdown()
        for change in recommendation.changes where !change.measurable {
            #expect(!text.contains("With \(change.description),"), "\(name): advises \"\(change.description)\", which moved nothing")
            #expect(text.contains(change.description + " — no measurable effect"), "\(name): \(change.kind)")
        }
        // No flag tells a design to become what it already is.
        for flag in recommendation.flags {
            let design = try #require(designs.first { $0.name == flag.design })
            if design.reloadPolicy == .never {
                #expect(!flag.message.contains("drop its own reload policy (.never)"), "\(name): \(flag.design): \(flag.message)")
            }
            if design.reloadCalls == .onceOnSuccess {
                #expect(!flag.message.contains("reload once after a successful fetch, not"), "\(name): \(flag.design): \(flag.message)")
            }
        }
        // The sweep and the recommendation agree: a value that beats the design at the sweep's
        // population on both requests and staleness, beyond noise, is among the changes.
        if let sweep = report.sweep, sweep.design == own.name,
            let current = report.result.results.first(where: { $0.design == own.name && $0.users == sweep.users })
        {
            for point in sweep.points {
                let better =
                    point.totalRequestsPerMonth.mean <= current.totalRequestsPerMonth.mean
                    && point.overTargetShare <= current.freshness.overTargetShare
                    && (point.totalRequestsPerMonth.mean < 0.995 * current.totalRequestsPerMonth.mean
                        || point.overTargetShare < current.freshness.overTargetShare - 0.005)
                guard better else { continue }
                let variant = sweep.knob.apply(point.value, to: own).name
                #expect(
                    recommendation.changes.contains { $0.design == variant },
                    "\(name): the sweep's \(point.value) beats \(own.name) on requests and staleness, and the advice leaves it out")
            }
        }
    }
}
