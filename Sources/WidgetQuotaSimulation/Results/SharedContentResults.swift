import Foundation
import WidgetQuotaModel
import WidgetQuotaSupport

extension DesignResult {
    /// A backend design's own figures: the design's requests, cost, load and tiers are its paid
    /// API requests (per content key); these are the devices' fetches, which the owner's
    /// backend or CDN serves.
    public struct BackendLoad: Codable, Sendable {
        /// When the backend calls the paid API: `onChange`, `every(30)`, `afterTTL`, or a schedule
        /// by popularity, `every(5), the top 100 keys every(1)`.
        public var regenerate: String
        /// Content keys the scenario lists (cities, teams, symbols).
        public var contentKeys: Int
        /// Keys at least one of the users follows (expected).
        public var followedKeys: Double
        /// Paid requests per followed key in the month (mean over runs).
        public var paidRequestsPerKeyMonth: Double
        /// Device requests the backend serves in a day, across runs.
        public var requestsPerDay: RunSpread
        /// Device requests in the busiest minute, across runs.
        public var peakRequestsPerMinute: RunSpread
        /// Mean device requests per minute over the month.
        public var meanRequestsPerMinute: Double
        /// USD a month at the design's price per million backend requests (nil: not priced).
        public var costPerMonth: Double?
        /// The oldest the backend's answer can be when a device fetches it.
        public var generationLagMinutes: Double

        package init(
            regenerate: String, contentKeys: Int, followedKeys: Double, paidRequestsPerKeyMonth: Double, requestsPerDay: RunSpread,
            peakRequestsPerMinute: RunSpread, meanRequestsPerMinute: Double, costPerMonth: Double?, generationLagMinutes: Double
        ) {
            self.regenerate = regenerate
            self.contentKeys = contentKeys
            self.followedKeys = followedKeys
            self.paidRequestsPerKeyMonth = paidRequestsPerKeyMonth
            self.requestsPerDay = requestsPerDay
            self.peakRequestsPerMinute = peakRequestsPerMinute
            self.meanRequestsPerMinute = meanRequestsPerMinute
            self.costPerMonth = costPerMonth
            self.generationLagMinutes = generationLagMinutes
        }
    }

    /// What happened to a design's silent pushes.
    public struct Pushes: Codable, Sendable {
        /// `perUser` or `broadcast`.
        public var scope: String
        /// Pushes sent per user-day.
        public var sentPerUserDay: Double
        /// The share iOS delivered (force-quit apps, Low Power Mode, the hourly throttle and the
        /// delivery share take the rest).
        public var deliveredShare: Double
        /// WidgetKit push notifications per user-day, each reloading the widget's timelines (0:
        /// the design uses none).
        public var widgetPushesPerUserDay: Double

        package init(scope: String, sentPerUserDay: Double, deliveredShare: Double, widgetPushesPerUserDay: Double = 0) {
            self.scope = scope
            self.sentPerUserDay = sentPerUserDay
            self.deliveredShare = deliveredShare
            self.widgetPushesPerUserDay = widgetPushesPerUserDay
        }
    }

    /// What users saw during live events (the calendar's windows of data changes: a match), at
    /// their widget or at the design's Live Activity.
    public struct LiveEvents: Codable, Sendable {
        /// Glances per user-day that fall in a live event.
        public var glancesPerUserDay: Double
        /// The share of those glances that miss a change of the key made at least a minute before.
        public var behindShare: Double
        /// The design's Live Activity (nil: it has none).
        public var activity: Activity?

        package init(glancesPerUserDay: Double, behindShare: Double, activity: Activity?) {
            self.glancesPerUserDay = glancesPerUserDay
            self.behindShare = behindShare
            self.activity = activity
        }
    }

    /// A design's Live Activities: how many, the ActivityKit pushes that update them, and what they show.
    public struct Activity: Codable, Sendable {
        /// `priority 10, one push per change to a channel, ...`.
        public var updates: String
        /// Activities started per user-day.
        public var perUserDay: Double
        /// ActivityKit pushes that reach a device's activity per user-day (sent to the device).
        public var pushesPerUserDay: Double
        /// The share of those pushes the update budget throttled (0 at priority 5).
        public var throttledShare: Double
        /// Pushes the backend sends a day for the population: one per change of each followed
        /// key with a channel, one per device and change without.
        public var backendPushesPerDay: Double
        /// The share of glances at an activity that miss a change made at least a minute before.
        public var behindShare: Double

