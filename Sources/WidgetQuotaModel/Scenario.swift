import Foundation

/// Everything a projection assumes: horizon, population, platform, API and the designs compared.
///
/// Every section and top-level field is optional in JSON; missing fields take the defaults
/// documented in docs/scenario.md, each traced to the article it comes from. Items added to a list
/// (a tier, an outage, a design) have required fields of their own, listed there.
public struct Scenario: Codable, Sendable, Equatable {
    /// The version of the scenario file format.
    public var schemaVersion: Int = 1
    /// What the scenario is about ("Match summary widget"), for the report's title; nil: none.
    public var name: String?
    /// How long, for how many users, how many runs and from which seed.
    public var horizon = Horizon()
    /// Who the users are: their habits, devices, time zones.
    public var population = Population()
    /// What iOS and WidgetKit do: reload budgets, background runs, pushes, Low Power Mode.
    public var platform = Platform()
    /// The API: its model, tokens per request, failures, outages and how often its data changes.
    public var api = APIModel()
    /// Quota tiers and how their days are counted.
    public var quotas = QuotaSettings()
    /// Designs defined by this scenario in addition to (or replacing) the built-in presets.
    public var designs: [Design] = []
    /// The design every other design is compared against.
    public var baseline: String = "cache-bgtask"
    /// Where values came from when a scenario was calibrated from logs (`analyze --emit-scenario`).
    public var calibration: Calibration?
    /// The tier and staleness the owner accepts, for the report's recommendation.
    public var targets = Targets()
    /// Content many users share (keys), for backend designs and broadcast pushes.
    public var content = SharedContent()
    /// Days that are not alike: day kinds by weekday and one-off events.
    public var calendar = ScenarioCalendar()

    /// The built-in scenario: every value its documented default (docs/scenario.md).
    public init() {}

    enum CodingKeys: String, CodingKey, CaseIterable {
        case schemaVersion, name, horizon, population, platform, api, quotas, designs, baseline, calibration
        case targets, content, calendar
    }

    /// Any key by name, to ask whether a nested object wrote one.
    struct NamedKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public init(from decoder: Decoder) throws {
        let d = Scenario()
        let c = try decoder.container(keyedBy: CodingKeys.self)
        schemaVersion = try c.value(.schemaVersion, or: d.schemaVersion)
        name = try c.decodeIfPresent(String.self, forKey: .name)
        horizon = try c.value(.horizon, or: d.horizon)
        population = try c.value(.population, or: d.population)
        platform = try c.value(.platform, or: d.platform)
        api = try c.value(.api, or: d.api)
        quotas = try c.value(.quotas, or: d.quotas)
        designs = try c.value(.designs, or: d.designs)
        baseline = try c.value(.baseline, or: d.baseline)
        calibration = try c.decodeIfPresent(Calibration.self, forKey: .calibration)
        targets = try c.value(.targets, or: d.targets)
        content = try c.value(.content, or: d.content)
        calendar = try c.value(.calendar, or: d.calendar)
        // The default outage falls on day 12 of 30; keep it inside a shorter horizon, unless the
        // file wrote it out (then a day past the horizon is the file's mistake, reported as such).
        let outagesWritten = (try? c.nestedContainer(keyedBy: NamedKey.self, forKey: .api))?.contains(NamedKey("outages")) ?? false
        if !outagesWritten, api.outages == APIModel().outages, let first = api.outages.first, first.day > horizon.days {
            api.outages[0].day = max(1, (horizon.days + 1) / 2)
        }
        // Without tiers of its own, the scenario plans against its catalogue entry's, else its
        // model's provider's.
        if let name = api.catalogue, let entry = APICatalogue.entry(named: name) {
            if api.pricing == nil { api.pricing = entry.pricing }
            quotas.useCatalogue(entry)
        }
        quotas.chooseBundledTiers(model: api.model)
    }

    /// This scenario with the bundled tiers of its model's provider, as `prices` names the
    /// provider (LiteLLM's `litellm_provider`), unless it lists its own tiers.
    package func choosingTiers(prices: PriceTable) -> Scenario {
        var s = self
        s.quotas.chooseBundledTiers(model: api.model, litellmProvider: prices.provider(for: api.model))
        return s
    }

