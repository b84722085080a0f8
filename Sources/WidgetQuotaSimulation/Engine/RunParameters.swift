import Foundation
import WidgetQuotaModel
import WidgetQuotaSupport

/// The uncertain assumptions of a scenario, each resolved to one number for one Monte-Carlo run.
///
/// "What we do not know" is drawn here, once per run; "how users differ" is drawn per user
/// in `UserTraits`. Reports keep the two apart.
package struct RunParameters: Sendable, Equatable {
    package var smartStackShare: Double
    package var smartStackReloadsPerDay: Double
    package var lowPowerDayShare: Double
    package var appOpensPerDay: Double
    package var neverOpenShare: Double
    package var glancesPerDay: Double
    package var systemReloadsPerDay: Double
    package var backgroundRunsPerDay: Double
    package var failureProbability: Double
    package var inputTokensPerRequest: Double
    package var outputTokensPerRequest: Double
    package var dataChangesPerDay: Double
    package var silentPushDeliveryShare: Double
    package var smartStackRotationsPerDay: Double
    package var multiWidgetShare: Double
    package var backgroundRefreshOffShare: Double
    package var interactiveTapsPerDay: Double
    package var policyLatenessMinutes: Double
    package var silentPushesPerDay: Double
    package var liveActivityUpdatesPerHour: Double
    package var liveActivityFrequentUpdatesPerHour: Double
    package var liveActivityLowPriorityDelayMinutes: Double

    /// The assumptions about Live Activities, which only a scenario with a Live Activity design
    /// reads (the others take their central values).
    static func liveActivityAssumptions(of s: Scenario) -> [(path: String, distribution: Distribution)] {
        [
            ("platform.liveActivityUpdatesPerHour", s.platform.liveActivityUpdatesPerHour),
            ("platform.liveActivityFrequentUpdatesPerHour", s.platform.liveActivityFrequentUpdatesPerHour),
            ("platform.liveActivityLowPriorityDelayMinutes", s.platform.liveActivityLowPriorityDelayMinutes),
        ]
    }

    /// Every uncertain assumption of `scenario` with its dotted path, in a fixed order; those of
    /// Live Activities only when one of its designs has one.
    package static func assumptions(of s: Scenario) -> [(path: String, distribution: Distribution)] {
        let activities = s.designs.contains { $0.liveActivity != nil } ? liveActivityAssumptions(of: s) : []
        return [
            ("population.smartStackShare", s.population.smartStackShare),
            ("population.smartStackReloadsPerDay", s.population.smartStackReloadsPerDay),
            ("population.lowPowerDayShare", s.population.lowPowerDayShare),
            ("population.appOpensPerDay", s.population.appOpensPerDay),
            ("population.neverOpenShare", s.population.neverOpenShare),
            ("population.glancesPerDay", s.population.glancesPerDay),
            ("platform.systemReloadsPerDay", s.platform.systemReloadsPerDay),
            ("platform.backgroundRunsPerDay", s.platform.backgroundRunsPerDay),
            ("api.failureProbability", s.api.failureProbability),
            ("api.inputTokensPerRequest", s.api.inputTokensPerRequest),
            ("api.outputTokensPerRequest", s.api.outputTokensPerRequest),
            ("api.dataChangesPerDay", s.api.dataChangesPerDay),
            ("platform.silentPushDeliveryShare", s.platform.silentPushDeliveryShare),
            ("population.smartStackRotationsPerDay", s.population.smartStackRotationsPerDay),
            ("population.multiWidgetShare", s.population.multiWidgetShare),
            ("population.backgroundRefreshOffShare", s.population.backgroundRefreshOffShare),
            ("population.interactiveTapsPerDay", s.population.interactiveTapsPerDay),
            ("platform.policyLatenessMinutes", s.platform.policyLatenessMinutes),
            ("platform.silentPushesPerDay", s.platform.silentPushesPerDay),
        ] + activities
    }

    /// Resolves each assumption with `value(path, distribution)`.
    package init(scenario s: Scenario, value: (String, Distribution) -> Double) {
        let all = RunParameters.assumptions(of: s)
        var resolved = [String: Double]()
        for (path, distribution) in all { resolved[path] = value(path, distribution) }
        for (path, distribution) in RunParameters.liveActivityAssumptions(of: s) where resolved[path] == nil {
            resolved[path] = distribution.central
        }
        func v(_ path: String) -> Double { resolved[path]! }
        smartStackShare = v("population.smartStackShare")
        smartStackReloadsPerDay = v("population.smartStackReloadsPerDay")
        lowPowerDayShare = v("population.lowPowerDayShare")
        appOpensPerDay = v("population.appOpensPerDay")
        neverOpenShare = v("population.neverOpenShare")
        glancesPerDay = v("population.glancesPerDay")
        systemReloadsPerDay = v("platform.systemReloadsPerDay")
        backgroundRunsPerDay = v("platform.backgroundRunsPerDay")
        failureProbability = v("api.failureProbability")
        inputTokensPerRequest = v("api.inputTokensPerRequest")
        outputTokensPerRequest = v("api.outputTokensPerRequest")
        dataChangesPerDay = v("api.dataChangesPerDay")
        silentPushDeliveryShare = v("platform.silentPushDeliveryShare")
        smartStackRotationsPerDay = v("population.smartStackRotationsPerDay")
        multiWidgetShare = v("population.multiWidgetShare")
        backgroundRefreshOffShare = v("population.backgroundRefreshOffShare")
        interactiveTapsPerDay = v("population.interactiveTapsPerDay")
        policyLatenessMinutes = v("platform.policyLatenessMinutes")
        silentPushesPerDay = v("platform.silentPushesPerDay")
        liveActivityUpdatesPerHour = v("platform.liveActivityUpdatesPerHour")
        liveActivityFrequentUpdatesPerHour = v("platform.liveActivityFrequentUpdatesPerHour")
        liveActivityLowPriorityDelayMinutes = v("platform.liveActivityLowPriorityDelayMinutes")
    }

    /// Draws run `run`'s values; each assumption has its own stream, keyed by its name.
    package static func draw(_ scenario: Scenario, run: Int) -> RunParameters {
        RunParameters(scenario: scenario) { path, distribution in
            var rng = RandomStream(seed: scenario.horizon.seed, .runParameters, UInt64(run), stableHash(path))
            return distribution.sample(&rng)
        }
    }

    /// Every assumption at its central value.
    package static func central(_ scenario: Scenario) -> RunParameters {
        RunParameters(scenario: scenario) { _, distribution in distribution.central }
    }

    /// Tokens per request, input plus output.
    package var tokensPerRequest: Double { inputTokensPerRequest + outputTokensPerRequest }

    /// FNV-1a over UTF-8: a hash that is the same on every platform and every run (unlike `Hasher`).
    package static func stableHash(_ text: String) -> UInt64 { StableHash.fnv1a(text) }
}
