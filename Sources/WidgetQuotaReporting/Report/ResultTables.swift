import Foundation
import WidgetQuotaModel
import WidgetQuotaSimulation
import WidgetQuotaSupport

/// The report's tables: requests, behaviour, quotas and headroom, cost, freshness and outage.
struct ResultTables {
    let facts: ReportFacts
    var result: SimulationResult { facts.result }

    func requests() -> MarkdownTable {
        var t = MarkdownTable([
            "Design", "Users", "Per user / month (mean)", "Per user p5–p95", "Per user p99", "Total / month (mean)",
            "Total p5–p95 (runs)", "Per user / day", "× baseline", "Method",
        ])
        for r in result.results {
            t.append([
                r.design, ReportFormat.users(r.users),
                NumberText.human(r.requestsPerUserMonth.mean),
                "\(NumberText.human(r.requestsPerUserMonth.p5))–\(NumberText.human(r.requestsPerUserMonth.p95))",
                NumberText.human(r.requestsPerUserMonth.p99),
                ReportFormat.whole(r.totalRequestsPerMonth.mean),
                ReportFormat.range(r.totalRequestsPerMonth.p5, r.totalRequestsPerMonth.p95),
                NumberText.human(r.requestsPerUserDay),
                r.ratioToBaseline.map { NumberText.human($0) } ?? "–",
                r.method,
            ])
        }
        return t
    }

    /// Per-user behaviour does not depend on the population: one row per design.
    var perDesign: [DesignResult] { facts.designs.compactMap { facts.rows($0).last } }

    func behaviour() -> MarkdownTable {
        var t = MarkdownTable([
            "Design", "getTimeline", "Reload budget ran out (instance-days)", "Background runs",
            "App opens", "Fetches", "Reload calls per fetch", "Failed fetches", "Retries",
            "Requests: extension / app / background",
        ])
        for r in perDesign {
            let shares = [r.requestShares.widgetExtension, r.requestShares.app, r.requestShares.background]
            t.append([
                r.design, NumberText.human(r.getTimelinePerUserDay), NumberText.percent(r.budgetExhaustedDayShare),
                NumberText.human(r.backgroundRunsPerUserDay), NumberText.human(r.appOpensPerUserDay),
                NumberText.human(r.fetchesPerUserDay),
                r.reloadCallsPerSuccessfulFetch.map { NumberText.human($0) } ?? "–",
                NumberText.percent(r.fetchFailureRate), NumberText.human(r.retriesPerUserDay),
                shares.map { NumberText.percent($0, digits: 0) }.joined(separator: " / "),
            ])
        }
        return t
    }

    /// True when the tiers' request limits count credits (an API billed per credit).
    var limitsCountCredits: Bool { result.scenario.api.pricing?.per == .credit }

    /// True when a tier limits the clock hour.
    var tiersLimitHours: Bool { result.scenario.quotas.tiers.contains { $0.rph != nil } }

    /// The most a plan carries a month where it bills no overage (nil: no such cap).
    func monthlyCap(of tier: QuotaTier) -> Double? { result.scenario.api.pricing?.monthlyCap(of: tier) }

    /// True when a plan's included volume caps the month.
    var tiersCapMonths: Bool { result.scenario.quotas.tiers.contains { monthlyCap(of: $0) != nil } }

    /// The limits a tier is held against, in words: the hour where a tier limits it, and the
    /// month's volume where a plan that bills no overage caps it.
    var limitsText: String {
        let noun = limitsCountCredits ? "credits" : "requests"
        return "\(noun) per minute, " + (countsTokens ? "tokens per minute, " : "") + (tiersLimitHours ? "\(noun) per hour, " : "")
            + "\(noun) per quota day" + (tiersCapMonths ? ", the \(noun) a plan without overage includes in the month" : "")
    }

    /// True when tokens matter to the quotas: the API bills them or a tier limits them.
    var countsTokens: Bool {
        let s = result.scenario
        return (s.api.pricing?.per ?? .token) == .token || s.quotas.tiers.contains { $0.tpm != nil }
    }