    /// The designs available to this scenario: built-in presets, overridden or extended by the file's own.
    public var availableDesigns: [Design] {
        var all = DesignPresets.all
        for custom in designs {
            if let index = all.firstIndex(where: { $0.name == custom.name }) {
                all[index] = custom
            } else {
                all.append(custom)
            }
        }
        return all
    }
}

/// How long, how many users, how many Monte-Carlo runs.
public struct Horizon: Codable, Sendable, Equatable {
    /// Days simulated and reported (a month).
    public var days: Int = 30
    /// Days simulated before counting starts, so caches and schedules reach their steady state.
    public var warmupDays: Int = 1
    /// Population sizes to project.
    public var users: [Int] = [1, 100, 1_000, 10_000, 100_000, 1_000_000]
    /// Monte-Carlo runs: each draws the uncertain assumptions afresh.
    public var runs: Int = 20
    /// The seed every random stream derives from.
    public var seed: UInt64 = 2026
    /// Users simulated event by event per run; larger populations are projected from this sample.
    public var sampleUsers: Int = 1_000
    /// Users in each month of a launch, for the report's month-by-month growth (nil: none).
    public var growth: Growth?

    /// The default horizon.
    public init() {}

    public init(from decoder: Decoder) throws {
        let d = Horizon()
        let c = try decoder.container(keyedBy: CodingKeys.self)
        days = try c.value(.days, or: d.days)
        warmupDays = try c.value(.warmupDays, or: d.warmupDays)
        users = try c.value(.users, or: d.users)
        runs = try c.value(.runs, or: d.runs)
        seed = try c.value(.seed, or: d.seed)
        sampleUsers = try c.value(.sampleUsers, or: d.sampleUsers)
        growth = try c.decodeIfPresent(Growth.self, forKey: .growth)
    }
}

/// A share of users living at a UTC offset.
public struct TimeZoneShare: Codable, Sendable, Equatable {
    /// The offset from UTC, in hours (-5 for New York in winter).
    public var utcOffsetHours: Double
    /// The share of users there; the shares of a population are normalised to add up to 1.
    public var share: Double
    /// `share` of users at `utcOffsetHours`.
    public init(utcOffsetHours: Double, share: Double) {
        self.utcOffsetHours = utcOffsetHours
        self.share = share
    }
}

/// When in the user's local day things happen: 24 relative weights, one per hour.
public struct ActivityProfile: Codable, Sendable, Equatable {
    /// App opens: waking hours, peaks at commute, lunch and evening.
    public var app: [Double] = [
        0.2, 0.1, 0.05, 0.05, 0.05, 0.2, 0.6, 1.4, 1.8, 1.3, 1.1, 1.2,
        1.6, 1.3, 1.1, 1.1, 1.2, 1.5, 1.7, 1.8, 1.7, 1.4, 0.9, 0.5,
    ]
    /// getTimeline and glances: through the waking day, some at night.
    public var widget: [Double] = [
        0.4, 0.3, 0.25, 0.25, 0.3, 0.5, 0.9, 1.3, 1.4, 1.3, 1.2, 1.2,
        1.3, 1.2, 1.2, 1.2, 1.3, 1.4, 1.4, 1.4, 1.3, 1.1, 0.8, 0.6,
    ]
    /// BGAppRefreshTask launches: in the hour before the user is predicted to open the app (the
    /// app profile an hour earlier), few at night (WWDC20 "Background execution demystified":
    /// iOS runs the apps a user uses most at that time of day, so they are fresh when opened).
    public var background: [Double] = [
        0.1, 0.05, 0.05, 0.05, 0.2, 0.6, 1.4, 1.8, 1.3, 1.1, 1.2, 1.6,
        1.3, 1.1, 1.1, 1.2, 1.5, 1.7, 1.8, 1.7, 1.4, 0.9, 0.5, 0.2,
    ]
    /// The default profiles.
    public init() {}

