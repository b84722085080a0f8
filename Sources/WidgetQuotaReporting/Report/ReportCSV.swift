import Foundation
import WidgetQuotaStudies
import WidgetQuotaSupport

/// The two CSV files: a wide summary (one row per design × user count) and a tidy long file
/// (one row per number) for pivot tables. Both RFC 4180, numbers without thousands separators.
struct ReportCSV {
    let facts: ReportFacts
    /// The verdict of each row, matched by design and users (none: the verdict columns stay empty).
    var verdicts: [Verdict] = []

    /// `cost.perMonth.mean` → `cost_per_month_mean`.
    static func column(_ path: String) -> String {
        path.split(separator: ".").map { ReportFormat.words(String($0)).replacingOccurrences(of: " ", with: "_") }.joined(separator: "_")
    }

    func wide() -> String {
        let tiers = facts.result.scenario.quotas.tiers.map(\.name)
        var w = CSVWriter(
            header: [
                "design", "users", "method",
                "requests_per_user_month_mean", "requests_per_user_month_p5", "requests_per_user_month_p50",
                "requests_per_user_month_p95", "requests_per_user_month_p99",
                "total_requests_month_mean", "total_requests_month_p5", "total_requests_month_p95",
                "requests_per_user_day", "ratio_to_baseline", "get_timeline_per_user_day",
                "budget_exhausted_day_share", "background_runs_per_user_day", "peak_rpm_p50", "peak_rpm_p95",
                "peak_rpd_p95", "stale_glance_share", "error_glance_share", "median_age_minutes",
                "p95_age_minutes", "tier_needed",
                "cost_per_month_mean", "cost_per_month_p5", "cost_per_month_p95", "cost_per_user_month",
                "outage_extra_requests_per_month", "outage_peak_after_per_minute_p95", "outage_storm_ratio",
                "over_target_glance_share", "exceeds_every_tier", "outage_peak_after_per_minute_mean",
                "verdict_deciding_tier", "verdict_deciding_limit", "verdict_deciding_value", "verdict_limit_value",
                "verdict_exceed_probability", "verdict_cause", "verdict_tier_without_outage", "verdict_deciding_value_without_outage",
                "older_than_ttl_glance_share",
                "backend_requests_per_day_mean", "backend_peak_rpm_mean", "backend_cost_per_month", "push_delivered_share",
                "peak_rph_p95",
                // Columns added later go here, before the tiers': every column above keeps its
                // position whatever the scenario's tiers.
            ] + tiers.map { "exceed_probability_" + $0 })
        for r in facts.result.results {
            let fixed: [CSVWriter.Cell] = [
                .text(r.design), .integer(r.users), .text(r.method),
                .number(r.requestsPerUserMonth.mean), .number(r.requestsPerUserMonth.p5), .number(r.requestsPerUserMonth.p50),
                .number(r.requestsPerUserMonth.p95), .number(r.requestsPerUserMonth.p99),
                .number(r.totalRequestsPerMonth.mean), .number(r.totalRequestsPerMonth.p5), .number(r.totalRequestsPerMonth.p95),
                .number(r.requestsPerUserDay), r.ratioToBaseline.map(CSVWriter.Cell.number) ?? .empty,
                .number(r.getTimelinePerUserDay), .number(r.budgetExhaustedDayShare), .number(r.backgroundRunsPerUserDay),
                .number(r.load.peakRequestsPerMinute.p50), .number(r.load.peakRequestsPerMinute.p95),
                .number(r.load.peakRequestsPerQuotaDay.p95), .number(r.freshness.staleShare), .number(r.freshness.errorShare),
                r.freshness.medianAgeMinutes.map(CSVWriter.Cell.number) ?? .empty,
                r.freshness.p95AgeMinutes.map(CSVWriter.Cell.number) ?? .empty,
                facts.tierNeeded(r).map(CSVWriter.Cell.text) ?? .empty,
            ]
            let perTier = tiers.map { name in
                r.quota.first { $0.tier == name }.map { CSVWriter.Cell.number($0.exceedProbability) } ?? .empty
            }
            func cell(_ v: Double?) -> CSVWriter.Cell { v.map(CSVWriter.Cell.number) ?? .empty }
            let extra = [
                cell(r.cost?.perMonth.mean), cell(r.cost?.perMonth.p5), cell(r.cost?.perMonth.p95), cell(r.cost?.perUserMonth),
                cell(r.outage?.extraRequestsPerMonth), cell(r.outage?.peakAfterOutagePerMinute.p95), cell(r.outage?.stormRatio),
                .number(r.freshness.overTargetShare), .text(r.exceedsEveryTier ? "true" : "false"),
                cell(r.outage?.peakAfterOutagePerMinute.mean),
            ]
            let v = verdicts.first { $0.design == r.design && $0.users == r.users }
            func text(_ t: String?) -> CSVWriter.Cell { t.map(CSVWriter.Cell.text) ?? .empty }
            let verdict = [
                text(v?.decidingTier), text(v?.decidingLimit), cell(v?.decidingValue), cell(v?.limitValue),
                cell(v?.exceedProbability), text(v?.cause),
                text(v.flatMap { $0.exceedsEveryTierWithoutOutage == nil ? nil : ($0.tierWithoutOutage ?? "none") }),
                cell(v?.decidingValueWithoutOutage),
                // The same figure as `stale_glance_share`, named so it is not read as the headline.
                .number(r.freshness.staleShare),
            ]
            let shared = [
                cell(r.backend?.requestsPerDay.mean), cell(r.backend?.peakRequestsPerMinute.mean), cell(r.backend?.costPerMonth),
                cell(r.pushes?.deliveredShare), cell(r.load.peakRequestsPerHour?.p95),
            ]
            w.appendRow(fixed + extra + verdict + shared + perTier)
        }
        return w.output
    }

