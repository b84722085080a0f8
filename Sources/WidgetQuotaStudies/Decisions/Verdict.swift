import Foundation
import WidgetQuotaModel
import WidgetQuotaSimulation
import WidgetQuotaSupport

/// The answer for one design at one population: the tier needed, the limit that decides it and
/// when, the cost a month, what a user sees at a glance, and one sentence of advice.
///
/// Part of `report.json` (`verdicts`); every figure is read from the simulation result, and the
/// tier without the outage from the same runs' loads on ordinary days (every minute an outage or
/// its recovery disturbs at the same minute's mean over the other days).
public struct Verdict: Codable, Sendable, Equatable {
    /// The design.
    public var design: String
    /// The population.
    public var users: Int
    /// The cheapest tier with at most the acceptable risk of hitting a limit; nil when none is enough.
    public var tier: String?
    /// True when the scenario lists tiers and none of them is enough.
    public var exceedsEveryTier: Bool
    /// The tier whose limit decides: the one just below `tier` (its limit is broken), the cheapest
    /// tier when it is enough (its tightest limit holds), or the last tier when none is enough.
    public var decidingTier: String?
    /// `requestsPerMinute`, `tokensPerMinute`, `requestsPerHour`, `requestsPerDay` or
    /// `requestsPerMonth` (a plan's included volume, where it bills no overage).
    public var decidingLimit: String?
    /// The population's peak against that limit, p95 across runs: requests in the busiest minute,
    /// tokens in the busiest minute, requests in the busiest clock hour, requests in the busiest
    /// quota day, or the month's billed requests or credits.
    public var decidingValue: Double?
    /// The deciding tier's limit.
    public var limitValue: Double?
    /// Share of runs in which the population broke that limit.
    public var exceedProbability: Double?
    /// Whether the deciding limit holds (the cheapest tier is enough) or is broken.
    public var limitHolds: Bool
    /// What sets the tier: `outage` (the tier is higher with the outage than without it),
    /// `busiestMinute`, `busiestHour`, `busiestQuotaDay`, `monthlyVolume`, or `noTiers`.
    public var cause: String
    /// For a daily limit: the quota day (1-based) that was busiest most often.
    public var busiestQuotaDay: Int?
    /// For a per-minute limit: the UTC minute of a typical day with the most requests (0–1439).
    public var typicalPeakMinuteUTC: Int?
    /// The tier needed on ordinary days, the outages' minutes at the other days' mean (nil: the
    /// scenario has none, it was not compared, or no tier is enough then either; see
    /// `exceedsEveryTierWithoutOutage`).
    public var tierWithoutOutage: String?
    /// True when the scenario lists tiers and none is enough even without the outages.
    public var exceedsEveryTierWithoutOutage: Bool?
    /// The deciding limit's peak without the outages (p95 across runs).
    public var decidingValueWithoutOutage: Double?
    /// Mean cost a month (nil when the model has no price).
    public var costPerMonth: Double?
    /// The budget (`targets.maxCostPerMonth`; nil: none).
    public var maxCostPerMonth: Double?
    /// Whether the mean cost is within the budget (nil without a budget, or when the model has no price).
    public var withinBudget: Bool?
    /// Share of glances at content older than the freshness target, or at none (of the glances
    /// in the calendar's open hours when it has them: `Freshness.targetShare`).
    public var overTargetShare: Double
    /// The median age of the content at a glance, in minutes (over the same glances as
    /// `overTargetShare`: `Freshness.targetMedianAgeMinutes`).
    public var medianAgeMinutes: Double?
    /// The deciding limit and when, in words.
    public var reason: String
    /// One sentence of advice derived from the figures above.
    public var advice: String
}