    public init(from decoder: Decoder) throws {
        let d = ActivityProfile()
        let c = try decoder.container(keyedBy: CodingKeys.self)
        app = try c.value(.app, or: d.app)
        widget = try c.value(.widget, or: d.widget)
        background = try c.value(.background, or: d.background)
    }
}

/// How users differ from each other.
public struct Population: Codable, Sendable, Equatable {
    /// Share of users with the widget in a Smart Stack (the Gemini widget report: rotation triggers reloads).
    public var smartStackShare: Distribution = .uniform(min: 0.2, max: 0.4)
    /// Times a day Smart Stack rotates the widget into view for stack users. A rotation runs no
    /// getTimeline by itself (Apple: the stack shows the timeline's current entry); it reloads a
    /// widget whose policy reload is due and not yet run (Apple: WidgetKit reloads a widget that
    /// becomes visible). Apple rate-limits rotation and gives no figure: an uncertain assumption.
    public var smartStackRotationsPerDay: Distribution = .uniform(min: 2, max: 12)
    /// getTimeline calls per widget instance-day that Smart Stack adds for stack users whatever
    /// the policy. No source shows any (a rotation shows the current entry), so 0;
    /// `analyze --emit-scenario` measures it from logs that split stacked devices from the others.
    public var smartStackReloadsPerDay: Distribution = 0
    /// Share of device-days spent in Low Power Mode.
    public var lowPowerDayShare: Distribution = .uniform(min: 0.05, max: 0.15)
    /// App opens per day among users who open the app at all.
    public var appOpensPerDay: Distribution = .triangular(min: 1, mode: 2, max: 4)
    /// Spread of app opens between users (lognormal coefficient of variation).
    public var appOpensUserSpread: Double = 0.8
    /// Users who keep the widget but never open the app (the Gemini widget report: "the day nobody opens your app").
    public var neverOpenShare: Distribution = .uniform(min: 0.1, max: 0.2)
    /// Minutes the app stays in the foreground per open.
    public var foregroundMinutes: Double = 3
    /// Local hour at which a phone goes idle for the night, when `idleHours` is above 0; policy
    /// reloads falling due while it is idle wait for its next use (each user's night is shifted
    /// by up to an hour).
    public var idleStartHour: Double = 1
    /// Hours a phone holds back policy reloads overnight. 0: no source shows such a night (a
    /// locked phone keeps reloading on expiry; WidgetKit's budget spreads reloads over the day).
    public var idleHours: Double = 0
    /// Share of users who force-quit the app from the app switcher as a habit: iOS does not
    /// launch a force-quit app for a silent push (Apple's "Pushing background updates to your
    /// App"). An uncertain assumption; Apple gives no figure.
    public var forceQuitShare: Double = 0.1
    /// Share of users who turned Background App Refresh off for the app (or for every app):
    /// iOS then never launches its BGAppRefreshTask (WWDC20 "Background execution demystified":
    /// the switch is on by default). Apple gives no figure: an uncertain assumption.
    public var backgroundRefreshOffShare: Distribution = .uniform(min: 0.05, max: 0.25)
    /// Share of users with more than one placement of the widget: Home Screen and Lock Screen,
    /// two sizes, StandBy. Each is an instance with its own budget and its own getTimeline calls
    /// (Apple's "Keeping a widget up to date"; a developer on Apple's forums logs 2–5 getTimeline
    /// calls per refresh for three placements). No published share: an uncertain assumption.
    public var multiWidgetShare: Distribution = .uniform(min: 0.3, max: 0.6)
    /// Widget instances for those users.
    public var instancesWhenMulti: Int = 2
    /// Taps a day on an interactive widget's buttons and toggles (designs with `interactive`).
    /// Each runs the App Intent and then reloads the tapped widget at once, outside the budget
    /// (an Apple engineer on Apple's forums: "one guaranteed reload that will happen
    /// immediately"). No published rate: an uncertain assumption.
    public var interactiveTapsPerDay: Distribution = .triangular(min: 0, mode: 1, max: 3)
    /// Share of users whose widget is rarely viewed: smaller budget, fewer reloads and glances.
    public var rarelyViewedShare: Double = 0.2
    /// Glances at the widget per day (a frequently viewed widget).
    public var glancesPerDay: Distribution = 12
    /// Content older than this (and than the cache TTL) counts as stale at a glance.
    public var freshnessTargetMinutes: Double = 120
    /// Where users live.
    public var timeZones: [TimeZoneShare] = [
        .init(utcOffsetHours: -8, share: 0.25), .init(utcOffsetHours: -5, share: 0.3),
        .init(utcOffsetHours: 0, share: 0.15), .init(utcOffsetHours: 1, share: 0.15),
        .init(utcOffsetHours: 9, share: 0.15),
    ]
    /// When things happen in the local day.
    public var activity = ActivityProfile()

