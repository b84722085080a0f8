import Foundation

/// Renders a `SimulationResult` as Markdown, CSV and JSON.
public struct SimulationReport: Sendable {
    public let result: SimulationResult

    public init(_ result: SimulationResult) { self.result = result }

    // MARK: JSON

    /// The JSON contract (`schemaVersion` 1).
    public func json() throws -> String { try JSONOutput.encode(result) }

    // MARK: CSV

    /// The wide summary: one row per design × user count.
    public func csv() -> String {
        var w = CSVWriter(header: [
            "design", "users", "method",
            "requests_per_user_month_mean", "requests_per_user_month_p5", "requests_per_user_month_p50",
            "requests_per_user_month_p95", "requests_per_user_month_p99",
            "total_requests_month_mean", "total_requests_month_p5", "total_requests_month_p95",
            "requests_per_user_day", "ratio_to_baseline", "get_timeline_per_user_day",
            "budget_exhausted_day_share", "background_runs_per_user_day", "peak_rpm_p50", "peak_rpm_p95",
            "peak_rpd_p95", "stale_glance_share", "error_glance_share", "median_age_minutes",
        ])
        for r in result.results {
            w.appendRow([
                .text(r.design), .integer(r.users), .text(r.method),
                .number(r.requestsPerUserMonth.mean), .number(r.requestsPerUserMonth.p5), .number(r.requestsPerUserMonth.p50),
                .number(r.requestsPerUserMonth.p95), .number(r.requestsPerUserMonth.p99),
                .number(r.totalRequestsPerMonth.mean), .number(r.totalRequestsPerMonth.p5), .number(r.totalRequestsPerMonth.p95),
                .number(r.requestsPerUserDay), r.ratioToBaseline.map(CSVWriter.Cell.number) ?? .empty,
                .number(r.getTimelinePerUserDay), .number(r.budgetExhaustedDayShare), .number(r.backgroundRunsPerUserDay),
                .number(r.load.peakRequestsPerMinute.p50), .number(r.load.peakRequestsPerMinute.p95),
                .number(r.load.peakRequestsPerQuotaDay.p95), .number(r.freshness.staleShare), .number(r.freshness.errorShare),
                r.freshness.medianAgeMinutes.map(CSVWriter.Cell.number) ?? .empty,
            ])
        }
        return w.output
    }

    // MARK: Markdown

    /// The report a product owner reads.
    public func markdown() -> String {
        var md = "# WidgetQuota projection\n\n"
        md += summary()
        md += "\n## Requests per month\n\n"
        md += requestsTable().markdown
        md += "\nPer user: mean and spread across users (p5–p95), pooled over runs. Total: mean with the p5–p95 range across "
        md += "Monte-Carlo runs, i.e. how sure we are given the uncertain assumptions. Rows marked *projected* are scaled from "
        md += "a simulated sample of \(NumberText.human(Double(result.method.sampleUsers))) users.\n"
        md += "\n## What each design does per user and day\n\n"
        md += behaviourTable().markdown
        md += "\n## Freshness: what users see at a glance\n\n"
        md += freshnessTable().markdown
        md += "\n## Quotas\n\n"
        md += quotaTable().markdown
        md += "\n## Method\n\n" + result.method.description + "\n"
        md += "\nSeed \(result.method.seed), \(result.method.runs) runs. Regenerate with the same scenario and seed for byte-identical output.\n"
        return md
    }

    func rows(design: String) -> [DesignResult] { result.results.filter { $0.design == design } }

    func summary() -> String {
        let baseline = result.method.baseline
        var lines = [String]()
        let users = result.results.map(\.users)
        let focus = users.contains(1_000) ? 1_000 : (users.max() ?? 1)
        for design in result.method.designs {
            guard let r = rows(design: design).first(where: { $0.users == focus }) else { continue }
            var line = "- **\(design)**: about \(NumberText.human(r.requestsPerUserMonth.mean.rounded())) requests per user per month "
            line += "(\(NumberText.human(r.requestsPerUserDay)) a day); with \(NumberText.human(Double(focus))) users, "
            line += "\(NumberText.human(r.totalRequestsPerMonth.mean.rounded())) a month "
            line += "(\(NumberText.human(r.totalRequestsPerMonth.p5.rounded()))–\(NumberText.human(r.totalRequestsPerMonth.p95.rounded())))"
            if let ratio = r.ratioToBaseline, design != baseline {
                line += ", \(NumberText.human(ratio))× \(baseline)"
            }
            line += "; stale at \(NumberText.percent(r.freshness.staleShare, digits: 0)) of glances."
            lines.append(line)
        }
        return "At a glance, for \(NumberText.human(Double(focus))) users over \(result.scenario.horizon.days) days:\n\n"
            + lines.joined(separator: "\n") + "\n"
    }

