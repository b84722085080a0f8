import Foundation
import WidgetQuotaModel
import WidgetQuotaSupport

/// The outcome of `simulate`: the scenario used and one result per design × user count.
/// Its JSON form is a public contract for CI (add fields freely, never rename).
public struct SimulationResult: Codable, Sendable {
    /// The version of the JSON's shape: keys are added within a version, never renamed or removed.
    public var schemaVersion = 1
    /// The tool that wrote it.
    public var tool = ToolInfo()
    /// The scenario simulated, with every default filled in.
    public var scenario: Scenario
    /// How the numbers were produced.
    public var method: Method
    /// One result per design and user count, designs in the order simulated, user counts ascending.
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

    /// How many users a design can have on a tier.
    public struct Headroom: Codable, Sendable, Equatable {
        /// The design's name.
        public var design: String
        /// The tier's name.
        public var tier: String
        /// The largest such population; nil when even `largestPopulationSearched` users stay within the tier.
        public var maxUsers: Int?
        /// The largest population the search tried.
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
        /// Monte-Carlo runs, each with its own draw of the uncertain assumptions.
        public var runs: Int
        /// The seed every random stream derives from.
        public var seed: UInt64
        /// Users simulated one by one per run; larger populations are projected from them.
        public var sampleUsers: Int
        /// The designs simulated, by name.
        public var designs: [String]
        /// The design every other is compared with (`ratioToBaseline`).
        public var baseline: String
        /// The method in a sentence, for reports.
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

    /// A design's requests over a typical day.
    public struct TypicalDay: Codable, Sendable {
        /// The design's name.
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
    /// The tool's name, `widget-quota`.
    public var name = "widget-quota"
    /// Its version.
    public var version = WidgetQuotaVersion.current
    package init() {}
}

/// One design at one population size.
public struct DesignResult: Codable, Sendable {
    /// The design's name.
    public var design: String
    /// The population size.
    public var users: Int
    /// `exact` (every user simulated) or `projected` (from the simulated sample).
    public var method: String
    /// Requests per user per month across users (pooled over runs).
    public var requestsPerUserMonth: Quantiles
    /// All users' requests per month across runs (the uncertainty of the total).
    public var totalRequestsPerMonth: RunSpread
    /// Mean requests per user per day.
    public var requestsPerUserDay: Double
    /// Mean total divided by the baseline design's mean total at the same user count.
    public var ratioToBaseline: Double?
    /// Mean getTimeline calls per user per day, over all the user's widget instances.
    public var getTimelinePerUserDay: Double
    /// Share of widget-instance days on which the reload budget ran out.
    public var budgetExhaustedDayShare: Double
    /// Mean background app refresh runs per user per day.
    public var backgroundRunsPerUserDay: Double
    /// Mean background runs per user per day that ran out of time.
    public var backgroundExpirationsPerUserDay: Double
    /// Mean app opens per user per day.
    public var appOpensPerUserDay: Double
    /// Mean `reloadTimelines` calls per user per day.
    public var reloadCallsPerUserDay: Double
    /// Reload calls per successful fetch.
    public var reloadCallsPerSuccessfulFetch: Double?
    /// Mean fetches (a fetch may send several requests) per user per day.
    public var fetchesPerUserDay: Double
    /// Failed fetches over fetches.
    public var fetchFailureRate: Double
    /// Mean retries per user per day.
    public var retriesPerUserDay: Double
    /// Who sent the requests.
    public var requestShares: RequestShares
    /// The population's load over time: busiest minute and day.
    public var load: Load
    /// What users see when they glance at the widget.
    public var freshness: Freshness
    /// The chance of exceeding each tier's limits, in the scenario's order.
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
    /// What users saw during live events, and the design's Live Activities (nil unless a design
    /// of the scenario has a Live Activity).
    public var liveEvents: LiveEvents?

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

