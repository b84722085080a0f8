import Foundation
import WidgetQuotaModel
import WidgetQuotaSimulation
import WidgetQuotaSupport

/// The report's recommendation: the cheapest compared design within the owner's tier and
/// staleness limits at each population, what to change in the owner's own design (each change
/// simulated with the same users and seed), and what the simulation shows is wasteful or broken.
///
/// Part of `report.json` (`recommendation`).
public struct Recommendation: Codable, Sendable, Equatable {
    /// The most expensive tier allowed (nil: any listed tier).
    public var maxTier: String?
    /// Largest acceptable share of glances older than the freshness target, or at none.
    public var maxStaleShare: Double
    /// The budget: the most the owner will pay for the API a month (nil: no budget).
    public var maxCostPerMonth: Double?
    /// The age, in minutes, beyond which a glance counts as old.
    public var freshnessTargetMinutes: Double
    /// The design whose changes were simulated.
    public var ownDesign: String
    /// One per population, in ascending order of users.
    public var choices: [Choice]
    /// The changes to the owner's design, each simulated.
    public var changes: [Change]
    /// What the simulation shows is wasteful or broken, per compared design.
    public var flags: [Flag]
    /// With a growth plan: the design that lasts the plan within every limit at the least cost.
    public var overGrowth: GrowthChoice?

    /// The answer at one population.
    public struct Choice: Codable, Sendable, Equatable {
        /// The population.
        public var users: Int
        /// The cheapest design within every limit (tier, staleness and budget); nil when none is.
        public var design: String?
        /// Every design within every limit, cheapest first (the name predates the budget).
        public var meetingBoth: [String]
        /// Designs within the tier and staleness limits whose cost is over the budget, cheapest first.
        public var overBudget: [String] = []
        /// When none is within both: the freshest design within the tier limit (nil: none is).
        public var freshestWithinTier: String?
        /// When none is within both: the cheapest design within the staleness limit (nil: none is).
        public var cheapestWithinStaleness: String?
        /// When none is within every limit: which limits conflict, and by how much.
        public var infeasibility: Infeasibility?
        /// What set `design` ahead of the next design within every limit: `cost`; or, when their
        /// costs are equal (`equalCost`) or unknown (`noPrice`), headroom: the one whose plan holds
        /// the most users, then the one with fewer billed units (credits or requests). Nil when
        /// fewer than two are within every limit.
        public var decidedBy: String?
    }

    /// One change to the owner's design and its simulated effect.
    public struct Change: Codable, Sendable, Equatable {
        /// `ttl`, `policy`, `policyNever`, `background`, `reloadCalls`, `retry`, `stagger` (a backend
        /// schedule's keys spread over its period), `backendHours` (the schedule in the open hours
        /// only), `followHours` (a policy that follows the open hours), `widgetFetches`, or `all`
        /// (every change above together; `policyNever` wins over `policy`); `sweep` for a point of
        /// the TTL sweep that beats the design, which `all` does not include.
        public var kind: String
        /// What changes, in words.
        public var description: String
        /// The changed design's name in this study.
        public var design: String
        /// The effect at each population, against the design as it is.
        public var effects: [Effect]
        /// False when, at every population, no figure moved beyond the simulation's noise
        /// (`RecommendationStudy.moves`): the change is reported as having no measurable effect,
        /// never as advice.
        public var measurable: Bool = true
    }

    /// A design's figures at one population before and after a change.
    public struct Effect: Codable, Sendable, Equatable {
        /// The population.
        public var users: Int
        /// The design as it is.
        public var before: Figures
        /// The design with the change.
        public var after: Figures
    }

