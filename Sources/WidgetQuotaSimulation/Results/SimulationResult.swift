import Foundation
import WidgetQuotaModel
import WidgetQuotaSupport

/// The outcome of `simulate`: the scenario used and one result per design × user count.
/// Its JSON form is a public contract for CI (add fields freely, never rename).
public struct SimulationResult: Codable, Sendable {
    public var schemaVersion = 1
    public var tool = ToolInfo()
    public var scenario: Scenario
    public var method: Method
    public var results: [DesignResult]
    /// Per design: mean requests per user in each UTC hour of a typical day (24 values).
    public var typicalDay: [TypicalDay]
    /// Per design and tier: the largest population with at most `quotas.acceptableRisk` chance of
    /// hitting any of the tier's limits in the month.
    public var headroom: [Headroom]

    package init(scenario: Scenario, method: Method, results: [DesignResult], typicalDay: [TypicalDay], headroom: [Headroom]) {
        self.scenario = scenario
        self.method = method
        self.results = results
        self.typicalDay = typicalDay
        self.headroom = headroom
    }

    public struct Headroom: Codable, Sendable, Equatable {
        public var design: String
        public var tier: String
        /// The largest such population; nil when even `largestPopulationSearched` users stay within the tier.
        public var maxUsers: Int?
        public var largestPopulationSearched: Int
        /// The chance of hitting a limit at `maxUsers` (at most the acceptable risk).
        public var exceedProbabilityAtMax: Double

        package init(design: String, tier: String, maxUsers: Int? = nil, largestPopulationSearched: Int, exceedProbabilityAtMax: Double) {
            self.design = design
            self.tier = tier
            self.maxUsers = maxUsers
            self.largestPopulationSearched = largestPopulationSearched
            self.exceedProbabilityAtMax = exceedProbabilityAtMax
        }
    }

    /// How the numbers were produced.
    public struct Method: Codable, Sendable {
        public var runs: Int
        public var seed: UInt64
        public var sampleUsers: Int
        public var designs: [String]
        public var baseline: String
        public var description: String

        package init(runs: Int, seed: UInt64, sampleUsers: Int, designs: [String], baseline: String, description: String) {
            self.runs = runs
            self.seed = seed
            self.sampleUsers = sampleUsers
            self.designs = designs
            self.baseline = baseline
            self.description = description
        }
    }

    public struct TypicalDay: Codable, Sendable {
        public var design: String
        /// Requests per user per minute, averaged over each UTC hour.
        public var requestsPerUserPerMinuteByHour: [Double]
        /// Requests per user in each UTC minute of the day (1,440 values).
        public var requestsPerUserByMinute: [Double]

        package init(design: String, requestsPerUserPerMinuteByHour: [Double], requestsPerUserByMinute: [Double]) {
            self.design = design
            self.requestsPerUserPerMinuteByHour = requestsPerUserPerMinuteByHour
            self.requestsPerUserByMinute = requestsPerUserByMinute
        }
    }
}

/// Name and version of the tool that wrote a report.
public struct ToolInfo: Codable, Sendable {
    public var name = "widget-quota"
    public var version = WidgetQuotaVersion.current
    package init() {}
}

/// One design at one population size.
public struct DesignResult: Codable, Sendable {
    public var design: String
    public var users: Int
    /// `exact` (every user simulated) or `projected` (from the simulated sample).
    public var method: String
    /// Requests per user per month across users (pooled over runs).
    public var requestsPerUserMonth: Quantiles
    /// All users' requests per month across runs (the uncertainty of the total).
    public var totalRequestsPerMonth: RunSpread
    public var requestsPerUserDay: Double
    /// Mean total divided by the baseline design's mean total at the same user count.
    public var ratioToBaseline: Double?
    public var getTimelinePerUserDay: Double
    /// Share of widget-instance days on which the reload budget ran out.
    public var budgetExhaustedDayShare: Double
    public var backgroundRunsPerUserDay: Double
    public var backgroundExpirationsPerUserDay: Double
    public var appOpensPerUserDay: Double
    public var reloadCallsPerUserDay: Double
    /// Reload calls per successful fetch.
    public var reloadCallsPerSuccessfulFetch: Double?
    public var fetchesPerUserDay: Double
    public var fetchFailureRate: Double
    public var retriesPerUserDay: Double
    /// Who sent the requests.
    public var requestShares: RequestShares
    public var load: Load
    public var freshness: Freshness
    public var quota: [TierOutcome]
    /// The cheapest tier with enough headroom for this population (nil: none of the listed tiers).
    public var requiredTier: String?
    /// True when the scenario lists tiers and none of them is enough (`requiredTier` is then nil),
    /// so that a reader can tell "above every tier" from "no tiers to check".
    public var exceedsEveryTier: Bool = false
    /// Monthly API cost (nil when the model has no price).
    public var cost: Cost?
    /// What the scenario's outages did (nil without outages).
    public var outage: OutageImpact?
    /// A backend design's device requests, which its servers carry (nil: the devices call the API).
    public var backend: BackendLoad?
    /// What happened to the design's silent pushes (nil: it has none).
    public var pushes: Pushes?
    /// Each calendar event's day (empty without events).
    public var events: [EventDay] = []