    /// The default population.
    public init() {}

    public init(from decoder: Decoder) throws {
        let d = Population()
        let c = try decoder.container(keyedBy: CodingKeys.self)
        smartStackShare = try c.value(.smartStackShare, or: d.smartStackShare)
        smartStackRotationsPerDay = try c.value(.smartStackRotationsPerDay, or: d.smartStackRotationsPerDay)
        smartStackReloadsPerDay = try c.value(.smartStackReloadsPerDay, or: d.smartStackReloadsPerDay)
        lowPowerDayShare = try c.value(.lowPowerDayShare, or: d.lowPowerDayShare)
        appOpensPerDay = try c.value(.appOpensPerDay, or: d.appOpensPerDay)
        appOpensUserSpread = try c.value(.appOpensUserSpread, or: d.appOpensUserSpread)
        neverOpenShare = try c.value(.neverOpenShare, or: d.neverOpenShare)
        foregroundMinutes = try c.value(.foregroundMinutes, or: d.foregroundMinutes)
        idleStartHour = try c.value(.idleStartHour, or: d.idleStartHour)
        idleHours = try c.value(.idleHours, or: d.idleHours)
        forceQuitShare = try c.value(.forceQuitShare, or: d.forceQuitShare)
        backgroundRefreshOffShare = try c.value(.backgroundRefreshOffShare, or: d.backgroundRefreshOffShare)
        multiWidgetShare = try c.value(.multiWidgetShare, or: d.multiWidgetShare)
        instancesWhenMulti = try c.value(.instancesWhenMulti, or: d.instancesWhenMulti)
        interactiveTapsPerDay = try c.value(.interactiveTapsPerDay, or: d.interactiveTapsPerDay)
        rarelyViewedShare = try c.value(.rarelyViewedShare, or: d.rarelyViewedShare)
        glancesPerDay = try c.value(.glancesPerDay, or: d.glancesPerDay)
        freshnessTargetMinutes = try c.value(.freshnessTargetMinutes, or: d.freshnessTargetMinutes)
        timeZones = try c.value(.timeZones, or: d.timeZones)
        activity = try c.value(.activity, or: d.activity)
    }
}

