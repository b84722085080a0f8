import Foundation
import WidgetQuotaSupport

/// The result of checking one `change(…)` or `tierChange(…)` threshold against two reports.
public struct ChangeOutcome: Sendable, Equatable, Encodable {
    /// The expression as written.
    public var expression: String
    /// What a violation does.
    public var severity: Threshold.Severity
    /// The metric path the expression resolved to (`tier` for `tierChange`).
    public var metric: String
    /// True when the change is relative to BASE (the limit was written with `%`).
    public var relative: Bool
    /// Every row both reports have that the selector matches, violations first (worst first).
    public var rows: [Row]

    /// One design × user count (× tier) compared.
    public struct Row: Sendable, Equatable, Encodable {
        /// Which row, e.g. `design=direct, users=1000`.
        public var row: String
        /// BASE's value; for `tierChange`, the tiers' names are in `baseText` and `headText`.
        public var base: Double
        /// HEAD's value.
        public var head: Double
        /// BASE's tier, for `tierChange`.
        public var baseText: String?
        /// HEAD's tier, for `tierChange`.
        public var headText: String?
        /// The measured change: HEAD − BASE, or (HEAD − BASE) / BASE when relative.
        public var change: Double
        /// True when the comparison holds: the bad case.
        public var violated: Bool
        /// True when the difference is within the Monte-Carlo noise (the gate still applies).
        public var withinNoise: Bool
    }

    /// True when no row violated the threshold.
    public var passed: Bool { !rows.contains(where: \.violated) }
    /// True when this outcome should fail the run.
    public var failsRun: Bool { !passed && severity == .fail }
    /// `passed`, `FAILED` or `warning`.
    public var verdict: String { passed ? "passed" : (severity == .fail ? "FAILED" : "warning") }
    /// The row to show: the worst violation, or the largest change when none violated.
    public var worst: Row? { rows.first }
    /// Rows in violation.
    public var violations: Int { rows.filter(\.violated).count }

    /// A value of this gate's metric as reports print it.
    package func formatted(_ value: Double) -> String {
        metric == ThresholdExpression.tierMetric ? NumberText.plain(value) : ReportFormat.metric(metric, value)
    }

    /// A change as the gate measures it: `+12.5%`, `+0.0512` (five points of a share: `+5.1 pts`), `+1 tier`.
    package func formattedChange(_ change: Double) -> String {
        if metric == ThresholdExpression.tierMetric {
            let n = Int(change)
            return (n > 0 ? "+" : "") + "\(n) tier" + (abs(n) == 1 ? "" : "s")
        }
        if relative { return ReportFormat.signed(change) { NumberText.percent($0) } }
        let last = metric.split(separator: ".").last.map(String.init) ?? metric
        if last.hasSuffix("Share") || last.hasSuffix("Probability") || last.hasSuffix("Rate") {
            return ReportFormat.signed(change * 100) { NumberText.fixed($0, digits: 1) } + " pts"
        }
        return ReportFormat.signed(change) { ReportFormat.metric(metric, $0) }
    }
}

