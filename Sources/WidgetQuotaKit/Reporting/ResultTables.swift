import Foundation

/// The report's tables: requests, behaviour, quotas and headroom, cost, freshness and outage.
struct ResultTables {
    let facts: ReportFacts
    var result: SimulationResult { facts.result }

    func requests() -> MarkdownTable {
        var t = MarkdownTable(["Design", "Users", "Per user / month (mean)", "Per user p5–p95", "Per user p99", "Total / month (mean)",
                               "Total p5–p95 (runs)", "Per user / day", "× baseline", "Method"])
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
        var t = MarkdownTable(["Design", "getTimeline", "Budget ran out (instance-days)", "Background runs",
                               "App opens", "Fetches", "Reload calls per fetch", "Failed fetches", "Retries",
                               "Requests: extension / app / background"])
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

    func quotas() -> MarkdownTable {
        let tiers = result.scenario.quotas.tiers.map(\.name)
        var t = MarkdownTable(["Design", "Users", "Tier needed", "Peak req/min p95", "Peak tokens/min p95", "Busiest quota day p95"]
                              + tiers.map { "P(exceed \($0))" })
        for r in result.results {
            var row = [r.design, ReportFormat.users(r.users), facts.tierText(r),
                       NumberText.human(r.load.peakRequestsPerMinute.p95), NumberText.human(r.load.peakTokensPerMinute.p95),
                       NumberText.human(r.load.peakRequestsPerQuotaDay.p95)]
            for name in tiers {
                row.append(r.quota.first { $0.tier == name }.map { NumberText.percent($0.exceedProbability, digits: 0) } ?? "–")
            }
            t.append(row)
        }
        return t
    }

    /// Tier limits as read, so the reader can check them against the console.
    func tiers() -> MarkdownTable {
        var t = MarkdownTable(["Tier", "Requests / min", "Tokens / min", "Requests / day", "Read on", "Note"])
        for tier in result.scenario.quotas.tiers {
            t.append([tier.name, tier.rpm.map { ReportFormat.whole($0) } ?? "unpublished",
                      tier.tpm.map { ReportFormat.whole($0) } ?? "unpublished",
                      tier.rpd.map { ReportFormat.whole($0) } ?? "unpublished (treated as unlimited)", tier.readOn, tier.note])
        }
        return t
    }

    /// The largest population each design can serve on each tier, when the engine reports it.
    func headroom() -> MarkdownTable? {
        guard facts.metrics.metricNames.contains("headroom.maxUsers") else { return nil }
        let tiers = result.scenario.quotas.tiers.map(\.name)
        var t = MarkdownTable(["Design"] + tiers)
        for design in facts.designs {
            t.append([design] + tiers.map { tier in
                facts.value("headroom.maxUsers", design: design, tier: tier).map { ReportFormat.whole($0) } ?? "–"
            })
        }
        return t
    }

    /// Design × users figures under a metric prefix (`cost`, `outage`), one column per metric.
    func prefixed(_ prefix: String, users: [Int]? = nil) -> MarkdownTable? {
        let names = facts.metricNames(under: prefix)
        guard !names.isEmpty else { return nil }
        var t = MarkdownTable(["Design", "Users"] + names.map { ReportFormat.header(String($0.dropFirst(prefix.count + 1))) })
        for r in result.results where users?.contains(r.users) ?? true {
            t.append([r.design, ReportFormat.users(r.users)] + names.map { name in
                facts.value(name, design: r.design, users: r.users).map { ReportFormat.metric(name, $0) } ?? "–"
            })
        }
        return t
    }

    func freshness() -> MarkdownTable {
        var t = MarkdownTable(["Design", "Glances / day", "Stale glances", "Error / placeholder", "Median age (min)", "p95 age (min)"])
        for r in perDesign {
            let f = r.freshness
            t.append([r.design, NumberText.human(f.glancesPerUserDay), NumberText.percent(f.staleShare), NumberText.percent(f.errorShare),
                      f.medianAgeMinutes.map { NumberText.human($0) } ?? "–", f.p95AgeMinutes.map { NumberText.human($0) } ?? "–"])
        }
        return t
    }

    /// What users see during the scenario's outages.
    func outage() -> MarkdownTable {
        var t = MarkdownTable(["Design", "Glances showing an error", "Glances showing old content", "Retries / user / day"])
        for r in perDesign {
            let f = r.freshness
            t.append([r.design, f.outageErrorShare.map { NumberText.percent($0) } ?? "–",
                      f.outageStaleShare.map { NumberText.percent($0) } ?? "–", NumberText.human(r.retriesPerUserDay)])
        }
        return t
    }
}