/// What WidgetKit and BackgroundTasks do, as measured and documented.
public struct Platform: Codable, Sendable, Equatable {
    /// getTimeline calls per widget instance-day that WidgetKit makes on its own, whatever the
    /// timeline policy: the widget added or reconfigured, a restart, a locale, accessibility,
    /// account or significant time change, pages the user rarely views (Apple's "Keeping a
    /// widget up to date", WWDC21 "Principles of great widgets"). These are occasional events
    /// and Apple publishes no rate: an uncertain assumption of a
    /// few a day, its centre set with `policyLatenessMinutes` so that the Gemini widget report's
    /// direct widget under `.after(1 hour)` logs its ~30 requests a day.
    public var systemReloadsPerDay: Distribution = .triangular(min: 0, mode: 2, max: 4)
    /// Mean minutes by which WidgetKit runs a policy reload after the timeline's date (each
    /// delay exponential). Apple: the date is the earliest WidgetKit asks, and reloads come
    /// "on the order of minutes/hours, not seconds"; no figure is published: an uncertain
    /// assumption. `analyze --emit-scenario --design D` measures it from logs that reload less
    /// often than the design's policy asks.
    public var policyLatenessMinutes: Distribution = .uniform(min: 0, max: 15)
    /// Day-to-day variation of WidgetKit's own reloads (lognormal coefficient of variation).
    public var getTimelineDaySpread: Double = 0.35
    /// User-to-user variation of WidgetKit's own reloads (lognormal coefficient of variation).
    public var getTimelineUserSpread: Double = 0.2
    /// Multiplier of WidgetKit's own reloads for a rarely viewed widget.
    public var rarelyViewedReloadFactor: Double = 0.5
    /// Reload budget per instance per 24 h for a frequently viewed widget (the reload-budget notes and the timeline-model article: 40–70).
    public var reloadBudgetMin: Int = 40
    /// The upper end of that budget; each user draws one budget between the two, shared by
    /// their instances (a rarely viewed widget has `rarelyViewedBudget`).
    public var reloadBudgetMax: Int = 70
    /// Reload budget per instance per 24 h for a rarely viewed widget (the reload-budget notes: "far fewer").
    public var rarelyViewedBudget: Int = 15
    /// Reloads while the app is in the foreground do not count against the budget.
    public var foregroundReloadsExempt: Bool = true
    /// Minimum spacing between timeline entries and policy reloads (the reload-budget notes: about five minutes).
    public var minEntrySpacingMinutes: Double = 5
    /// BGAppRefreshTask earliestBeginDate (the Gemini widget report: no earlier than 4 hours).
    public var backgroundEarliestBeginHours: Double = 4
    /// Real BGAppRefreshTask launches per day (the Gemini widget report: about 1–3).
    public var backgroundRunsPerDay: Distribution = .triangular(min: 1, mode: 2, max: 3)
    /// Launch-rate multiplier on Low Power Mode days: Low Power Mode pauses Background App
    /// Refresh (Apple's Low Power Mode support article; the Gemini widget report: almost never).
    public var backgroundLowPowerFactor: Double = 0
    /// Time a background launch may run before it expires (the Gemini widget report: just under 30 s).
    public var taskSliceSeconds: Double = 29
    /// Share of silent (background) pushes iOS delivers to an app that can take them: they are
    /// low priority and their delivery is not guaranteed (Apple's "Pushing background updates to
    /// your App"). Apple gives no figure: an uncertain assumption.
    public var silentPushDeliveryShare: Distribution = .triangular(min: 0.5, mode: 0.8, max: 1)
    /// Most silent pushes a device is woken for in an hour; more are throttled (Apple: "don't
    /// try to send more than two or three per hour").
    public var silentPushesPerHour: Double = 3
    /// Most silent pushes iOS wakes this app for in a local day: the device spreads one energy
    /// and data budget for background work over the day and over every app (WWDC20 "Background
    /// execution demystified"), so an app gets a share of it. Apple gives no figure: an uncertain
    /// assumption with a wide range.
    public var silentPushesPerDay: Distribution = .triangular(min: 4, mode: 12, max: 24)
    /// Whether silent pushes reach a device in Low Power Mode (which suspends background app
    /// refresh; typically they do not).
    public var silentPushesInLowPower: Bool = false
    /// Hours a Live Activity stays active before the system ends it (Apple's "Displaying live
    /// data with Live Activities": up to eight hours; it then stays on the Lock Screen, ended,
    /// for up to four more).
    public var liveActivityMaxHours: Double = 8
    /// Priority-10 ActivityKit pushes an activity takes in an hour before the system throttles
    /// the rest (a token bucket). Apple publishes no figure ("the per user budget is not
    /// documented, and could change", an Apple engineer on the Developer Forums), only that an
    /// update every few seconds runs it out: an uncertain assumption with a wide range.
    public var liveActivityUpdatesPerHour: Distribution = .triangular(min: 4, mode: 10, max: 30)
    /// The same budget when the user allows frequent updates (`NSSupportsLiveActivitiesFrequentUpdates`):
    /// "a higher update budget" with no figure, an uncertain assumption.
    public var liveActivityFrequentUpdatesPerHour: Distribution = .triangular(min: 15, mode: 40, max: 120)
    /// Minutes after which a priority-5 ActivityKit push arrives (mean of an exponential delay):
    /// they spend no budget and "may not be delivered" at once (Apple's "Starting and updating
    /// Live Activities with ActivityKit push notifications"); no figure: an uncertain assumption.
    public var liveActivityLowPriorityDelayMinutes: Distribution = .triangular(min: 0.5, mode: 3, max: 20)