    /// The API's bill for the population.
    public struct Cost: Codable, Sendable {
        /// The priced model.
        public var model: String
        /// USD per input token.
        public var inputCostPerToken: Double
        /// USD per output token.
        public var outputCostPerToken: Double
        /// USD per month for the whole population, across runs; failed requests are not billed.
        public var perMonth: RunSpread
        /// Mean USD per user per month.
        public var perUserMonth: Double
        /// Where the prices come from (the bundled table, a file, the scenario).
        public var priceSource: String
        /// What the API bills (`request` or `credit`); nil: tokens, at the model's price.
        public var per: String?
        /// Requests or credits billed a month, across runs (nil: billed per token).
        public var unitsPerMonth: RunSpread?
        /// The plan billed (nil: paying as you go, or billed per token).
        public var plan: String?
        /// That plan's monthly fee; the rest of `perMonth` is its overage.
        public var planFeePerMonth: Double?
        /// Requests or credits billed on each provider day of the month, mean over runs: each
        /// complete day in order, then the part-days at the month's ends together (nil: per token).
        public var unitsPerDay: [Double]?
        /// The same days' units above the daily free allowance, mean over runs: paying as you go
        /// with no monthly allowance, their sum times the price per unit is the bill.
        public var unitsAboveFreePerDay: [Double]?

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

    /// What the scenario's outages did to requests.
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

    /// Who sent the requests, as shares that add up to 1.
    public struct RequestShares: Codable, Sendable {
        /// The widget extension, in getTimeline.
        public var widgetExtension: Double
        /// The app, in the foreground or woken by a silent push.
        public var app: Double
        /// The app's background app refresh tasks.
        public var background: Double

        package init(widgetExtension: Double, app: Double, background: Double) {
            self.widgetExtension = widgetExtension
            self.app = app
            self.background = background
        }
    }

    /// Time-resolved load of the whole population.
    public struct Load: Codable, Sendable {
        /// Requests in the busiest minute of the month, across runs.
        public var peakRequestsPerMinute: RunSpread
        /// Mean requests per minute over the month.
        public var meanRequestsPerMinute: Double
        /// Mean over runs of peak ÷ mean.
        public var peakToMeanRatio: Double
        /// Tokens in the busiest minute, across runs.
        public var peakTokensPerMinute: RunSpread
        /// Requests in the busiest quota day.
        public var peakRequestsPerQuotaDay: RunSpread
        /// Requests in the busiest UTC clock hour, across runs (nil in results written before
        /// hourly limits were modelled).
        public var peakRequestsPerHour: RunSpread?
        /// The quota day (1-based, complete days in the month) that was busiest most often.
        public var busiestQuotaDay: Int

        package init(
            peakRequestsPerMinute: RunSpread, meanRequestsPerMinute: Double, peakToMeanRatio: Double, peakTokensPerMinute: RunSpread,
            peakRequestsPerQuotaDay: RunSpread, peakRequestsPerHour: RunSpread? = nil, busiestQuotaDay: Int
        ) {
            self.peakRequestsPerMinute = peakRequestsPerMinute
            self.meanRequestsPerMinute = meanRequestsPerMinute
            self.peakToMeanRatio = peakToMeanRatio
            self.peakTokensPerMinute = peakTokensPerMinute
            self.peakRequestsPerQuotaDay = peakRequestsPerQuotaDay
            self.peakRequestsPerHour = peakRequestsPerHour
            self.busiestQuotaDay = busiestQuotaDay
        }
    }

    /// What users see when they glance at the widget.
    public struct Freshness: Codable, Sendable {
        /// Mean glances per user per day.
        public var glancesPerUserDay: Double
        /// Share of glances at content older than the TTL and the freshness target.
        public var staleShare: Double
        /// Share of glances at content older than the freshness target or at an error, whatever
        /// the TTL: comparable across designs and TTLs.
        public var overTargetShare: Double
        /// Share of glances at an error or placeholder.
        public var errorShare: Double
        /// The median age of the content at a glance, in minutes (nil: no glance saw content).
        public var medianAgeMinutes: Double?
        /// Its 95th percentile, in minutes.
        public var p95AgeMinutes: Double?
        /// Share of glances at content that a newer value had replaced at least a minute before
        /// (a change of the data after the content was fetched), or at an error: a quote fetched
        /// after the close is current all night, however old.
        public var outdatedShare: Double = 0
        /// During outages: share of glances showing an error.
        public var outageErrorShare: Double?
        /// During outages: share of glances showing old but valid content.
        public var outageStaleShare: Double?
        /// The same measures over the glances in open hours (nil without them): the calendar's,
        /// or those of the key groups the user follows, any of them open. A price read at night,
        /// fetched after the close, is not stale.
        public var openHours: OpenHoursFreshness?