    /// The figures a recommendation weighs.
    public struct Figures: Codable, Sendable, Equatable {
        /// Paid requests a month for the population.
        public var requestsPerMonth: Double
        /// USD a month (nil: the model has no price).
        public var costPerMonth: Double?
        /// The tier needed (nil: none of the listed tiers, or no tiers; see `exceedsEveryTier`).
        public var tier: String?
        /// True when the scenario lists tiers and none is enough.
        public var exceedsEveryTier: Bool
        /// Share of glances older than the freshness target, or at an error.
        public var overTargetShare: Double
        /// Share of widget-instance days on which the reload budget ran out.
        public var budgetExhaustedDayShare: Double
        /// Within the tier limit, the staleness limit and the budget.
        public var meetsTargets: Bool
        /// Within the budget (true when there is none, or the design has no price).
        public var withinBudget: Bool = true
    }

    /// Something the simulation shows is wasteful or broken.
    public struct Flag: Codable, Sendable, Equatable {
        /// The design flagged.
        public var design: String
        /// `reloadBudget`, `backgroundShortfall`, `policyShorterThanTTL`, `reloadCallsPerFetch` or `retryStorm`.
        public var kind: String
        /// The measured figure.
        public var value: Double
        /// The limit it passed.
        public var limit: Double
        /// What the figure means and what to do, in words.
        public var message: String
    }
}

