import Foundation
import WidgetQuotaSimulation
import WidgetQuotaSupport

/// One number of a report, with the labels that say which design, population and tier it is for.
public struct MetricRecord: Sendable, Equatable {
    /// `design`, `users`, `method` and, for per-tier figures, `tier`.
    public var labels: [String: String]
    /// Dotted path into the result's JSON, e.g. `requestsPerUserMonth.p95`, `quota.exceedProbability`.
    public var metric: String
    /// The number.
    public var value: Double

    package init(labels: [String: String], metric: String, value: Double) {
        self.labels = labels
        self.metric = metric
        self.value = value
    }

    /// The metric without its statistic and the statistic (`mean`, `p95`…, or `value`).
    public var split: (metric: String, statistic: String) {
        if let dot = metric.lastIndex(of: "."), MetricTable.statistics.contains(String(metric[metric.index(after: dot)...])) {
            return (String(metric[..<dot]), String(metric[metric.index(after: dot)...]))
        }
        return (metric, "value")
    }
}

/// Every number of a report's JSON as labelled records: the common ground of the tidy CSV,
/// thresholds and `diff`, read from JSON so that reports from older or newer versions work too.
///
/// Rows come from `results` (labels: the row's text fields and `users`) and from any other
/// top-level list of objects that name a `design` (for example `headroom`, and `growth`, whose
/// months carry `month` and `users` labels). Inside a row, numbers
/// become metrics named by their dotted path; a list of objects (like `quota`) adds each
/// object's text fields (like `tier`) as labels.
public struct MetricTable: Sendable {
    /// Every record: rows in the order of their lists, keys in sorted order.
    public let records: [MetricRecord]

    /// Statistic names that end a metric path.
    static let statistics: Set<String> = ["mean", "p5", "p50", "p95", "p99"]

    /// Friendly names for common metrics.
    public static let aliases: [String: String] = [
        "quotaExceedProbability": "quota.exceedProbability",
        "costPerMonth": "cost.perMonth.mean",
        "costPerUserMonth": "cost.perUserMonth",
        "requestsPerMonth": "totalRequestsPerMonth.mean",
        "headroom": "headroom.maxUsers",
        "growth.costPerMonth": "growth.months.cost",
        "growth.requestsPerMonth": "growth.months.requests",
        "growth.cumulativeCost": "growth.months.cumulativeCost",
    ]

    package init(records: [MetricRecord]) { self.records = records }

    /// The records of a report's JSON tree.
    package init(json: JSONValue) {
        var records = [MetricRecord]()
        guard case .object(let top) = json else {
            self.records = []
            return
        }
        for key in top.keys.sorted() where key != "scenario" && key != "typicalDay" {
            guard let rows = top[key]?.array else { continue }
            let prefix = key == "results" ? "" : key
            for row in rows {
                guard case .object(var members) = row, key == "results" || members["design"] != nil else { continue }
                // No population up to the largest searched breaks the tier: the headroom is
                // unlimited, which a threshold must see as a number (above any limit).
                if key == "headroom", members["maxUsers"] == nil, members["largestPopulationSearched"] != nil {
                    members["maxUsers"] = .number(.infinity)
                }
                MetricTable.collect(members, path: prefix, labels: [:], into: &records)
            }
        }
        self.records = records
    }

    /// The records of a simulation result.
    package init(_ result: SimulationResult) throws {
        self.init(json: try JSONValue.of(result))
    }

    private static func collect(
        _ members: [String: JSONValue], path: String, labels inherited: [String: String],
        into records: inout [MetricRecord]
    ) {
        var labels = inherited
        for (key, value) in members {
            if let s = value.string, MetricTable.nonFinite(s) == nil { labels[key] = s }
            if key == "users" || key == "month", let n = value.number { labels[key] = NumberText.plain(n) }
        }
        for key in members.keys.sorted() where key != "users" && key != "month" {
            let name = path.isEmpty ? key : path + "." + key
            switch members[key]! {
            case .number(let v):
                records.append(MetricRecord(labels: labels, metric: name, value: v))
            case .string(let text) where MetricTable.nonFinite(text) != nil:
                // JSON has no NaN or infinity: reports write them as strings; they are values, not labels.
                records.append(MetricRecord(labels: labels, metric: name, value: MetricTable.nonFinite(text)!))
            case .object(let inner):
                collect(inner, path: name, labels: labels, into: &records)
            case .array(let items):
                for case .object(let inner) in items { collect(inner, path: name, labels: labels, into: &records) }
            default:
                break
            }
        }
    }