    func quotas() -> MarkdownTable {
        let scenario = result.scenario
        let tiers = scenario.quotas.tiers.map(\.name)
        // The busiest hour shows where a tier limits the hour; tokens where they count. An API
        // billed in credits counts its limits in credits, and so do the peaks here, as the verdict.
        let hourly = tiersLimitHours
        let tokens = countsTokens
        let credits = limitsCountCredits
        let unit = credits ? "credits" : "req"
        let designs = Dictionary(scenario.availableDesigns.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var t = MarkdownTable(
            ["Design", "Users", "Tier needed", "Peak \(unit)/min p95"] + (tokens ? ["Peak tokens/min p95"] : [])
                + (hourly ? ["Busiest hour p95" + (credits ? " (credits)" : "")] : [])
                + ["Busiest quota day p95" + (credits ? " (credits)" : "")] + tiers.map { "P(exceed \($0))" })
        for r in result.results {
            let k = credits ? designs[r.design].map { scenario.unitsPerRequest(of: $0) } ?? 1 : 1
            var row = [r.design, ReportFormat.users(r.users), facts.tierText(r), NumberText.human(k * r.load.peakRequestsPerMinute.p95)]
            if tokens { row.append(NumberText.human(r.load.peakTokensPerMinute.p95)) }
            if hourly { row.append(r.load.peakRequestsPerHour.map { NumberText.human(k * $0.p95) } ?? "–") }
            row.append(NumberText.human(k * r.load.peakRequestsPerQuotaDay.p95))
            for name in tiers {
                row.append(r.quota.first { $0.tier == name }.map { NumberText.percent($0.exceedProbability, digits: 0) } ?? "–")
            }
            t.append(row)
        }
        return t
    }

    /// Tier limits as read, so the reader can check them against the console.
    func tiers() -> MarkdownTable {
        let quotas = result.scenario.quotas
        // A credit-priced API's limits count credits.
        let counted = limitsCountCredits ? "Credits" : "Requests"
        let day =
            quotas.dayWindow == .rolling24h
            ? "\(counted) / day (any 24 h)"
            : "\(counted) / day (from midnight UTC\(quotas.resetUTCOffsetHours < 0 ? "−" : "+")\(NumberText.plain(abs(quotas.resetUTCOffsetHours))))"
        let hourly = tiersLimitHours
        // A plan that bills no overage carries at most what it includes a month.
        let monthly = tiersCapMonths
        var t = MarkdownTable(
            ["Tier", "\(counted) / min"] + (countsTokens ? ["Tokens / min"] : []) + (hourly ? ["\(counted) / hour (clock hour)"] : [])
                + [day] + (monthly ? ["\(counted) / month (included, no overage)"] : []) + ["Earned by", "Read on", "Note"])
        for tier in quotas.tiers {
            let earned = tier.qualification.map { q in
                ReportFormat.money(q.minimumSpend) + " paid" + (q.daysSinceFirstPayment > 0 ? ", \(q.daysSinceFirstPayment) days" : "")
            }
            var row = [tier.name, tier.rpm.map { ReportFormat.whole($0) } ?? "unpublished"]
            if countsTokens { row.append(tier.tpm.map { ReportFormat.whole($0) } ?? "unpublished") }
            if hourly { row.append(tier.rph.map { ReportFormat.whole($0) } ?? "unpublished") }
            let daily: String = tier.rpd.map { ReportFormat.whole($0) } ?? "unpublished (treated as unlimited)"
            row.append(daily)
            if monthly { row.append(monthlyCap(of: tier).map { ReportFormat.whole($0) } ?? "–") }
            row += [earned ?? "–", tier.readOn, tier.note]
            t.append(row)
        }
        return t
    }

    /// The largest population each design can serve on each tier (found by search in the engine).
    func headroom() -> MarkdownTable? {
        guard !result.headroom.isEmpty else { return nil }
        let tiers = result.scenario.quotas.tiers.map(\.name)
        var t = MarkdownTable(["Design"] + tiers)
        for design in facts.designs {
            t.append(
                [design]
                    + tiers.map { tier in
                        guard let h = result.headroom.first(where: { $0.design == design && $0.tier == tier }) else { return "–" }
                        return h.maxUsers.map { ReportFormat.whole(Double($0)) } ?? "> "
                            + ReportFormat.whole(Double(h.largestPopulationSearched))
                    })
        }
        return t
    }

    /// Monthly cost per design and population, when the model has a price; for an API billed
    /// per request or credit, the volume billed and the plan paid (its fee, and the overage beyond).
    func cost() -> MarkdownTable? {
        guard result.results.contains(where: { $0.cost != nil }) else { return nil }
        let unit = result.scenario.api.pricing.flatMap { $0.per == .token ? nil : $0.unitName }
        var header = ["Design", "Users", "Cost / month (mean)", "p5–p95 (runs)", "Per user / month"]
        if let unit { header += ["\(unit.prefix(1).uppercased() + unit.dropFirst()) billed / month", "Plan", "Fee / month"] }
        var t = MarkdownTable(header)
        for r in result.results {
            guard let c = r.cost else {
                t.append([r.design, ReportFormat.users(r.users)] + Array(repeating: "–", count: header.count - 2))
                continue
            }
            var row = [
                r.design, ReportFormat.users(r.users), ReportFormat.money(c.perMonth.mean),
                ReportFormat.money(c.perMonth.p5) + "–" + ReportFormat.money(c.perMonth.p95), ReportFormat.money(c.perUserMonth),
            ]
            if unit != nil {
                row += [
                    c.unitsPerMonth.map { ReportFormat.whole($0.mean) } ?? "–", c.plan ?? "pay as you go",
                    c.planFeePerMonth.map(ReportFormat.money) ?? "–",
                ]
            }
            t.append(row)
        }
        return t
    }

    /// What the freshness table's columns measure, in words.
    var freshnessNote: String {
        let scenario = facts.result.scenario
        let target = NumberText.plain(scenario.population.freshnessTargetMinutes)
        return "*Older than \(target) min, or none* is the summary's yardstick, the same for every design: content older "
            + "than the freshness target, or an error or placeholder. *Older than its TTL* is what the design itself would "
            + "call stale: content older than its cache lifetime, or than the target when that is longer. *Outdated* counts "
            + "glances at content that a newer value had replaced at least a minute before (or at an error), against the "
            + "data's changes (`api.dataChangesPerDay`: \(scenario.api.dataChangesPerDay.summary) a day"
            + (scenario.content.meanKeysPerUser > 1
                ? " for each of the \(NumberText.plain(scenario.content.meanKeysPerUser, maxFractionDigits: 2)) keys a user follows"
                    + (scenario.content.keysPerUserMix == nil ? "" : " on average") + "; for a design that fetches on the changes, "
                    + "those of the key that sends its pushes"
                : "")
            + "): old content of data that has not changed is not outdated."
    }

    func freshness() -> MarkdownTable {
        let target = NumberText.plain(facts.result.scenario.population.freshnessTargetMinutes)
        let openHours = facts.result.scenario.hasOpenHours
        var header = [
            "Design", "Glances / day", "Older than \(target) min, or none", "Older than its TTL (≥ \(target) min)",
            "Error / placeholder", "Outdated", "Median age (min)", "p95 age (min)",
        ]
        if openHours {
            header += [
                "Glances in open hours", "Older than \(target) min, or none, in open hours", "Outdated in open hours",
                "Median age in open hours (min)",
            ]
        }
        var t = MarkdownTable(header)
        for r in perDesign {
            let f = r.freshness
            var row = [
                r.design, NumberText.human(f.glancesPerUserDay), NumberText.percent(f.overTargetShare),
                NumberText.percent(f.staleShare), NumberText.percent(f.errorShare), NumberText.percent(f.outdatedShare),
                f.medianAgeMinutes.map { NumberText.human($0) } ?? "–", f.p95AgeMinutes.map { NumberText.human($0) } ?? "–",
            ]
            if openHours {
                row += [
                    f.openHours.map { NumberText.percent($0.glanceShare) } ?? "–",
                    f.openHours.map { NumberText.percent($0.overTargetShare) } ?? "–",
                    f.openHours.map { NumberText.percent($0.outdatedShare) } ?? "–",
                    f.openHours?.medianAgeMinutes.map { NumberText.human($0) } ?? "–",
                ]
            }
            t.append(row)
        }
        return t
    }

    /// What users see during the scenario's outages, and what the outage costs in requests and load.
    func outage() -> MarkdownTable {
        let n = facts.focusUsers
        var t = MarkdownTable([
            "Design", "Glances at an error or placeholder", "Glances at old content", "Extra requests / user",
            "Extra requests (\(ReportFormat.users(n)) users)", "Peak req/min after it ends (mean · p95)",
            "Mean peak × usual peak",
        ])
        for design in facts.designs {
            guard let r = facts.row(design, users: n) else { continue }
            let f = r.freshness
            let o = r.outage
            t.append([
                r.design, f.outageErrorShare.map { NumberText.percent($0) } ?? "–",
                f.outageStaleShare.map { NumberText.percent($0) } ?? "–",
                o.map { NumberText.human($0.extraRequestsPerUserMonth) } ?? "–",
                o.map { ReportFormat.whole($0.extraRequestsPerMonth) } ?? "–",
                o.map { NumberText.human($0.peakAfterOutagePerMinute.mean) + " · " + NumberText.human($0.peakAfterOutagePerMinute.p95) }
                    ?? "–",
                o?.stormRatio.map { NumberText.human($0) + "×" } ?? "–",
            ])
        }
        return t
    }
}
