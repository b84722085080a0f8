import Testing
import WidgetQuotaModel
import WidgetQuotaSimulation
import WidgetQuotaSimulationTestSupport
import WidgetQuotaSupport
import WidgetQuotaTestSupport

/// `UserSimulator.policyTime(after:)` for a design aligned to wall-clock boundaries, whose
/// boundary is predicted and only checked by the division, gives the boundary's formula: at,
/// between and an ulp either side of boundaries, and after long gaps.
@Suite("aligned policy") struct AlignedPolicyTests {
    /// A 7-minute period with an odd phase and a 17-minute policy.
    static let oddlyAligned: Design = {
        var d = DesignPresets.pollJittered
        d.alignToWallClockMinutes = 7
        d.jitterSeconds = 333.3
        d.reloadPolicy = .after(minutes: 17)
        return d
    }()

    /// A policy delay longer than the 30-minute period.
    static let longerThanPeriod: Design = {
        var d = DesignPresets.pollAligned
        d.reloadPolicy = .after(minutes: 50)
        return d
    }()

    /// The policy reload time by its formula: the first aligned boundary after the time (after
    /// t + delay − period for a delay longer than the period), at least the minimum spacing on.
    static func formula(_ c: SimulationConstants, phase: Double, after t: Double) -> Double {
        let period = c.alignPeriod
        let from = t + max(c.policyDelay - period, 0)
        let boundary = (((from - phase) / period).rounded(.down) + 1) * period + phase
        return max(boundary, t + c.minReloadSpacing)
    }

    @Test("predicted aligned boundaries are the formula's", arguments: 0..<4)
    func predictedBoundariesAreTheFormulas(designIndex: Int) {
        let designs = [
            DesignPresets.pollAligned, DesignPresets.pollJittered, AlignedPolicyTests.oddlyAligned, AlignedPolicyTests.longerThanPeriod,
        ]
        var s = TestSupport.smallScenario(users: [20], runs: 1, days: 6)
        s.population.idleHours = 0  // the boundaries themselves; the night's wait is tested on its own
        s.platform.policyLatenessMinutes = 0  // and so is WidgetKit's lateness after them
        let m = SimulationModel(scenario: s, design: designs[designIndex], run: 1, parameters: RunParameters.draw(s, run: 1))
        var rng = SplitMix(state: UInt64(designIndex))
        for user in 0..<20 {
            var sim = UserSimulator(model: m, user: user, observer: NoObserver())
            let constants = sim.constants
            #expect(constants.aligned)
            let period = constants.alignPeriod
            var t = Double.random(in: 0..<period, using: &rng)
            for _ in 0..<3_000 {
                // Times between boundaries, at them and an ulp either side, and after long gaps.
                switch Int.random(in: 0..<6, using: &rng) {
                case 0: t += Double.random(in: 0..<period / 3, using: &rng)
                case 1: t = AlignedPolicyTests.formula(constants, phase: sim.wallClockPhase, after: t)
                case 2: t = AlignedPolicyTests.formula(constants, phase: sim.wallClockPhase, after: t).nextDown
                case 3: t = AlignedPolicyTests.formula(constants, phase: sim.wallClockPhase, after: t).nextUp
                case 4: t += Double.random(in: 0..<(4 * period), using: &rng)
                default: t += 1
                }
                let expected = AlignedPolicyTests.formula(constants, phase: sim.wallClockPhase, after: t)
                #expect(sim.policyTime(after: t) == expected, "user \(user), t \(t)")
            }
        }
    }

    /// A small seeded generator, so that the times tried are the same on every run.
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            return RandomStream.mix(state)
        }
    }
}
