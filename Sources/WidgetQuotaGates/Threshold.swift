import Foundation
import WidgetQuotaSupport

/// A threshold to check against a report: `--fail-if` fails the run, `--warn-if` only warns.
public struct Threshold: Sendable, Equatable {
    /// What a breach does: `fail` fails the run, `warn` only reports it.
    public enum Severity: String, Sendable, Codable {
        /// Fail the run, or only warn.
        case fail, warn
    }

    /// The comparison.
    public var expression: ThresholdExpression
    /// What a breach does.
    public var severity: Severity

    /// A threshold that checks `expression` with `severity`.
    public init(expression: ThresholdExpression, severity: Severity) {
        self.expression = expression
        self.severity = severity
    }

    /// Parses `text` as a threshold of the given severity.
    public init(_ text: String, severity: Severity) throws {
        self.init(expression: try ThresholdExpression.parse(text), severity: severity)
    }
}

/// The result of checking one threshold against a report.
public struct ThresholdOutcome: Sendable, Equatable, Encodable {
    /// The expression as written.
    public var expression: String
    /// What a breach does.
    public var severity: Threshold.Severity
    /// The metric path the expression resolved to.
    public var metric: String
    /// Rows the selector matched.
    public var rowsChecked: Int
    /// The rows that breach it.
    public var violations: [Violation]

    package init(expression: String, severity: Threshold.Severity, metric: String, rowsChecked: Int, violations: [Violation]) {
        self.expression = expression
        self.severity = severity
        self.metric = metric
        self.rowsChecked = rowsChecked
        self.violations = violations
    }

    /// One row that violated the threshold.
    public struct Violation: Sendable, Equatable, Codable {
        /// Which row, e.g. `design=direct, users=1000`.
        public var row: String
        /// The row's value.
        public var value: Double

        package init(row: String, value: Double) {
            self.row = row
            self.value = value
        }
    }

    /// True when no matching row violated the threshold.
    public var passed: Bool { violations.isEmpty }
    /// True when this outcome should fail the run.
    public var failsRun: Bool { !passed && severity == .fail }

    /// A violating row's value as the report prints it: dollars for cost, percentages for shares.
    package func formattedValue(_ violation: Violation) -> String {
        ReportFormat.metric(metric, violation.value)
    }

    /// `passed`, `FAILED` or `warning`.
    public var verdict: String { passed ? "passed" : (severity == .fail ? "FAILED" : "warning") }

    enum CodingKeys: String, CodingKey { case expression, severity, metric, rowsChecked, violations, passed }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(expression, forKey: .expression)
        try c.encode(severity, forKey: .severity)
        try c.encode(metric, forKey: .metric)
        try c.encode(rowsChecked, forKey: .rowsChecked)
        try c.encode(violations, forKey: .violations)
        try c.encode(passed, forKey: .passed)
    }
}

/// Checks thresholds against a report's metrics.
package enum ThresholdEvaluator {
    /// Checks each threshold; an expression naming an unknown metric or matching no row is an error.
    package static func evaluate(_ thresholds: [Threshold], on table: MetricTable) throws -> [ThresholdOutcome] {
        try thresholds.map { try evaluate($0, on: table) }
    }

    /// Checks one threshold.
    package static func evaluate(_ threshold: Threshold, on table: MetricTable) throws -> ThresholdOutcome {
        let e = threshold.expression
        guard !e.comparesReports else { throw WidgetQuotaError.badExpression(expression: e.text, problem: needsTwoReports) }
        let metric: String
        do {
            metric = try table.resolve(e.metric)
        } catch let error as MetricTable.MetricError {
            throw WidgetQuotaError.badExpression(expression: e.text, problem: error.message)
        }
        let selector = e.selector.map { (key: $0.key, value: $0.value) }
        let rows = table.records(metric: metric, matching: selector)
        guard !rows.isEmpty else {
            throw WidgetQuotaError.badExpression(expression: e.text, problem: noMatch(metric: metric, selector: e.selector, table: table))
        }
        var violations = rows.filter { !$0.value.isNaN && e.op.holds($0.value, e.limit) }
        // Worst first: the largest value for > and >=, the smallest for < and <=.
        switch e.op {
        case .greater, .greaterOrEqual: violations.sort { $0.value > $1.value }
        case .less, .lessOrEqual: violations.sort { $0.value < $1.value }
        case .equal, .notEqual: break
        }
        return ThresholdOutcome(
            expression: e.text, severity: threshold.severity, metric: metric, rowsChecked: rows.count,
            violations: violations.map { .init(row: describe($0.labels), value: $0.value) })
    }

    /// Why `change(…)` and `tierChange(…)` cannot be checked against one report.
    package static let needsTwoReports =
        "change(…) and tierChange(…) compare two reports: use them with `widget-quota diff BASE.json HEAD.json`"

    /// Which row: its design, users, tier and (for a back-test) metric labels.
    static func describe(_ labels: [String: String]) -> String {
        ["design", "month", "users", "tier", "metric"].compactMap { key in labels[key].map { "\(key)=\($0)" } }.joined(separator: ", ")
    }

    /// Explains why a selector matched nothing, naming the label or value that does not exist.
    static func noMatch(metric: String, selector: [ThresholdExpression.LabelMatch], table: MetricTable) -> String {
        let rows = table.records.filter { $0.metric == metric }
        for item in selector {
            let keys = Set(rows.flatMap(\.labels.keys))
            guard keys.contains(item.key) else {
                let hint = Levenshtein.nearest(to: item.key, in: keys).map { "; did you mean \"\($0)\"?" } ?? ""
                return
                    "rows of \(metric) have no label \"\(item.key)\"\(hint) (labels: \(MetricTable.ordered(keys).joined(separator: ", ")))"
            }
            let values = rows.compactMap { $0.labels[item.key] }
            if !values.contains(where: { MetricTable.same($0, item.value) }) {
                var seen = [String]()
                for v in values where !seen.contains(v) { seen.append(v) }
                let hint = Levenshtein.nearest(to: item.value, in: seen).map { "; did you mean \"\($0)\"?" } ?? ""
                return "no row has \(item.key)=\(item.value)\(hint) (\(item.key) values in this report: \(seen.joined(separator: ", ")))"
            }
        }
        return "no row of \(metric) matches all of {\(selector.map { "\($0.key)=\($0.value)" }.joined(separator: ","))}"
    }
}