    package init(
        design: String, users: Int, method: String, requestsPerUserMonth: Quantiles, totalRequestsPerMonth: RunSpread,
        requestsPerUserDay: Double, ratioToBaseline: Double? = nil, getTimelinePerUserDay: Double, budgetExhaustedDayShare: Double,
        backgroundRunsPerUserDay: Double, backgroundExpirationsPerUserDay: Double, appOpensPerUserDay: Double,
        reloadCallsPerUserDay: Double, reloadCallsPerSuccessfulFetch: Double? = nil, fetchesPerUserDay: Double, fetchFailureRate: Double,
        retriesPerUserDay: Double, requestShares: RequestShares, load: Load, freshness: Freshness, quota: [TierOutcome],
        requiredTier: String? = nil, exceedsEveryTier: Bool = false, cost: Cost? = nil, outage: OutageImpact? = nil
    ) {
        self.design = design
        self.users = users
        self.method = method
        self.requestsPerUserMonth = requestsPerUserMonth
        self.totalRequestsPerMonth = totalRequestsPerMonth
        self.requestsPerUserDay = requestsPerUserDay
        self.ratioToBaseline = ratioToBaseline
        self.getTimelinePerUserDay = getTimelinePerUserDay
        self.budgetExhaustedDayShare = budgetExhaustedDayShare
        self.backgroundRunsPerUserDay = backgroundRunsPerUserDay
        self.backgroundExpirationsPerUserDay = backgroundExpirationsPerUserDay
        self.appOpensPerUserDay = appOpensPerUserDay
        self.reloadCallsPerUserDay = reloadCallsPerUserDay
        self.reloadCallsPerSuccessfulFetch = reloadCallsPerSuccessfulFetch
        self.fetchesPerUserDay = fetchesPerUserDay
        self.fetchFailureRate = fetchFailureRate
        self.retriesPerUserDay = retriesPerUserDay
        self.requestShares = requestShares
        self.load = load
        self.freshness = freshness
        self.quota = quota
        self.requiredTier = requiredTier
        self.exceedsEveryTier = exceedsEveryTier
        self.cost = cost
        self.outage = outage
    }

    public struct Cost: Codable, Sendable {
        public var model: String
        public var inputCostPerToken: Double
        public var outputCostPerToken: Double
        /// USD per month for the whole population, across runs; failed requests are not billed.
        public var perMonth: RunSpread
        /// Mean USD per user per month.
        public var perUserMonth: Double
        public var priceSource: String

        package init(
            model: String, inputCostPerToken: Double, outputCostPerToken: Double, perMonth: RunSpread, perUserMonth: Double,
            priceSource: String
        ) {
            self.model = model
            self.inputCostPerToken = inputCostPerToken
            self.outputCostPerToken = outputCostPerToken
            self.perMonth = perMonth
            self.perUserMonth = perUserMonth
            self.priceSource = priceSource
        }
    }

    public struct OutageImpact: Codable, Sendable {
        /// Requests the outages added per user per month (same users simulated without them).
        public var extraRequestsPerUserMonth: Double
        /// The same for the whole population.
        public var extraRequestsPerMonth: Double
        /// Busiest minute in the hour after the earliest outage ends (the retry storm), across runs.
        public var peakAfterOutagePerMinute: RunSpread
        /// The busiest minute of that hour of the day on ordinary days, mean over runs.
        public var usualPeakPerMinute: Double
        /// peakAfterOutagePerMinute.mean ÷ usualPeakPerMinute.
        public var stormRatio: Double?