/// Checks `change(…)` and `tierChange(…)` thresholds against BASE and HEAD.
package enum ChangeEvaluator {
    /// Checks each threshold; a metric unknown to either report, or a selector matching no row
    /// both reports have, is an error.
    package static func evaluate(_ thresholds: [Threshold], base: JSONValue, head: JSONValue) throws -> [ChangeOutcome] {
        guard !thresholds.isEmpty else { return [] }
        let baseTable = MetricTable(json: base)
        let headTable = MetricTable(json: head)
        let diff = ReportDiff(base: base, head: head)
        let noise = NoiseModel(base: diff.base, head: diff.head)
        return try thresholds.map { threshold in
            switch threshold.expression.measure {
            case .value:
                throw WidgetQuotaError.badExpression(expression: threshold.expression.text, problem: "not a change")
            case .change:
                return try change(threshold, base: baseTable, head: headTable, noise: noise)
            case .tierChange:
                return try tierChange(threshold, base: (base, baseTable), head: (head, headTable), diff: diff)
            }
        }
    }

    static func change(_ threshold: Threshold, base: MetricTable, head: MetricTable, noise: NoiseModel) throws -> ChangeOutcome {
        let e = threshold.expression
        let metric: String
        do {
            metric = try head.resolve(e.metric)
            _ = try base.resolve(e.metric)
        } catch let error as MetricTable.MetricError {
            throw WidgetQuotaError.badExpression(expression: e.text, problem: error.message)
        }
        let selector = e.selector.map { (key: $0.key, value: $0.value) }
        let headRows = head.records(metric: metric, matching: selector)
        guard !headRows.isEmpty else {
            throw WidgetQuotaError.badExpression(
                expression: e.text, problem: ThresholdEvaluator.noMatch(metric: metric, selector: e.selector, table: head))
        }
        let baseRows = base.records(metric: metric, matching: selector)
        var rows = [ChangeOutcome.Row]()
        for h in headRows {
            guard
                let b = baseRows.first(where: {
                    $0.labels["design"] == h.labels["design"] && $0.labels["users"] == h.labels["users"]
                        && $0.labels["tier"] == h.labels["tier"]
                })
            else { continue }
            let difference = h.value - b.value
            let measured: Double
            if e.limitIsPercent {
                measured = b.value != 0 ? difference / abs(b.value) : (difference == 0 ? 0 : (difference > 0 ? .infinity : -.infinity))
            } else {
                measured = difference
            }
            rows.append(
                ChangeOutcome.Row(
                    row: ThresholdEvaluator.describe(h.labels), base: b.value, head: h.value, change: measured,
                    violated: !measured.isNaN && e.op.holds(measured, e.limit),
                    withinNoise: withinNoise(metric: metric, labels: h.labels, base: base, head: head, noise: noise)))
        }
        guard !rows.isEmpty else {
            throw WidgetQuotaError.badExpression(
                expression: e.text,
                problem: "no row of \(metric) matching the selector is in both reports (BASE has \(baseRows.count), HEAD \(headRows.count))"
            )
        }
        return ChangeOutcome(
            expression: e.text, severity: threshold.severity, metric: metric, relative: e.limitIsPercent,
            rows: ordered(rows, op: e.op))
    }

    static func tierChange(
        _ threshold: Threshold, base: (json: JSONValue, table: MetricTable), head: (json: JSONValue, table: MetricTable),
        diff: ReportDiff
    ) throws -> ChangeOutcome {
        let e = threshold.expression
        let baseTiers = TierReader(json: base.json, table: base.table)
        let headTiers = TierReader(json: head.json, table: head.table)
        for item in e.selector where item.key != "design" && item.key != "users" {
            throw WidgetQuotaError.badExpression(
                expression: e.text, problem: "tierChange selects rows by design and users; there is no label \"\(item.key)\" here")
        }
        let matching = diff.rows.filter { row in
            e.selector.allSatisfy { item in
                MetricTable.same(item.key == "design" ? row.design : String(row.users), item.value)
            }
        }
        let rows = matching.compactMap { row -> ChangeOutcome.Row? in
            guard let old = row.baseTier, let new = row.headTier else { return nil }
            let measured = Double(headTiers.rank(new) - baseTiers.rank(old))
            return ChangeOutcome.Row(
                row: "design=\(row.design), users=\(row.users)", base: Double(baseTiers.rank(old)), head: Double(headTiers.rank(new)),
                baseText: old, headText: new, change: measured, violated: e.op.holds(measured, e.limit), withinNoise: false)
        }
        guard !rows.isEmpty else {
            let designs = diff.designs.joined(separator: ", ")
            throw WidgetQuotaError.badExpression(
                expression: e.text,
                problem: diff.rows.contains { $0.baseTier != nil }
                    ? "no design × user row in both reports matches the selector (designs: \(designs))"
                    : "the reports name no quota tiers")
        }
        return ChangeOutcome(
            expression: e.text, severity: threshold.severity, metric: ThresholdExpression.tierMetric, relative: false,
            rows: ordered(rows, op: e.op))
    }

    /// Violations first, worst first; then the rest by the size of their change.
    static func ordered(_ rows: [ChangeOutcome.Row], op: ThresholdExpression.Operator) -> [ChangeOutcome.Row] {
        let descending = op != .less && op != .lessOrEqual
        return rows.enumerated().sorted { a, b in
            if a.element.violated != b.element.violated { return a.element.violated }
            let x = a.element.change
            let y = b.element.change
            if x != y, !x.isNaN, !y.isNaN { return descending ? x > y : x < y }
            return a.offset < b.offset
        }.map(\.element)
    }

    /// Whether a row's change is within the noise, judged as `diff` does for the metric's spread
    /// (a mean or percentile with its siblings) or share; other metrics are never noise.
    static func withinNoise(metric: String, labels: [String: String], base: MetricTable, head: MetricTable, noise: NoiseModel) -> Bool {
        let split = MetricRecord(labels: labels, metric: metric, value: 0).split
        let selector = labels.filter { ["design", "users", "tier"].contains($0.key) }.map { (key: $0.key, value: $0.value) }
        func estimate(_ table: MetricTable) -> ReportDiff.Estimate? {
            func value(_ statistic: String) -> Double? {
                let path = statistic == "value" ? split.metric : split.metric + "." + statistic
                return table.records(metric: path, matching: selector).first?.value
            }
            if split.statistic == "value" { return value("value").map { ReportDiff.Estimate(mean: $0) } }
            return value(split.statistic).map { ReportDiff.Estimate(mean: $0, p5: value("p5"), p50: value("p50"), p95: value("p95")) }
        }
        let last = split.metric.split(separator: ".").last.map(String.init) ?? split.metric
        let unit: ReportDiff.Metric.Unit
        if last.hasSuffix("Share") {
            unit = .share
        } else if split.statistic != "value" {
            unit = .count
        } else {
            return false
        }
        let users = labels["users"].flatMap { Int($0) } ?? 1
        return noise.movement(unit, base: estimate(base), head: estimate(head), users: users) == .withinNoise
    }
}