    /// The value of a non-finite number as reports write it ("NaN", "Infinity", "-Infinity").
    static func nonFinite(_ text: String) -> Double? {
        switch text {
        case "NaN": return .nan
        case "Infinity": return .infinity
        case "-Infinity": return -.infinity
        default: return nil
        }
    }

    /// Every metric name, sorted.
    public var metricNames: [String] { Array(Set(records.map(\.metric))).sorted() }

    /// The label keys that occur, in reading order (`design`, `users`, `tier`, then the rest).
    public var labelKeys: [String] { MetricTable.ordered(Set(records.flatMap(\.labels.keys))) }

    static func ordered(_ keys: Set<String>) -> [String] {
        let first = ["design", "users", "tier"].filter(keys.contains)
        return first + keys.subtracting(first).sorted()
    }

    /// The metric a user's name stands for: an alias, an exact path, a path that ends with the name
    /// (`staleShare` → `freshness.staleShare`), or an object's mean (`totalRequestsPerMonth`).
    package func resolve(_ name: String) throws -> String {
        let known = Set(records.map(\.metric))
        // metrics.csv names a single figure's statistic `value`: its metric + "." + statistic is a path too.
        if name.hasSuffix(".value"), !known.contains(name) {
            let bare = String(name.dropLast(".value".count))
            if known.contains(MetricTable.aliases[bare] ?? bare) { return try resolve(bare) }
        }
        let wanted = MetricTable.aliases[name] ?? name
        if known.contains(wanted) { return wanted }
        for candidate in [wanted, wanted + ".mean"] {
            if known.contains(candidate) { return candidate }
            let matches = known.filter { $0.hasSuffix("." + candidate) }.sorted()
            if matches.count == 1 { return matches[0] }
            if matches.count > 1 {
                throw MetricError.ambiguous(name, candidates: matches)
            }
        }
        let shortNames = known.flatMap { metric in
            metric.split(separator: ".").indices.map { metric.split(separator: ".").dropFirst($0).joined(separator: ".") }
        }
        let suggestion = Levenshtein.nearest(to: name, in: Set(shortNames).union(MetricTable.aliases.keys))
        throw MetricError.unknown(name, suggestion: suggestion)
    }

    /// Records of `metric` (already resolved) that carry every label in `selector`.
    package func records(metric: String, matching selector: [(key: String, value: String)]) -> [MetricRecord] {
        records.filter { record in
            record.metric == metric
                && selector.allSatisfy { item in
                    record.labels[item.key].map { MetricTable.same($0, item.value) } ?? false
                }
        }
    }

    /// Label values compare as numbers when both are numbers (`1000` = `1_000` = `1e3`), else as text.
    static func same(_ a: String, _ b: String) -> Bool {
        if let x = Double(a.replacingOccurrences(of: "_", with: "")), let y = Double(b.replacingOccurrences(of: "_", with: "")) {
            return x == y
        }
        return a == b
    }

    /// Why a metric name could not be resolved.
    package enum MetricError: Error, Equatable {
        case unknown(String, suggestion: String?)
        case ambiguous(String, candidates: [String])

        package var message: String {
            switch self {
            case .unknown(let name, let suggestion):
                return "unknown metric \"\(name)\"" + (suggestion.map { "; did you mean \"\($0)\"?" } ?? "")
                    + " (metrics are dotted paths into a result row of the JSON report, e.g. requestsPerUserMonth.p95)"
            case .ambiguous(let name, let candidates):
                return "metric \"\(name)\" is ambiguous: it could be \(candidates.joined(separator: ", "))"
            }
        }
    }
}