        package init(
            extraRequestsPerUserMonth: Double, extraRequestsPerMonth: Double, peakAfterOutagePerMinute: RunSpread,
            usualPeakPerMinute: Double, stormRatio: Double? = nil
        ) {
            self.extraRequestsPerUserMonth = extraRequestsPerUserMonth
            self.extraRequestsPerMonth = extraRequestsPerMonth
            self.peakAfterOutagePerMinute = peakAfterOutagePerMinute
            self.usualPeakPerMinute = usualPeakPerMinute
            self.stormRatio = stormRatio
        }
    }

    public struct RequestShares: Codable, Sendable {
        public var widgetExtension: Double
        public var app: Double
        public var background: Double

        package init(widgetExtension: Double, app: Double, background: Double) {
            self.widgetExtension = widgetExtension
            self.app = app
            self.background = background
        }
    }

    /// Time-resolved load of the whole population.
    public struct Load: Codable, Sendable {
        public var peakRequestsPerMinute: RunSpread
        public var meanRequestsPerMinute: Double
        /// Mean over runs of peak ÷ mean.
        public var peakToMeanRatio: Double
        public var peakTokensPerMinute: RunSpread
        /// Requests in the busiest quota day.
        public var peakRequestsPerQuotaDay: RunSpread
        /// The quota day (1-based, complete days in the month) that was busiest most often.
        public var busiestQuotaDay: Int

        package init(
            peakRequestsPerMinute: RunSpread, meanRequestsPerMinute: Double, peakToMeanRatio: Double, peakTokensPerMinute: RunSpread,
            peakRequestsPerQuotaDay: RunSpread, busiestQuotaDay: Int
        ) {
            self.peakRequestsPerMinute = peakRequestsPerMinute
            self.meanRequestsPerMinute = meanRequestsPerMinute
            self.peakToMeanRatio = peakToMeanRatio
            self.peakTokensPerMinute = peakTokensPerMinute
            self.peakRequestsPerQuotaDay = peakRequestsPerQuotaDay
            self.busiestQuotaDay = busiestQuotaDay
        }
    }

    /// What users see when they glance at the widget.
    public struct Freshness: Codable, Sendable {
        public var glancesPerUserDay: Double
        /// Share of glances at content older than the TTL and the freshness target.
        public var staleShare: Double
        /// Share of glances at content older than the freshness target or at an error, whatever
        /// the TTL: comparable across designs and TTLs.
        public var overTargetShare: Double
        /// Share of glances at an error or placeholder.
        public var errorShare: Double
        public var medianAgeMinutes: Double?
        public var p95AgeMinutes: Double?
        /// During outages: share of glances showing an error, and showing old but valid content.
        public var outageErrorShare: Double?
        public var outageStaleShare: Double?

        package init(
            glancesPerUserDay: Double, staleShare: Double, overTargetShare: Double, errorShare: Double, medianAgeMinutes: Double? = nil,
            p95AgeMinutes: Double? = nil, outageErrorShare: Double? = nil, outageStaleShare: Double? = nil
        ) {
            self.glancesPerUserDay = glancesPerUserDay
            self.staleShare = staleShare
            self.overTargetShare = overTargetShare
            self.errorShare = errorShare
            self.medianAgeMinutes = medianAgeMinutes
            self.p95AgeMinutes = p95AgeMinutes
            self.outageErrorShare = outageErrorShare
            self.outageStaleShare = outageStaleShare
        }
    }

    /// The chance of exceeding a tier's limits in the month.
    public struct TierOutcome: Codable, Sendable {
        public var tier: String
        public var exceedProbability: Double
        public var rpmExceedProbability: Double
        public var tpmExceedProbability: Double
        public var rpdExceedProbability: Double
        /// p95 across runs of peak ÷ limit (nil when the limit is unpublished).
        public var rpmUtilizationP95: Double?
        public var tpmUtilizationP95: Double?
        public var rpdUtilizationP95: Double?

        package init(
            tier: String, exceedProbability: Double, rpmExceedProbability: Double, tpmExceedProbability: Double,
            rpdExceedProbability: Double, rpmUtilizationP95: Double? = nil, tpmUtilizationP95: Double? = nil,
            rpdUtilizationP95: Double? = nil
        ) {
            self.tier = tier
            self.exceedProbability = exceedProbability
            self.rpmExceedProbability = rpmExceedProbability
            self.tpmExceedProbability = tpmExceedProbability
            self.rpdExceedProbability = rpdExceedProbability
            self.rpmUtilizationP95 = rpmUtilizationP95
            self.tpmUtilizationP95 = tpmUtilizationP95
            self.rpdUtilizationP95 = rpdUtilizationP95
        }
    }
}