/// Derives the verdicts from a result and, when the scenario has outages, the same scenario
/// simulated without them.
package struct VerdictBuilder {
    let result: SimulationResult
    let withoutOutages: SimulationResult?

    /// Verdicts in the unit the tiers' limits are written in: for an API billed per credit, the
    /// per-minute and per-day peaks become credits, as its limits are.
    package init(result: SimulationResult, withoutOutages: SimulationResult?) {
        let scenario = result.scenario
        // A backend design's paid request asks for one key; a device's fetch for every key its
        // user follows, unless the design sends a request per key.
        let designs = Dictionary(scenario.availableDesigns.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let credits = { (r: DesignResult) -> Double in
            if let design = designs[r.design] { return scenario.unitsPerRequest(of: design) }
            return scenario.api.pricing.map { $0.unitsPerRequest(keys: r.backend == nil ? scenario.content.meanKeysPerUser : 1) } ?? 1
        }
        self.result = result.withLoadsScaled(by: credits)
        self.withoutOutages = withoutOutages?.withLoadsScaled(by: credits)
        noun = result.scenario.api.pricing?.per == .credit ? "credits" : "requests"
    }

    /// What the per-minute and per-day limits count: `requests` or `credits`.
    let noun: String

    enum Limit: String, CaseIterable {
        case requestsPerMinute, tokensPerMinute, requestsPerHour, requestsPerDay, requestsPerMonth

        /// The verdict's `cause` when this limit decides and no outage does.
        var busiestCause: String {
            switch self {
            case .requestsPerDay: "busiestQuotaDay"
            case .requestsPerHour: "busiestHour"
            case .requestsPerMonth: "monthlyVolume"
            case .requestsPerMinute, .tokensPerMinute: "busiestMinute"
            }
        }

        /// `requests a minute`, as a limit's unit reads after its number, with `noun` for what
        /// the request limits count.
        func unit(_ noun: String) -> String {
            switch self {
            case .requestsPerMinute: "\(noun) a minute"
            case .tokensPerMinute: "tokens a minute"
            case .requestsPerHour: "\(noun) an hour"
            case .requestsPerMonth: "\(noun) a month"
            case .requestsPerDay: "\(noun) a day"
            }
        }
    }

    var tiers: [QuotaTier] { result.scenario.quotas.tiers }
    var runs: Int { result.method.runs }

    /// One verdict per result row, in the result's order.
    package func all() -> [Verdict] {
        let budget = result.scenario.targets.maxCostPerMonth
        return result.results.map { r in
            var v = verdict(r)
            v.maxCostPerMonth = budget
            if let budget, let cost = v.costPerMonth { v.withinBudget = cost <= budget }
            return v
        }
    }

    func peak(_ r: DesignResult, _ limit: Limit) -> Double {
        switch limit {
        case .requestsPerMinute: r.load.peakRequestsPerMinute.p95
        case .tokensPerMinute: r.load.peakTokensPerMinute.p95
        case .requestsPerHour: r.load.peakRequestsPerHour?.p95 ?? 0
        case .requestsPerDay: r.load.peakRequestsPerQuotaDay.p95
        case .requestsPerMonth: monthlyUnits(r).p95
        }
    }

    /// The month's billed requests or credits across runs: the cost's when the row has one, else
    /// (no plan carries the month) the p95 a capped tier's use of its volume gives.
    func monthlyUnits(_ r: DesignResult) -> RunSpread {
        if let units = r.cost?.unitsPerMonth { return units }
        for outcome in r.quota {
            if let tier = tiers.first(where: { $0.name == outcome.tier }), let cap = value(tier, .requestsPerMonth),
                let use = outcome.monthlyVolumeUtilizationP95
            {
                return RunSpread([use * cap])
            }
        }
        return RunSpread([0])
    }

    /// The tier's value of `limit`; a month's is what a plan that bills no overage includes.
    func value(_ tier: QuotaTier, _ limit: Limit) -> Double? {
        switch limit {
        case .requestsPerMinute: tier.rpm
        case .tokensPerMinute: tier.tpm
        case .requestsPerHour: tier.rph
        case .requestsPerMonth: result.scenario.api.pricing?.monthlyCap(of: tier)
        case .requestsPerDay: tier.rpd
        }
    }

    static func probability(_ r: DesignResult, tier: String, _ limit: Limit) -> Double {
        guard let o = r.quota.first(where: { $0.tier == tier }) else { return 0 }
        switch limit {
        case .requestsPerMinute: return o.rpmExceedProbability
        case .tokensPerMinute: return o.tpmExceedProbability
        case .requestsPerHour: return o.rphExceedProbability ?? 0
        case .requestsPerMonth: return o.monthlyVolumeExceedProbability ?? 0
        case .requestsPerDay: return o.rpdExceedProbability
        }
    }

    /// The limit of `tier` that decides for `r`: the one broken in most runs, then the one
    /// nearest to (or furthest past) its value; nil when the tier publishes no limit.
    func decidingLimit(of tier: QuotaTier, for r: DesignResult) -> Limit? {
        let published = Limit.allCases.filter { value(tier, $0) != nil }
        func key(_ l: Limit) -> (Double, Double) {
            // A plan may include no volume at all: any use is infinitely past it.
            let limit = value(tier, l)!
            let peak = peak(r, l)
            return (Self.probability(r, tier: tier.name, l), limit > 0 ? peak / limit : (peak > 0 ? .infinity : 0))
        }
        // Ties keep the order per minute, tokens, per hour, per day, per month (the first maximum wins).
        return published.reduce(nil as Limit?) { best, l in
            guard let b = best else { return l }
            return key(l) > key(b) ? l : b
        }
    }

    /// The position of a row's tier among the tiers, the count when none is enough.
    func rank(_ r: DesignResult) -> Int { r.requiredTier.flatMap { t in tiers.firstIndex { $0.name == t } } ?? tiers.count }

    func verdict(_ r: DesignResult) -> Verdict {
        var v = Verdict(
            design: r.design, users: r.users, tier: r.requiredTier, exceedsEveryTier: r.exceedsEveryTier,
            limitHolds: true, cause: "noTiers", costPerMonth: r.cost?.perMonth.mean,
            overTargetShare: r.freshness.targetShare, medianAgeMinutes: r.freshness.targetMedianAgeMinutes,
            reason: result.scenario.quotas.missingTiersReason(model: result.scenario.api.model)
                ?? "The scenario lists no quota tiers to check.",
            advice: "List your provider's tiers under `quotas.tiers` to see which one this needs.")
        guard !tiers.isEmpty else { return v }
        let i = rank(r)
        let deciding = i == 0 ? tiers[0] : tiers[i - 1]
        let calm = withoutOutages?.results.first { $0.design == r.design && $0.users == r.users }
        if let calm {
            v.tierWithoutOutage = calm.requiredTier
            v.exceedsEveryTierWithoutOutage = calm.exceedsEveryTier
        }
        let outageRaises = calm.map { rank(r) > rank($0) } ?? false
        guard let limit = decidingLimit(of: deciding, for: r), let limitValue = value(deciding, limit) else {
            v.cause = "noTiers"
            v.reason = "\(deciding.name) publishes no limits to check."
            return v
        }
        v.decidingTier = deciding.name
        v.decidingLimit = limit.rawValue
        v.decidingValue = peak(r, limit)
        v.limitValue = limitValue
        v.exceedProbability = Self.probability(r, tier: deciding.name, limit)
        v.limitHolds = i == 0
        v.decidingValueWithoutOutage = calm.map { peak($0, limit) }
        v.cause = outageRaises ? "outage" : limit.busiestCause
        switch limit {
        case .requestsPerDay: v.busiestQuotaDay = r.load.busiestQuotaDay
        case .requestsPerMinute, .tokensPerMinute: v.typicalPeakMinuteUTC = typicalPeakMinute(r.design)
        case .requestsPerHour, .requestsPerMonth: break
        }
        v.reason = reason(v, r, limit: limit, calm: calm)
        v.advice = advice(v, r, limit: limit, calm: calm)
        if let earned = qualificationText(r) { v.advice += (v.advice.isEmpty ? "" : " ") + earned }
        return v
    }

    /// The UTC hour (0–23) of a typical day with the most requests per user.
    func typicalPeakHour(_ design: String) -> Int? {
        guard let hours = result.typicalDay.first(where: { $0.design == design })?.requestsPerUserPerMinuteByHour, !hours.isEmpty else {
            return nil
        }
        return hours.indices.max { hours[$0] != hours[$1] ? hours[$0] < hours[$1] : $0 > $1 }
    }

    /// The UTC minute of a typical day with the most requests per user.
    func typicalPeakMinute(_ design: String) -> Int? {
        guard let minutes = result.typicalDay.first(where: { $0.design == design })?.requestsPerUserByMinute, !minutes.isEmpty else {
            return nil
        }
        return minutes.indices.max { minutes[$0] != minutes[$1] ? minutes[$0] < minutes[$1] : $0 > $1 }
    }

    // MARK: Words

    /// `tier1`, or `above tier3` when no tier is enough.
    package func tierText(_ tier: String?) -> String { tier ?? "above " + (tiers.last?.name ?? "every tier") }

    /// `in 19 of 20 runs`, `in every run`, `in no run`.
    func runsText(_ p: Double) -> String {
        let k = Int((p * Double(runs)).rounded())
        return k == runs ? "in all \(runs) runs" : (k == 0 ? "in none of the \(runs) runs" : "in \(k) of \(runs) runs")
    }

    /// `the outage on day 12, 15:00–18:00 UTC`, or `the outages` when there are several.
    package var outageText: String {
        let outages = result.scenario.api.outages
        guard outages.count == 1, let o = outages.first else { return "the outages" }
        return "the outage on day \(o.day), \(ReportFormat.clock(minutes: o.startHourUTC * 60))–"
            + "\(ReportFormat.clock(minutes: (o.startHourUTC + o.durationHours) * 60)) UTC"
    }

    /// The 1-based quota day each outage starts in (the quota's day starts at its reset hour).
    var outageQuotaDays: Set<Int> {
        let reset = Int((-result.scenario.quotas.resetUTCOffsetHours * 60).rounded())
        let start = ((reset % 1_440) + 1_440) % 1_440
        return Set(
            result.scenario.api.outages.map { o in
                let minute = (o.day - 1) * 1_440 + Int((o.startHourUTC * 60).rounded())
                return Int((Double(minute - start) / 1_440).rounded(.down)) + 1
            })
    }

    /// What the peak is, and when: `the busiest minute (a typical day peaks at 17:00 UTC)`;
    /// `when` false leaves out the time of day.
    func peakText(_ v: Verdict, _ limit: Limit, when: Bool = true) -> String {
        switch limit {
        case .requestsPerDay:
            if result.scenario.quotas.dayWindow == .rolling24h {
                guard when, let day = v.busiestQuotaDay else { return "the busiest 24 hours" }
                return "the busiest 24 hours (most often from day \(day))"
            }
            guard when, let day = v.busiestQuotaDay else { return "the busiest quota day" }
            let outageDay = outageQuotaDays.contains(day) && outageDecides(v) ? ", the outage's" : ""
            return "the busiest quota day (most often day \(day)\(outageDay))"
        case .requestsPerHour:
            guard when, let hour = typicalPeakHour(v.design) else { return "the busiest clock hour" }
            return "the busiest clock hour (a typical day's is \(ReportFormat.clock(minutes: Double(hour * 60)))–"
                + "\(ReportFormat.clock(minutes: Double((hour + 1) % 24 * 60))) UTC)"
        case .requestsPerMonth:
            return "the month's total"
        case .requestsPerMinute, .tokensPerMinute:
            let noun = limit == .tokensPerMinute ? "the tokens of the busiest minute" : "the busiest minute"
            if when, broadcastDecides(v) {
                let window = NumberText.plain(result.scenario.content.deliveryWindowSeconds)
                return noun + " (a broadcast push: every device of a content key fetches within \(window) s of a change)"
            }
            guard when, let minute = v.typicalPeakMinuteUTC else { return noun }
            return noun + " (a typical day peaks at \(ReportFormat.clock(minutes: Double(minute))) UTC)"
        }
    }

    /// When the tier needed is earned rather than chosen (so much paid, so many days after the
    /// first payment) and this design's spend would not have it from the launch's first day: from
    /// which day it could, and that the days before need the tier below.
    func qualificationText(_ r: DesignResult) -> String? {
        guard let name = r.requiredTier, let tier = tiers.first(where: { $0.name == name }), let q = tier.qualification,
            let cost = r.cost?.perMonth.mean, cost > 0
        else { return nil }
        let perDay = cost / Double(result.scenario.horizon.days)
        let spendDays = Int((q.minimumSpend / perDay).rounded(.up))
        let day = max(spendDays, q.daysSinceFirstPayment)
        guard day >= 2 else { return nil }
        let terms =
            ReportFormat.money(q.minimumSpend) + " paid"
            + (q.daysSinceFirstPayment > 0 ? " and \(q.daysSinceFirstPayment) days since the first payment" : "")
        return
            "\(name) is earned, not chosen (\(terms)): at \(ReportFormat.money(perDay)) a day this design could have it from about day \(day) "
            + "of paid use, so plan the days before on the tier below."
    }

    /// True when the design sends broadcast pushes and its busiest minute stands far above its
    /// mean (five times or more): synchronised load, as an aligned poll's :00 is.
    func broadcastDecides(_ v: Verdict) -> Bool {
        guard let design = result.scenario.availableDesigns.first(where: { $0.name == v.design }),
            design.pushes == .broadcast, design.sendsPushes, design.backend == nil,
            let r = result.results.first(where: { $0.design == v.design && $0.users == v.users })
        else { return false }
        return r.load.peakToMeanRatio >= 5
    }

    /// True when removing the outages moves the verdict's deciding peak by more than the
    /// Monte-Carlo noise (half the p5–p95 range of that peak across runs): only then is the
    /// outage named as what decides it.
    func outageDecides(_ v: Verdict) -> Bool {
        guard let value = v.decidingValue, let calm = v.decidingValueWithoutOutage,
            let r = result.results.first(where: { $0.design == v.design && $0.users == v.users }),
            let limit = v.decidingLimit.flatMap(Limit.init(rawValue:))
        else { return false }
        let spread = spread(r, limit)
        return value - calm > (spread.p95 - spread.p5) / 2
    }

    func spread(_ r: DesignResult, _ limit: Limit) -> RunSpread {
        switch limit {
        case .requestsPerMinute: r.load.peakRequestsPerMinute
        case .tokensPerMinute: r.load.peakTokensPerMinute
        case .requestsPerHour: r.load.peakRequestsPerHour ?? RunSpread([0])
        case .requestsPerDay: r.load.peakRequestsPerQuotaDay
        case .requestsPerMonth: monthlyUnits(r)
        }
    }

    /// How the loads without the outages are measured, for the reports' method notes.
    package static let ordinaryDaysText =
        "every minute of the outage and the 6 hours after it at the same minute's mean over the other days (the simulation runs once)"

    /// An outage changes a peak noticeably when the peak without it is at most this share of the peak with it.
    static let noticeableOutageShare = 0.9

    func reason(_ v: Verdict, _ r: DesignResult, limit: Limit, calm: DesignResult?) -> String {
        let tier = v.decidingTier ?? ""
        let value = v.decidingValue ?? 0
        let limitValue = v.limitValue ?? 0
        let limitText = "\(tier)'s \(ReportFormat.whole(limitValue)) \(limit.unit(noun))"
        if v.limitHolds {
            return
                "\(tier) is enough: \(peakText(v, limit, when: false)) reaches \(ReportFormat.whole(value)) of its \(ReportFormat.whole(limitValue)) "
                + "\(limit.unit(noun)), its closest limit."
        }
        if v.cause == "outage", let calm {
            var text =
                "\(limitText) are exceeded \(runsText(v.exceedProbability ?? 0)) because of \(outageText): with it "
                + "\(peakText(v, limit, when: false)) reaches \(ReportFormat.whole(value))"
            if limit == .requestsPerMinute, let storm = r.outage?.peakAfterOutagePerMinute.p95, storm > limitValue {
                text += " (the retry storm in the hour after it alone \(ReportFormat.whole(storm)))"
            }
            return text + "; without it, \(peakText(v, limit, when: false)) is \(ReportFormat.whole(peak(calm, limit))) "
                + "and \(tierText(calm.requiredTier)) holds."
        }
        var text =
            "\(limitText) are exceeded \(runsText(v.exceedProbability ?? 0)): \(peakText(v, limit)) reaches \(ReportFormat.whole(value))"
        if let calmValue = v.decidingValueWithoutOutage, calmValue <= Self.noticeableOutageShare * value {
            text += " (\(ReportFormat.whole(calmValue)) without the outage)"
        }
        if let oversized = oversizedRequestText(r, limit: limit, limitValue: limitValue) { text += "; " + oversized }
        return text + "."
    }

    /// Why a per-minute credit limit breaks below the busiest minute's mean credits: one request
    /// of the longest watchlist costs more than the minute allows (nil when none does).
    func oversizedRequestText(_ r: DesignResult, limit: Limit, limitValue: Double) -> String? {
        let s = result.scenario
        guard limit == .requestsPerMinute, s.content.keysPerUserMix != nil, let perKey = s.api.pricing?.creditsPerKey,
            s.api.pricing?.per == .credit,
            let design = s.availableDesigns.first(where: { $0.name == r.design }), design.backend == nil, !design.requestPerKey
        else { return nil }
        let most = Double(s.content.maxKeysPerUser) * perKey
        guard most > limitValue else { return nil }
        return "one request for the longest watchlist (\(s.content.maxKeysPerUser) keys) costs \(ReportFormat.whole(most)) credits, "
            + "more than the minute allows, whatever the others send"
    }

    /// A cheaper tier is within reach when its limit needs at most this share fewer requests.
    static let withinReach = 0.25

    func advice(_ v: Verdict, _ r: DesignResult, limit: Limit, calm: DesignResult?) -> String {
        let value = v.decidingValue ?? 0
        let limitValue = v.limitValue ?? 1
        let last = tiers.last?.name ?? ""
        if v.cause == "outage", let calm {
            let keep = tierText(calm.requiredTier)
            // A design that retries at once spreads its retries; one that waits for its next
            // trigger spreads the catch-up of the fetches that failed.
            let spread: String
            switch result.scenario.availableDesigns.first(where: { $0.name == r.design })?.retry {
            case .backoff(_, _, jitter: false):
                spread = "add jitter to the backoff of the retries after an outage"
            case .backoff(_, _, jitter: true):
                spread = "space the retries after an outage further apart, or retry fewer times"
            default:
                spread =
                    "spread the catch-up after an outage (a random delay before the first fetch after a failed one, as the devices "
                    + "that failed all fetch again at their next trigger)"
            }
            if r.requiredTier == nil {
                return
                    "No published tier absorbs the outage, though \(keep) is enough on ordinary days: \(spread) "
                    + "to stay under \(ReportFormat.whole(limitValue)) \(limit.unit(noun)), or agree a higher limit with the provider."
            }
            return "The outage costs a tier: \(keep) is enough on ordinary days. To keep it, \(spread); "
                + "otherwise plan for \(tierText(r.requiredTier))."
        }
        if r.requiredTier == nil {
            let peak =
                switch limit {
                case .requestsPerDay: "the busiest quota day"
                case .requestsPerHour: "the busiest clock hour"
                case .requestsPerMonth: "the month's total"
                case .tokensPerMinute: "the busiest minute's tokens"
                case .requestsPerMinute: "the busiest minute"
                }
            var text =
                "No published tier is enough: \(peak) \(limit == .tokensPerMinute ? "are" : "is") \(NumberText.human(value / limitValue))× "
                + "\(last)'s \(ReportFormat.whole(limitValue)) \(limit.unit(noun)); talk to the provider about a higher limit, or change the design"
            let fitting = result.results.filter { $0.users == r.users && $0.design != r.design && $0.requiredTier != nil }
            if let alt = fitting.min(by: {
                $0.freshness.targetShare != $1.freshness.targetShare
                    ? $0.freshness.targetShare < $1.freshness.targetShare : $0.design < $1.design
            }) {
                text += " (\(alt.design) needs \(tierText(alt.requiredTier)) here"
                if let cost = alt.cost?.perMonth.mean { text += " at \(ReportFormat.money(cost)) a month" }
                text +=
                    ", with content older than the target or none at \(NumberText.percent(alt.freshness.targetShare, digits: 0)) of \(alt.freshness.targetGlances))"
            }
            return text + "."
        }
        if !v.limitHolds, let cheaper = v.decidingTier {
            let cut = 1 - limitValue / value
            if cut > 0 && cut <= Self.withinReach {
                let when =
                    switch limit {
                    case .requestsPerDay: "on the busiest day"
                    case .requestsPerHour: "in the busiest hour"
                    case .requestsPerMonth: "in the month"
                    case .requestsPerMinute, .tokensPerMinute: "in the busiest minute"
                    }
                return
                    "Within reach of \(cheaper): \(NumberText.percent(cut, digits: 0)) fewer \(limit == .tokensPerMinute ? "tokens" : noun) \(when) would fit it."
            }
        }
        guard let tier = r.requiredTier, let h = result.headroom.first(where: { $0.design == r.design && $0.tier == tier }) else {
            return ""
        }
        let next = tiers.firstIndex { $0.name == tier }.flatMap { $0 + 1 < tiers.count ? tiers[$0 + 1].name : nil }
        guard let most = h.maxUsers else {
            return "\(tier) holds beyond \(ReportFormat.users(h.largestPopulationSearched)) users, the most searched."
        }
        return "\(tier) holds up to \(ReportFormat.users(most)) users; beyond that "
            + (next.map { "plan for \($0)." } ?? "no published tier is enough.")
    }
}

extension SimulationResult {
    /// The same result with each design's per-minute, per-hour and per-day request peaks multiplied by its
    /// factor (credits per request), for verdicts against limits written in credits.
    func withLoadsScaled(by factorOf: (DesignResult) -> Double) -> SimulationResult {
        var scaled = self
        for i in scaled.results.indices {
            let factor = factorOf(scaled.results[i])
            guard factor != 1 else { continue }
            scaled.results[i].load.peakRequestsPerMinute = scaled.results[i].load.peakRequestsPerMinute.scaled(by: factor)
            scaled.results[i].load.meanRequestsPerMinute *= factor
            scaled.results[i].load.peakRequestsPerQuotaDay = scaled.results[i].load.peakRequestsPerQuotaDay.scaled(by: factor)
            scaled.results[i].load.peakRequestsPerHour = scaled.results[i].load.peakRequestsPerHour?.scaled(by: factor)
            if var outage = scaled.results[i].outage {
                outage.peakAfterOutagePerMinute = outage.peakAfterOutagePerMinute.scaled(by: factor)
                outage.usualPeakPerMinute *= factor
                scaled.results[i].outage = outage
            }
        }
        return scaled
    }
}

extension RunSpread {
    /// Every statistic multiplied by `factor`.
    func scaled(by factor: Double) -> RunSpread {
        var s = self
        s.mean *= factor
        s.p5 *= factor
        s.p50 *= factor
        s.p95 *= factor
        s.p99 *= factor
        return s
    }
}