        /// The share of glances the staleness target holds to: those over the freshness target
        /// (or at an error) in the open hours when the calendar has them, else in all glances.
        public var targetShare: Double { openHours?.overTargetShare ?? overTargetShare }

        /// The median age over the same glances as `targetShare`: those in open hours when the
        /// calendar has them, else all.
        public var targetMedianAgeMinutes: Double? { openHours.map { $0.medianAgeMinutes } ?? medianAgeMinutes }

        /// The glances `targetShare` counts, in words: `glances`, or `glances in open hours`.
        package var targetGlances: String { Self.targetGlances(openHours: openHours != nil) }

        /// The glances the staleness target holds to, in words, for a scenario with or without open hours.
        package static func targetGlances(openHours: Bool) -> String { openHours ? "glances in open hours" : "glances" }

        /// Freshness over the glances in open hours.
        public struct OpenHoursFreshness: Codable, Sendable {
            /// Share of all glances that fall in the open hours.
            public var glanceShare: Double
            /// Share of those at content older than the TTL and the freshness target.
            public var staleShare: Double
            /// Share of those at content older than the freshness target or at an error.
            public var overTargetShare: Double
            /// Share of those at content a newer value had replaced, or at an error.
            public var outdatedShare: Double = 0
            /// The median age of the content at those glances, in minutes (nil: none saw content).
            public var medianAgeMinutes: Double?
            /// Its 95th percentile, in minutes.
            public var p95AgeMinutes: Double?
        }

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
        /// The tier's name.
        public var tier: String
        /// The chance, across runs, of exceeding any of the tier's limits in the month (its
        /// included volume too, for a plan that bills no overage).
        public var exceedProbability: Double
        /// The chance of exceeding its requests-per-minute limit.
        public var rpmExceedProbability: Double
        /// The chance of exceeding its tokens-per-minute limit.
        public var tpmExceedProbability: Double
        /// The chance of exceeding its requests-per-day limit.
        public var rpdExceedProbability: Double
        /// The chance of exceeding its requests-per-hour limit (nil when the tier has none).
        public var rphExceedProbability: Double?
        /// p95 across runs of peak ÷ limit (nil when the limit is unpublished).
        public var rpmUtilizationP95: Double?
        /// The same for tokens per minute.
        public var tpmUtilizationP95: Double?
        /// The same for requests per day.
        public var rpdUtilizationP95: Double?
        /// The same for requests per hour.
        public var rphUtilizationP95: Double?
        /// The chance that the month's billed requests or credits exceed what the plan includes,
        /// when it bills no overage (nil: the tier has no such cap).
        public var monthlyVolumeExceedProbability: Double?
        /// p95 across runs of the month's billed units ÷ what the plan includes (nil: no such cap).
        public var monthlyVolumeUtilizationP95: Double?

        package init(
            tier: String, exceedProbability: Double, rpmExceedProbability: Double, tpmExceedProbability: Double,
            rpdExceedProbability: Double, rphExceedProbability: Double? = nil, rpmUtilizationP95: Double? = nil,
            tpmUtilizationP95: Double? = nil, rpdUtilizationP95: Double? = nil, rphUtilizationP95: Double? = nil,
            monthlyVolumeExceedProbability: Double? = nil, monthlyVolumeUtilizationP95: Double? = nil
        ) {
            self.monthlyVolumeExceedProbability = monthlyVolumeExceedProbability
            self.monthlyVolumeUtilizationP95 = monthlyVolumeUtilizationP95
            self.rphExceedProbability = rphExceedProbability
            self.rphUtilizationP95 = rphUtilizationP95
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