/// Builds a `Recommendation` from a simulation result, simulating the changes to the owner's design.
package struct RecommendationStudy: Sendable {
    package let scenario: Scenario
    /// The designs the result compares.
    package let designs: [Design]

    /// The reload budget is flagged when it runs out on more than this share of instance-days.
    package static let budgetExhaustedLimit = 0.2
    /// Background refresh is flagged when it achieves less than this share of what the interval asks.
    package static let backgroundAchievedLimit = 0.5
    /// A reload policy is flagged when it is shorter than this share of the cache TTL.
    package static let policyToTTLLimit = 0.75
    /// Reload calls per successful fetch are flagged above this (one, plus failures' noise).
    package static let reloadCallsPerFetchLimit = 1.05
    /// Retries are flagged when the outage multiplies a user's requests in its window by this much.
    package static let outageMultiplierLimit = 2.0

    package init(scenario: Scenario, designs: [Design]) {
        self.scenario = scenario
        self.designs = designs
    }

    /// The owner's design: the baseline when the scenario defines it, else the scenario's first
    /// own design among those compared, else the baseline.
    package var ownDesign: Design? {
        let own = Set(scenario.designs.map(\.name))
        return designs.first { $0.name == scenario.baseline && own.contains($0.name) }
            ?? designs.first { own.contains($0.name) }
            ?? designs.first { $0.name == scenario.baseline }
            ?? designs.first
    }

    /// Runs the study on `result` (the simulation of `designs`), simulating its changes.
    package func run(result: SimulationResult, threads: Int? = nil, prices: PriceTable = .bundled) -> Recommendation {
        let changes = plannedChanges(result: result).map(\.design)
        let batch = StudyBatch(scenario: scenario, designs: changes, threads: threads, prices: prices)
        return run(result: result, batch: batch)
    }

    /// Runs the study on `result`, reading its changes' figures from `batch` (a batch of this
    /// scenario holding every design `plannedChanges(result:)` names).
    package func run(result: SimulationResult, batch: StudyBatch) -> Recommendation {
        let targets = scenario.targets
        var recommendation = Recommendation(
            maxTier: targets.maxTier, maxStaleShare: targets.maxStaleShare, maxCostPerMonth: targets.maxCostPerMonth,
            freshnessTargetMinutes: scenario.population.freshnessTargetMinutes, ownDesign: ownDesign?.name ?? "",
            choices: Self.choices(result: result, designs: designs.map(\.name), targets: targets), changes: [],
            flags: Self.flags(designs: designs, result: result, scenario: scenario))
        recommendation.overGrowth = Self.growthChoice(result: result, designs: designs.map(\.name), targets: targets)
        guard let own = ownDesign else { return recommendation }
        recommendation.changes = plannedChanges(result: result).map { change in
            let after = batch.rows(change.design)
            let effects = result.results.filter { $0.design == own.name }.compactMap { before -> Recommendation.Effect? in
                guard let after = after.first(where: { $0.users == before.users }) else { return nil }
                return Recommendation.Effect(
                    users: before.users, before: Self.figures(before, targets: targets, tiers: scenario.quotas.tiers),
                    after: Self.figures(after, targets: targets, tiers: scenario.quotas.tiers))
            }
            var made = Recommendation.Change(
                kind: change.kind, description: change.description, design: change.design.name, effects: effects)
            made.measurable = effects.contains(where: Self.moves)
            return made
        }
        return recommendation
    }

    /// Whether a change moved a figure beyond what the simulation can tell from noise. The design
    /// and its change are simulated with the same users, runs and seed (common random numbers),
    /// so a real effect shows as a difference however small the spread of each; the thresholds
    /// are what a product owner could notice: half a percent of the requests or of the glances
    /// over the target, a point of reload-budget days, or another tier or verdict.
    package static func moves(_ e: Recommendation.Effect) -> Bool {
        let b = e.before
        let a = e.after
        let requests = b.requestsPerMonth > 0 ? abs(a.requestsPerMonth / b.requestsPerMonth - 1) : abs(a.requestsPerMonth)
        return requests >= 0.005 || abs(a.overTargetShare - b.overTargetShare) >= 0.005
            || abs(a.budgetExhaustedDayShare - b.budgetExhaustedDayShare) >= 0.01 || a.tier != b.tier
            || a.exceedsEveryTier != b.exceedsEveryTier || a.meetsTargets != b.meetsTargets
    }

    /// True when the change has no more requests and no more glances over the target than the
    /// design as it is, and moved a figure beyond noise.
    package static func beats(_ e: Recommendation.Effect) -> Bool {
        e.after.requestsPerMonth <= e.before.requestsPerMonth && e.after.overTargetShare <= e.before.overTargetShare && moves(e)
    }

    /// Adds the values of a sweep of the owner's design that beat it at the sweep's population: no
    /// more requests and no more glances over the target, and a figure moved beyond noise. The
    /// sweep and the recommendation then agree: a point of the trade-off that is better on both
    /// counts is a change to make (its effects are given at every population). `variants` are the
    /// sweep's designs, simulated in `batch`.
    package func adding(
        sweep: SweepResult, variants: [Design], batch: StudyBatch, result: SimulationResult, to recommendation: Recommendation
    ) -> Recommendation {
        guard let own = ownDesign, sweep.design == own.name else { return recommendation }
        let targets = scenario.targets
        let tiers = scenario.quotas.tiers
        let before = result.results.filter { $0.design == own.name }
        var out = recommendation
        for (value, variant) in zip(sweep.points.map(\.value), variants) {
            let after = batch.rows(variant)
            let effects = before.compactMap { b -> Recommendation.Effect? in
                guard let a = after.first(where: { $0.users == b.users }) else { return nil }
                return .init(
                    users: b.users, before: Self.figures(b, targets: targets, tiers: tiers),
                    after: Self.figures(a, targets: targets, tiers: tiers))
            }
            guard let e = effects.first(where: { $0.users == sweep.users }), Self.beats(e) else { continue }
            var description = sweep.knob.setting(value)
            if let current = sweep.knob.current(of: own) {
                description += " instead of " + sweep.knob.setting(current).replacingOccurrences(of: "a ", with: "", options: .anchored)
            }
            description += " (a point of the \(sweep.knob.rawValue) sweep with fewer requests and fewer old glances)"
            guard !out.changes.contains(where: { $0.design == variant.name }) else { continue }
            out.changes.append(.init(kind: "sweep", description: description, design: variant.name, effects: effects))
        }
        return out
    }

    /// The changes to the owner's design worth simulating, given the projection `result`
    /// (a cache too often stale adds a widget that fetches itself).
    package func plannedChanges(result: SimulationResult) -> [(kind: String, description: String, design: Design)] {
        guard let own = ownDesign else { return [] }
        let stale = result.results.contains { $0.design == own.name && !Self.withinStaleness($0, scenario.targets) }
        return Self.changes(to: own, scenario: scenario, staleTooOften: stale)
    }

    // MARK: Choosing

    /// The position of `tier` among `tiers` (nil: not listed).
    static func rank(_ tier: String?, _ tiers: [QuotaTier]) -> Int? { tier.flatMap { t in tiers.firstIndex { $0.name == t } } }

    /// True when the row's tier is no more expensive than the allowed one.
    package static func withinTier(_ r: DesignResult, maxTier: String?, tiers: [QuotaTier]) -> Bool {
        if tiers.isEmpty { return true }
        guard let needed = rank(r.requiredTier, tiers), !r.exceedsEveryTier else { return false }
        return needed <= (rank(maxTier, tiers) ?? tiers.count - 1)
    }

    static func withinStaleness(_ r: DesignResult, _ targets: Targets) -> Bool { r.freshness.targetShare <= targets.maxStaleShare }

    static func withinBudget(_ r: DesignResult, _ targets: Targets) -> Bool { targets.withinBudget(r.cost?.perMonth.mean) }

    package static func figures(_ r: DesignResult, targets: Targets, tiers: [QuotaTier]) -> Recommendation.Figures {
        Recommendation.Figures(
            requestsPerMonth: r.totalRequestsPerMonth.mean, costPerMonth: r.cost?.perMonth.mean, tier: r.requiredTier,
            exceedsEveryTier: r.exceedsEveryTier, overTargetShare: r.freshness.targetShare,
            budgetExhaustedDayShare: r.budgetExhaustedDayShare,
            meetsTargets: withinTier(r, maxTier: targets.maxTier, tiers: tiers) && withinStaleness(r, targets)
                && withinBudget(r, targets),
            withinBudget: withinBudget(r, targets))
    }

    /// The most users the plan or tier a row needs holds for its design (`Int.max` beyond the
    /// largest population searched, 0 when it needs none that is listed).
    package static func headroom(_ r: DesignResult, _ result: SimulationResult) -> Int {
        guard let tier = r.requiredTier,
            let h = result.headroom.first(where: { $0.design == r.design && $0.tier == tier })
        else { return r.requiredTier == nil ? 0 : .max }
        return h.maxUsers ?? .max
    }

    /// What the API counts a month: credits (or billed requests) where it bills them, else requests.
    static func billedUnits(_ r: DesignResult) -> Double { r.cost?.unitsPerMonth?.mean ?? r.totalRequestsPerMonth.mean }

    /// Mean cost a month, or requests when the model has no price: what "cheapest" compares.
    static func price(_ r: DesignResult) -> Double { r.cost?.perMonth.mean ?? r.totalRequestsPerMonth.mean }

    /// Per population: the cheapest design within every limit, or the nearest misses.
    package static func choices(result: SimulationResult, designs: [String], targets: Targets) -> [Recommendation.Choice] {
        let tiers = result.scenario.quotas.tiers
        let order = Dictionary(uniqueKeysWithValues: designs.enumerated().map { ($0.element, $0.offset) })
        let populations = Array(Set(result.results.map(\.users))).sorted()
        return populations.map { users in
            let rows = result.results.filter { $0.users == users && order[$0.design] != nil }
            // Cheaper first; at an equal (or unknown) cost, the plan that holds the most users
            // (a design that outgrows it soon is no bargain), then fewer billed units: more
            // headroom on the same plan.
            func cheaper(_ a: DesignResult, _ b: DesignResult) -> Bool {
                if price(a) != price(b) { return price(a) < price(b) }
                let (ha, hb) = (headroom(a, result), headroom(b, result))
                if ha != hb { return ha > hb }
                let (x, y) = (billedUnits(a), billedUnits(b))
                return x != y ? x < y : order[a.design]! < order[b.design]!
            }
            let inTier = rows.filter { withinTier($0, maxTier: targets.maxTier, tiers: tiers) }
            let fresh = rows.filter { withinStaleness($0, targets) }
            let both = inTier.filter { withinStaleness($0, targets) }.sorted(by: cheaper)
            let all = both.filter { withinBudget($0, targets) }
            var choice = Recommendation.Choice(
                users: users, design: all.first?.design, meetingBoth: all.map(\.design),
                overBudget: both.filter { !withinBudget($0, targets) }.map(\.design))
            if all.count >= 2 {
                let (first, second) = (all[0], all[1])
                choice.decidedBy =
                    first.cost == nil || second.cost == nil ? "noPrice" : price(first) == price(second) ? "equalCost" : "cost"
            }
            if all.isEmpty {
                choice.freshestWithinTier =
                    inTier.min {
                        $0.freshness.targetShare != $1.freshness.targetShare
                            ? $0.freshness.targetShare < $1.freshness.targetShare : cheaper($0, $1)
                    }?.design
                choice.cheapestWithinStaleness = fresh.min(by: cheaper)?.design
                choice.infeasibility = infeasibility(rows: rows, users: users, scenario: result.scenario)
            }
            return choice
        }
    }

    // MARK: Changes

    /// The changes worth simulating for `design`, each as a changed design, and all of them
    /// together when there are several; `staleTooOften` adds a widget that fetches itself when a
    /// cache only the app fills is too often older than the freshness target.
    package static func changes(
        to design: Design, scenario: Scenario, staleTooOften: Bool = false
    ) -> [(kind: String, description: String, design: Design)] {
        let target = scenario.population.freshnessTargetMinutes
        var out = [(kind: String, description: String, design: Design)]()
        var all = design
        func variant(_ kind: String, _ change: (inout Design) -> Void) -> Design {
            var d = design
            change(&d)
            change(&all)
            d.name = design.name + "+" + kind
            return d
        }
        if let ttl = design.cacheTTLMinutes, ttl < target {
            out.append(
                (
                    "ttl",
                    "a cache TTL of \(Design.duration(minutes: target)) (the freshness target) instead of \(Design.duration(minutes: ttl))",
                    variant("ttl") { $0.cacheTTLMinutes = target }
                ))
        }
        if case .after(let minutes) = design.reloadPolicy, let ttl = design.cacheTTLMinutes, minutes < ttl {
            out.append(
                (
                    "policy",
                    "a reload policy of .after(\(Design.duration(minutes: ttl))), no shorter than the TTL, instead of .after(\(Design.duration(minutes: minutes)))",
                    variant("policy") { $0.reloadPolicy = .after(minutes: ttl) }
                ))
        }
        if case .after = design.reloadPolicy, design.hasCache, !design.fetchTriggers.contains(.getTimeline),
            design.reloadCalls == .onceOnSuccess
        {
            out.append(
                (
                    "policyNever",
                    "no reload policy of its own (.never): the widget, which only reads the cache, reloads when the app asks after a successful fetch",
                    variant("policyNever") { $0.reloadPolicy = .never }
                ))
        }
        let earliest = scenario.platform.backgroundEarliestBeginHours
        if design.fetchTriggers.contains(.backgroundTask), let hours = design.backgroundIntervalHours, hours < earliest {
            out.append(
                (
                    "background",
                    "a BGAppRefreshTask interval of \(Design.duration(hours: earliest)), what iOS honours, instead of \(Design.duration(hours: hours))",
                    variant("background") { $0.backgroundIntervalHours = earliest }
                ))
        }
        if design.reloadCalls == .everyFetch || design.reloadCalls == .everyForeground {
            out.append(
                (
                    "reloadCalls",
                    "asking the widget to reload once after each successful fetch instead of \(design.reloadCalls == .everyFetch ? "after every fetch attempt" : "on every app open")",
                    variant("reloadCalls") { $0.reloadCalls = .onceOnSuccess }
                ))
        }
        if case .backoff = design.retry {
            out.append(
                (
                    "retry", "retrying at the next natural trigger instead of at once with backoff",
                    variant("retry") { $0.retry = .nextOpportunity }
                ))
        }
        if let backend = design.backend, case .every(let minutes) = backend.regenerate {
            if !backend.staggered && minutes > 1 {
                out.append(
                    (
                        "stagger",
                        "the backend's keys spread over its \(Design.duration(minutes: minutes)) schedule (about 1/\(NumberText.plain(minutes)) "
                            + "of them each minute) instead of all in the same minute",
                        variant("stagger") { $0.backend?.staggered = true }
                    ))
            }
            if scenario.hasOpenHours && !backend.onlyWhenOpen {
                out.append(
                    (
                        "backendHours", "the backend's schedule running only in the open hours, when the data can change",
                        variant("backendHours") { $0.backend?.onlyWhenOpen = true }
                    ))
            }
        }
        if scenario.hasOpenHours, !design.policyFollowsHours, case .after(let minutes) = design.reloadPolicy,
            minutes < Double.minutesPerDay
        {
            out.append(
                (
                    "followHours",
                    "a reload policy that follows the open hours: .after(\(Design.duration(minutes: minutes))) while open, the next "
                        + "opening while closed",
                    variant("followHours") { $0.policyFollowsHours = true }
                ))
        }
        if staleTooOften, design.hasCache, !design.fetchTriggers.contains(.getTimeline) {
            out.append(
                (
                    "widgetFetches", "the widget fetching in getTimeline too, when the cache is older than its TTL",
                    variant("widgetFetches") { $0.fetchTriggers.insert(.getTimeline, at: 0) }
                ))
        }
        if out.count > 1 {
            // With a longer TTL, a policy no shorter than the TTL follows it.
            if case .after(let minutes) = all.reloadPolicy, let ttl = all.cacheTTLMinutes, minutes < ttl,
                out.contains(where: { $0.kind == "policy" })
            {
                all.reloadPolicy = .after(minutes: ttl)
            }
            all.name = design.name + "+all"
            out.append(("all", "every change above together", all))
        }
        return out
    }

    // MARK: Flags

    /// What the simulation shows is wasteful or broken, read from each design's row at the
    /// largest population (per-user rates from the whole simulated sample).
    static func flags(designs: [Design], result: SimulationResult, scenario: Scenario) -> [Recommendation.Flag] {
        guard let largest = result.results.map(\.users).max() else { return [] }
        var out = [Recommendation.Flag]()
        for d in designs {
            guard let r = result.results.first(where: { $0.design == d.name && $0.users == largest }) else { continue }
            out += flags(design: d, row: r, scenario: scenario)
        }
        return out
    }

    /// What to do about a reload budget that runs out, given what the design already does: never
    /// a change to what it already is.
    static func budgetAdvice(_ d: Design) -> String {
        let onlyReads = d.hasCache && !d.fetchTriggers.contains(.getTimeline)
        switch d.reloadPolicy {
        case .never where d.reloadCalls == .onceOnSuccess || d.reloadCalls == .never:
            return "The design asks for no reloads of its own beyond one after a successful fetch: WidgetKit's own reloads "
                + "spend the budget (rarely viewed widgets have a small one). Nothing in the design to change; "
                + "expect its reloads, and pushes, to be refused on those days."
        case .never:
            return
                "Ask the widget to reload once after a successful fetch, not \(d.reloadCalls == .everyFetch ? "after every attempt" : "on every app open")."
        default:
            return onlyReads
                ? "The widget only reads the cache: drop its own reload policy (.never) and let the app ask after a successful fetch."
                : "Reload less often: a longer reload policy, or let the app ask after a successful fetch."
        }
    }

    /// The flags one design's row raises.
    package static func flags(design d: Design, row r: DesignResult, scenario: Scenario) -> [Recommendation.Flag] {
        var out = [Recommendation.Flag]()
        func flag(_ kind: String, _ value: Double, _ limit: Double, _ message: String) {
            out.append(Recommendation.Flag(design: d.name, kind: kind, value: value, limit: limit, message: message))
        }
        let pct = { (x: Double) in NumberText.percent(x, digits: 0) }
        if r.budgetExhaustedDayShare > budgetExhaustedLimit {
            flag(
                "reloadBudget", r.budgetExhaustedDayShare, budgetExhaustedLimit,
                "the reload budget ran out on \(pct(r.budgetExhaustedDayShare)) of widget-instance days (more than \(pct(budgetExhaustedLimit))), "
                    + "with \(NumberText.human(r.getTimelinePerUserDay)) getTimeline calls a user-day: once it runs out, WidgetKit "
                    + "refuses reloads until it refills, and the widget keeps showing what it last rendered. "
                    + budgetAdvice(d))
        }
        if d.fetchTriggers.contains(.backgroundTask) {
            let hours = d.backgroundIntervalHours ?? scenario.platform.backgroundEarliestBeginHours
            let asked = hours > 0 ? Double.hoursPerDay / hours : .infinity
            let achieved = r.backgroundRunsPerUserDay
            if achieved < backgroundAchievedLimit * asked {
                var text =
                    "BGAppRefreshTask ran \(NumberText.human(achieved)) times a user-day against the \(NumberText.human(asked)) "
                    + "an interval of \(Design.duration(hours: hours)) asks: iOS decides when it runs, so plan on what it achieves"
                if hours < scenario.platform.backgroundEarliestBeginHours {
                    text +=
                        "; an interval under \(Design.duration(hours: scenario.platform.backgroundEarliestBeginHours)) buys nothing"
                }
                flag("backgroundShortfall", achieved, backgroundAchievedLimit * asked, text + ".")
            }
        }
        if case .after(let minutes) = d.reloadPolicy, let ttl = d.cacheTTLMinutes, minutes < policyToTTLLimit * ttl {
            flag(
                "policyShorterThanTTL", minutes / ttl, policyToTTLLimit,
                "the reload policy .after(\(Design.duration(minutes: minutes))) is much shorter than the \(Design.duration(minutes: ttl)) TTL: "
                    + "most reloads find the cache still fresh and rebuild the same content, spending the reload budget "
                    + "(\(NumberText.human(r.getTimelinePerUserDay)) getTimeline calls a user-day for \(NumberText.human(r.fetchesPerUserDay)) fetches). "
                    + "Make the policy at least the TTL.")
        }
        if let perFetch = r.reloadCallsPerSuccessfulFetch, perFetch > reloadCallsPerFetchLimit {
            flag(
                "reloadCallsPerFetch", perFetch, reloadCallsPerFetchLimit,
                "the app asks the widget to reload \(NumberText.human(perFetch)) times per successful fetch: every call beyond one "
                    + "rebuilds the same content from the budget. Ask once, after a fetch that brought new data.")
        }
        let outageHours = scenario.api.outages.reduce(0) { $0 + $1.durationHours }
        if r.retriesPerUserDay > 0, outageHours > 0, let extra = r.outage?.extraRequestsPerUserMonth {
            let usual = r.requestsPerUserDay * outageHours / Double.hoursPerDay
            let multiplier = usual > 0 ? 1 + extra / usual : .infinity
            if multiplier >= outageMultiplierLimit {
                var text =
                    "retries multiply requests during the outage: a user sends \(NumberText.human(multiplier))× the requests of an ordinary "
                    + "\(Design.duration(hours: outageHours)) (\(NumberText.human(extra)) extra a month)"
                if let storm = r.outage?.stormRatio { text += ", and the busiest minute after it is \(NumberText.human(storm))× the usual" }
                flag(
                    "retryStorm", multiplier, outageMultiplierLimit,
                    text + ". Retry at the next natural trigger, or with fewer attempts and jitter.")
            }
        }
        return out
    }
}