    func requestsTable() -> MarkdownTable {
        var t = MarkdownTable(["Design", "Users", "Per user / month (mean)", "Per user p5–p95", "Total / month (mean)",
                               "Total p5–p95 (runs)", "Per user / day", "× baseline", "Method"])
        for r in result.results {
            t.append([
                r.design, NumberText.human(Double(r.users)),
                NumberText.human(r.requestsPerUserMonth.mean),
                "\(NumberText.human(r.requestsPerUserMonth.p5))–\(NumberText.human(r.requestsPerUserMonth.p95))",
                NumberText.human(r.totalRequestsPerMonth.mean.rounded()),
                "\(NumberText.human(r.totalRequestsPerMonth.p5.rounded()))–\(NumberText.human(r.totalRequestsPerMonth.p95.rounded()))",
                NumberText.human(r.requestsPerUserDay),
                r.ratioToBaseline.map { NumberText.human($0) } ?? "–",
                r.method,
            ])
        }
        return t
    }

    func firstRows() -> [DesignResult] {
        result.method.designs.compactMap { rows(design: $0).last }
    }

    func behaviourTable() -> MarkdownTable {
        var t = MarkdownTable(["Design", "getTimeline", "Budget ran out (instance-days)", "Background runs",
                               "App opens", "Fetches", "Reload calls per fetch", "Failed fetches", "Requests: extension / app / background"])
        for r in firstRows() {
            t.append([
                r.design, NumberText.human(r.getTimelinePerUserDay), NumberText.percent(r.budgetExhaustedDayShare),
                NumberText.human(r.backgroundRunsPerUserDay), NumberText.human(r.appOpensPerUserDay),
                NumberText.human(r.fetchesPerUserDay),
                r.reloadCallsPerSuccessfulFetch.map { NumberText.human($0) } ?? "–",
                NumberText.percent(r.fetchFailureRate),
                "\(NumberText.percent(r.requestShares.widgetExtension, digits: 0)) / \(NumberText.percent(r.requestShares.app, digits: 0)) / \(NumberText.percent(r.requestShares.background, digits: 0))",
            ])
        }
        return t
    }

    func freshnessTable() -> MarkdownTable {
        var t = MarkdownTable(["Design", "Stale glances", "Error / placeholder", "Median age (min)", "p95 age (min)",
                               "During outage: error", "During outage: stale"])
        for r in firstRows() {
            let f = r.freshness
            t.append([
                r.design, NumberText.percent(f.staleShare), NumberText.percent(f.errorShare),
                f.medianAgeMinutes.map { NumberText.human($0) } ?? "–", f.p95AgeMinutes.map { NumberText.human($0) } ?? "–",
                f.outageErrorShare.map { NumberText.percent($0) } ?? "–", f.outageStaleShare.map { NumberText.percent($0) } ?? "–",
            ])
        }
        return t
    }

    func quotaTable() -> MarkdownTable {
        let tiers = result.scenario.quotas.tiers.map(\.name)
        var t = MarkdownTable(["Design", "Users", "Peak req/min p95", "Busiest quota day p95"] + tiers.map { "P(exceed \($0))" })
        for r in result.results {
            var row = [r.design, NumberText.human(Double(r.users)),
                       NumberText.human(r.load.peakRequestsPerMinute.p95), NumberText.human(r.load.peakRequestsPerQuotaDay.p95)]
            for name in tiers {
                row.append(r.quota.first { $0.tier == name }.map { NumberText.percent($0.exceedProbability, digits: 0) } ?? "–")
            }
            t.append(row)
        }
        return t
    }
}