        package init(
            updates: String, perUserDay: Double, pushesPerUserDay: Double, throttledShare: Double, backendPushesPerDay: Double,
            behindShare: Double
        ) {
            self.updates = updates
            self.perUserDay = perUserDay
            self.pushesPerUserDay = pushesPerUserDay
            self.throttledShare = throttledShare
            self.backendPushesPerDay = backendPushesPerDay
            self.behindShare = behindShare
        }
    }

    /// One calendar event's UTC day: its paid requests, cost, busiest minute and the tier it needs.
    public struct EventDay: Codable, Sendable {
        /// The event's name.
        public var event: String
        /// The day (1-based) it falls on.
        public var day: Int
        /// Paid API requests that day, across runs.
        public var requests: RunSpread
        /// Mean USD that day (nil when the model has no price).
        public var cost: Double?
        /// Paid requests in that day's busiest minute, across runs.
        public var peakRequestsPerMinute: RunSpread
        /// Tokens in that minute (mean over runs).
        public var peakTokensPerMinute: Double
        /// Paid requests in that day's busiest UTC clock hour, across runs (held against a tier's `rph`).
        public var peakRequestsPerHour: RunSpread?
        /// The cheapest tier whose per-minute, per-hour and per-day limits that day breaks in at
        /// most the acceptable share of runs (nil: none of the listed tiers).
        public var requiredTier: String?
        /// True when the scenario lists tiers and that day breaks every one.
        public var exceedsEveryTier: Bool
        /// A backend design's device requests in that day's busiest minute (what its servers carry).
        public var backendPeakRequestsPerMinute: RunSpread?

        package init(
            event: String, day: Int, requests: RunSpread, cost: Double?, peakRequestsPerMinute: RunSpread, peakTokensPerMinute: Double,
            requiredTier: String?, exceedsEveryTier: Bool, backendPeakRequestsPerMinute: RunSpread?
        ) {
            self.event = event
            self.day = day
            self.requests = requests
            self.cost = cost
            self.peakRequestsPerMinute = peakRequestsPerMinute
            self.peakTokensPerMinute = peakTokensPerMinute
            self.requiredTier = requiredTier
            self.exceedsEveryTier = exceedsEveryTier
            self.backendPeakRequestsPerMinute = backendPeakRequestsPerMinute
        }
    }
}

/// One event day's figures over the runs, for one design and population.
struct EventDayAcrossRuns {
    var totals: [Double] = []
    var peaks: [Double] = []
    var hourPeaks: [Double] = []
    var tokens: [Double] = []
    var costs: [Double] = []
    var backendPeaks: [Double] = []

    /// Adds a run: its event-day requests, busiest minute and clock hour, tokens per request, and
    /// the run's cost per request.
    mutating func add(
        total: Double, peak: Double, hourPeak: Double, tokensPerRequest: Double, costPerRequest: Double?, backendPeak: Double?
    ) {
        totals.append(total)
        peaks.append(peak)
        hourPeaks.append(hourPeak)
        tokens.append(tokensPerRequest)
        if let costPerRequest { costs.append(total * costPerRequest) }
        if let backendPeak { backendPeaks.append(backendPeak) }
    }

    func result(event: CalendarEvent, tiers: [QuotaTier], allowedBreakingRuns: Int) -> DesignResult.EventDay {
        let required = tiers.first { tier in
            let breaking = totals.indices.filter { r in
                tier.isExceeded(.init(perMinute: peaks[r], perHour: hourPeaks[r], quotaDay: totals[r]), tokensPerRequest: tokens[r])
            }.count
            return breaking <= allowedBreakingRuns
        }
        var day = DesignResult.EventDay(
            event: event.name, day: event.day, requests: RunSpread(totals), cost: costs.isEmpty ? nil : Statistics.mean(costs),
            peakRequestsPerMinute: RunSpread(peaks), peakTokensPerMinute: Statistics.mean(zip(peaks, tokens).map { $0 * $1 }),
            requiredTier: required?.name, exceedsEveryTier: required == nil && !tiers.isEmpty,
            backendPeakRequestsPerMinute: backendPeaks.isEmpty ? nil : RunSpread(backendPeaks))
        day.peakRequestsPerHour = hourPeaks.isEmpty ? nil : RunSpread(hourPeaks)
        return day
    }
}