    /// events.csv: one row per design, population and calendar event (nil without events).
    func events() -> String? {
        guard !facts.result.scenario.calendar.events.isEmpty else { return nil }
        var w = CSVWriter(header: [
            "design", "users", "event", "day", "requests_mean", "requests_p95", "cost_mean", "peak_rpm_mean", "peak_rpm_p95",
            "peak_tpm_mean", "tier_needed", "exceeds_every_tier", "backend_peak_rpm_mean", "peak_rph_p95",
        ])
        func cell(_ v: Double?) -> CSVWriter.Cell { v.map(CSVWriter.Cell.number) ?? .empty }
        for r in facts.result.results {
            for e in r.events {
                w.appendRow([
                    .text(r.design), .integer(r.users), .text(e.event), .integer(e.day), .number(e.requests.mean), .number(e.requests.p95),
                    cell(e.cost), .number(e.peakRequestsPerMinute.mean), .number(e.peakRequestsPerMinute.p95),
                    .number(e.peakTokensPerMinute),
                    e.requiredTier.map(CSVWriter.Cell.text) ?? .empty, .text(e.exceedsEveryTier ? "true" : "false"),
                    cell(e.backendPeakRequestsPerMinute?.mean), cell(e.peakRequestsPerHour?.p95),
                ])
            }
        }
        return w.output
    }

    /// design, users, tier, metric, statistic, value: every number of the JSON report, one per row.
    /// `metric` + `.` + `statistic` (without `.value`) is the path thresholds use.
    func tidy() -> String {
        var w = CSVWriter(header: ["design", "users", "tier", "metric", "statistic", "value"])
        let records = facts.metrics.records
        let ordered = records.filter { $0.labels["users"] != nil } + records.filter { $0.labels["users"] == nil }
        for record in ordered {
            let (metric, statistic) = record.split
            let users = record.labels["users"].flatMap { Int($0) }
            w.appendRow([
                .text(record.labels["design"] ?? ""), users.map(CSVWriter.Cell.integer) ?? .empty,
                record.labels["tier"].map(CSVWriter.Cell.text) ?? .empty,
                .text(metric), .text(statistic), .number(record.value),
            ])
        }
        return w.output
    }
}