    /// The default platform.
    public init() {}

    public init(from decoder: Decoder) throws {
        let d = Platform()
        let c = try decoder.container(keyedBy: CodingKeys.self)
        systemReloadsPerDay = try c.value(.systemReloadsPerDay, or: d.systemReloadsPerDay)
        policyLatenessMinutes = try c.value(.policyLatenessMinutes, or: d.policyLatenessMinutes)
        getTimelineDaySpread = try c.value(.getTimelineDaySpread, or: d.getTimelineDaySpread)
        getTimelineUserSpread = try c.value(.getTimelineUserSpread, or: d.getTimelineUserSpread)
        rarelyViewedReloadFactor = try c.value(.rarelyViewedReloadFactor, or: d.rarelyViewedReloadFactor)
        reloadBudgetMin = try c.value(.reloadBudgetMin, or: d.reloadBudgetMin)
        reloadBudgetMax = try c.value(.reloadBudgetMax, or: d.reloadBudgetMax)
        rarelyViewedBudget = try c.value(.rarelyViewedBudget, or: d.rarelyViewedBudget)
        foregroundReloadsExempt = try c.value(.foregroundReloadsExempt, or: d.foregroundReloadsExempt)
        minEntrySpacingMinutes = try c.value(.minEntrySpacingMinutes, or: d.minEntrySpacingMinutes)
        backgroundEarliestBeginHours = try c.value(.backgroundEarliestBeginHours, or: d.backgroundEarliestBeginHours)
        backgroundRunsPerDay = try c.value(.backgroundRunsPerDay, or: d.backgroundRunsPerDay)
        backgroundLowPowerFactor = try c.value(.backgroundLowPowerFactor, or: d.backgroundLowPowerFactor)
        taskSliceSeconds = try c.value(.taskSliceSeconds, or: d.taskSliceSeconds)
        silentPushDeliveryShare = try c.value(.silentPushDeliveryShare, or: d.silentPushDeliveryShare)
        silentPushesPerHour = try c.value(.silentPushesPerHour, or: d.silentPushesPerHour)
        silentPushesPerDay = try c.value(.silentPushesPerDay, or: d.silentPushesPerDay)
        silentPushesInLowPower = try c.value(.silentPushesInLowPower, or: d.silentPushesInLowPower)
        liveActivityMaxHours = try c.value(.liveActivityMaxHours, or: d.liveActivityMaxHours)
        liveActivityUpdatesPerHour = try c.value(.liveActivityUpdatesPerHour, or: d.liveActivityUpdatesPerHour)
        liveActivityFrequentUpdatesPerHour = try c.value(.liveActivityFrequentUpdatesPerHour, or: d.liveActivityFrequentUpdatesPerHour)
        liveActivityLowPriorityDelayMinutes = try c.value(.liveActivityLowPriorityDelayMinutes, or: d.liveActivityLowPriorityDelayMinutes)
    }
}

/// A window in which the API fails (the Gemini widget report's outage).
public struct Outage: Codable, Sendable, Equatable {
    /// Day of the reported month on which the outage starts (1-based).
    public var day: Int
    /// Hour of that day (UTC) at which it starts.
    public var startHourUTC: Double
    /// How long it lasts, in hours.
    public var durationHours: Double
    /// Share of requests that fail during the outage.
    public var errorRate: Double

    /// An outage from `startHourUTC` on day `day`, `durationHours` long, failing `errorRate` of requests.
    public init(day: Int, startHourUTC: Double, durationHours: Double, errorRate: Double) {
        self.day = day
        self.startHourUTC = startHourUTC
        self.durationHours = durationHours
        self.errorRate = errorRate
    }
}

/// The paid API the widget's data comes from.
public struct APIModel: Codable, Sendable, Equatable {
    /// Seconds a successful request takes.
    public var latencySeconds: Double = 1.5
    /// URLRequest.timeoutInterval (the Gemini widget report: 10 s instead of the 60 s default).
    public var timeoutSeconds: Double = 10
    /// Probability that a request fails outside outages.
    public var failureProbability: Distribution = .uniform(min: 0.005, max: 0.02)
    /// Share of failures that hang until the timeout instead of failing fast.
    public var hangShareOfFailures: Double = 0.3
    /// Outage windows.
    public var outages: [Outage] = [Outage(day: 12, startHourUTC: 15, durationHours: 3, errorRate: 0.95)]
    /// Prompt tokens per request (a short fixed prompt).
    public var inputTokensPerRequest: Distribution = 25
    /// Output tokens per request (the Gemini widget report: maxOutputTokens 80).
    public var outputTokensPerRequest: Distribution = .triangular(min: 20, mode: 40, max: 80)
    /// How often the underlying data changes per day: per user for `perUser` pushes, per content
    /// key for broadcast pushes and backends that regenerate on each change.
    public var dataChangesPerDay: Distribution = 1
    /// The model whose price is used.
    public var model: String = "gemini-2.5-flash"
    /// How the API bills: per token at `model`'s price (nil, the default), or per request or
    /// credit with free allowances and plans.
    public var pricing: APIPricing?
    /// A bundled catalogue entry (`weatherkit`, `twelve-data`…) whose pricing and plans the
    /// scenario takes, unless it gives `pricing` or `quotas.tiers` of its own.
    public var catalogue: String?

    /// The default API.
    public init() {}

    public init(from decoder: Decoder) throws {
        let d = APIModel()
        let c = try decoder.container(keyedBy: CodingKeys.self)
        latencySeconds = try c.value(.latencySeconds, or: d.latencySeconds)
        timeoutSeconds = try c.value(.timeoutSeconds, or: d.timeoutSeconds)
        failureProbability = try c.value(.failureProbability, or: d.failureProbability)
        hangShareOfFailures = try c.value(.hangShareOfFailures, or: d.hangShareOfFailures)
        outages = try c.value(.outages, or: d.outages)
        inputTokensPerRequest = try c.value(.inputTokensPerRequest, or: d.inputTokensPerRequest)
        outputTokensPerRequest = try c.value(.outputTokensPerRequest, or: d.outputTokensPerRequest)
        dataChangesPerDay = try c.value(.dataChangesPerDay, or: d.dataChangesPerDay)
        model = try c.value(.model, or: d.model)
        pricing = try c.decodeIfPresent(APIPricing.self, forKey: .pricing)
        catalogue = try c.decodeIfPresent(String.self, forKey: .catalogue)
    }

    /// Billed per token at the price table's price for `model`.
    package var pricedPerToken: Bool { (pricing?.per ?? .token) == .token }
}

/// Provenance of values measured by `analyze` and written with `--emit-scenario`.
public struct Calibration: Codable, Sendable, Equatable {
    /// Scenario fields (dotted paths) whose values were measured.
    public var fields: [String]
    /// What was analysed: devices, device-days, files.
    public var source: String
    /// The design the logged app was taken to run, when the getTimeline rate was corrected for
    /// what its logs cannot show (`analyze --design`).
    public var design: String?
    /// getTimeline calls the logs show per call the system offered, simulated under `design`
    /// (below 1: the reload budget dropped calls; above 1: Apple logs counted the design's own reloads).
    public var getTimelineLoggedShare: Double?
    /// What a reader of the calibration should know.
    public var notes: [String]

    /// A calibration of `fields` from `source`.
    public init(fields: [String], source: String, design: String? = nil, getTimelineLoggedShare: Double? = nil, notes: [String] = []) {
        self.fields = fields
        self.source = source
        self.design = design
        self.getTimelineLoggedShare = getTimelineLoggedShare
        self.notes = notes
    }

    enum CodingKeys: String, CodingKey { case fields, source, design, getTimelineLoggedShare, notes }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        fields = try c.decode([String].self, forKey: .fields)
        source = try c.decode(String.self, forKey: .source)
        design = try c.decodeIfPresent(String.self, forKey: .design)
        getTimelineLoggedShare = try c.decodeIfPresent(Double.self, forKey: .getTimelineLoggedShare)
        notes = try c.decodeIfPresent([String].self, forKey: .notes) ?? []
    }
}
