import Foundation
import WidgetQuotaModel
import WidgetQuotaSupport

/// Compares two JSON reports (BASE and HEAD) for a pull-request comment: per design and user count
/// the requests and cost a month, the quota tier needed, the share of glances older than the
/// freshness target and the busiest minute, each marked better, worse, unchanged or within the
/// Monte-Carlo noise; and the assumptions that changed, by design name and field.
///
/// Lower is better for every figure compared: fewer requests, lower cost, a cheaper tier, fewer
/// stale glances, a quieter busiest minute.
package struct ReportDiff: Sendable {
    /// A figure compared between the reports.
    package struct Metric: Sendable, Equatable {
        /// The path in a result row: a spread (`totalRequestsPerMonth`, with `mean`, `p5`…) or a share.
        package var path: String
        /// A short name for tables and the headline.
        package var title: String
        package var unit: Unit

        /// How a figure is written and how its noise is judged.
        package enum Unit: String, Sendable {
            /// A count with `mean`, `p5`, `p50`, `p95` across runs.
            case count
            /// Dollars with `mean`, `p5`, `p50`, `p95` across runs.
            case dollars
            /// A share of glances (0…1), one value per row.
            case share
        }
    }

    /// The figures compared, in table order.
    package static let metrics: [Metric] = [
        Metric(path: "totalRequestsPerMonth", title: "requests a month", unit: .count),
        Metric(path: "cost.perMonth", title: "cost a month", unit: .dollars),
        Metric(path: "freshness.overTargetShare", title: "stale glances", unit: .share),
        Metric(path: "load.peakRequestsPerMinute", title: "peak requests a minute", unit: .count),
    ]

    /// A figure's mean and, where the report has them, its percentiles across runs.
    package struct Estimate: Sendable, Equatable {
        package var mean: Double
        package var p5: Double?
        package var p50: Double?
        package var p95: Double?

        package init(mean: Double, p5: Double? = nil, p50: Double? = nil, p95: Double? = nil) {
            self.mean = mean
            self.p5 = p5
            self.p50 = p50
            self.p95 = p95
        }
    }

    /// How a figure or tier moved from BASE to HEAD.
    package enum Movement: String, Sendable, Equatable {
        /// Identical in both reports.
        case unchanged
        /// Different, but within the Monte-Carlo noise.
        case withinNoise
        /// A real change for the better (lower).
        case better
        /// A real change for the worse (higher).
        case worse
        /// Only in HEAD, or only in BASE.
        case added, removed

        /// True for `better` and `worse`.
        package var isChange: Bool { self == .better || self == .worse }
    }

    /// One figure of one design × user count in both reports.
    package struct Figure: Sendable, Equatable {
        package var metric: Metric
        package var base: Estimate?
        package var head: Estimate?
        package var movement: Movement

        /// HEAD − BASE of the means, when both exist.
        package var change: Double? { base.flatMap { b in head.map { $0.mean - b.mean } } }
        /// The change as a share of BASE; nil when BASE is 0 or missing.
        package var share: Double? { base.flatMap { b in b.mean != 0 ? change.map { $0 / b.mean } : nil } }
    }

    /// One design × user count.
    package struct Row: Sendable, Equatable {
        package var design: String
        package var users: Int
        /// The figures both or either report has, in `ReportDiff.metrics` order.
        package var figures: [Figure]
        package var baseTier: String?
        package var headTier: String?
        package var tierMovement: Movement

        /// The row's overall state: added or removed, a change when any figure or the tier
        /// changed, within noise when something moved only within the noise, else unchanged.
        package var movement: Movement {
            if figures.allSatisfy({ $0.base == nil }) { return .added }
            if figures.allSatisfy({ $0.head == nil }) { return .removed }
            let all = figures.map(\.movement) + [tierMovement]
            if all.contains(.worse) { return .worse }
            if all.contains(.better) { return .better }
            if all.contains(where: { $0 != .unchanged }) { return .withinNoise }
            return .unchanged
        }

        /// True when the row belongs to the table of changes (not the folded block).
        package var isChanged: Bool { movement != .unchanged && movement != .withinNoise }

        /// The figure of `metric`, when either report has it.
        package func figure(_ path: String) -> Figure? { figures.first { $0.metric.path == path } }
    }

    /// One scenario, method or design value that differs.
    package struct ChangedValue: Sendable, Equatable {
        /// The design the value belongs to, for a design's field.
        package var design: String?
        /// The field: a design's field name, or a dotted scenario path.
        package var path: String
        package var old: String?
        package var new: String?

        package init(design: String?, path: String, old: String?, new: String?) {
            self.design = design
            self.path = path
            self.old = old
            self.new = new
        }
    }

    /// How BASE and HEAD were drawn, which decides how noise is judged.
    package struct Sampling: Sendable, Equatable {
        package var seed: String?
        package var runs: Int?
        package var sampleUsers: Int?

        package init(json: JSONValue) {
            let method = json["method"]
            let horizon = json["scenario"]?["horizon"]
            seed = (method?["seed"] ?? horizon?["seed"]).flatMap { $0.number.map { NumberText.plain($0) } ?? $0.string }
            runs = (method?["runs"]?.number ?? horizon?["runs"]?.number).map { Int($0) }
            sampleUsers = (method?["sampleUsers"]?.number ?? horizon?["sampleUsers"]?.number).map { Int($0) }
        }
    }

    package let rows: [Row]
    package let changedAssumptions: [ChangedValue]
    /// The metrics either report has, in table order.
    package let comparedMetrics: [Metric]
    package let base: Sampling
    package let head: Sampling
    /// The freshness target in minutes (HEAD's, else BASE's), when a report states it.
    package let freshnessTargetMinutes: Double?

    /// True when both reports drew the same random numbers (same seed, runs and sample): the
    /// uncertain assumptions and users are the same, so only the change itself moves a figure.
    package var commonRandomNumbers: Bool {
        base.seed != nil && base == head
    }

    /// Compares `base` with `head`.
    package init(base: JSONValue, head: JSONValue) {
        let baseTable = MetricTable(json: base)
        let headTable = MetricTable(json: head)
        let baseTiers = TierReader(json: base, table: baseTable)
        let headTiers = TierReader(json: head, table: headTable)
        self.base = Sampling(json: base)
        self.head = Sampling(json: head)
        let noise = NoiseModel(base: self.base, head: self.head)
        let baseRows = ReportDiff.estimates(baseTable)
        let headRows = ReportDiff.estimates(headTable)
        var keys = baseRows.keys
        for key in headRows.keys where !keys.contains(key) { keys.append(key) }
        let present = ReportDiff.metrics.filter { m in
            keys.contains { baseRows.values[$0]?[m.path] != nil || headRows.values[$0]?[m.path] != nil }
        }
        comparedMetrics = present
        rows = keys.map { key in
            let figures = present.map { metric in
                let b = baseRows.values[key]?[metric.path]
                let h = headRows.values[key]?[metric.path]
                return Figure(
                    metric: metric, base: b, head: h,
                    movement: noise.movement(metric.unit, base: b, head: h, users: key.users))
            }
            let oldTier = baseTiers.needed(design: key.design, users: key.users)
            let newTier = headTiers.needed(design: key.design, users: key.users)
            return Row(
                design: key.design, users: key.users, figures: figures, baseTier: oldTier, headTier: newTier,
                tierMovement: ReportDiff.tierMovement(old: oldTier.map(baseTiers.rank), new: newTier.map(headTiers.rank)))
        }
        changedAssumptions = ReportDiff.changes(base: base, head: head)
        freshnessTargetMinutes =
            (head["scenario"]?["population"]?["freshnessTargetMinutes"]
            ?? base["scenario"]?["population"]?["freshnessTargetMinutes"])?.number
    }

    /// True when no compared figure, tier or assumption changed at all.
    package var isUnchanged: Bool {
        changedAssumptions.isEmpty && rows.allSatisfy { $0.movement == .unchanged }
    }

    /// The designs in report order.
    package var designs: [String] {
        var seen = [String]()
        for row in rows where !seen.contains(row.design) { seen.append(row.design) }
        return seen
    }

    struct Key: Hashable {
        var design: String
        var users: Int
    }

    /// Per design × user count, the estimate of each compared metric, keys in report order.
    static func estimates(_ table: MetricTable) -> (keys: [Key], values: [Key: [String: Estimate]]) {
        var keys = [Key]()
        var parts = [Key: [String: [String: Double]]]()
        for record in table.records where record.labels["tier"] == nil {
            guard let design = record.labels["design"], let users = record.labels["users"].flatMap({ Int($0) }) else { continue }
            let (metric, statistic) = record.split
            guard metrics.contains(where: { $0.path == metric }) else { continue }
            let key = Key(design: design, users: users)
            if parts[key] == nil { keys.append(key) }
            parts[key, default: [:]][metric, default: [:]][statistic] = record.value
        }
        var values = [Key: [String: Estimate]]()
        for (key, byMetric) in parts {
            for (metric, stats) in byMetric {
                guard let mean = stats["mean"] ?? stats["value"] else { continue }
                values[key, default: [:]][metric] = Estimate(mean: mean, p5: stats["p5"], p50: stats["p50"], p95: stats["p95"])
            }
        }
        return (keys, values)
    }

    static func tierMovement(old: Int?, new: Int?) -> Movement {
        switch (old, new) {
        case (nil, nil): return .unchanged
        case (nil, _): return .added
        case (_, nil): return .removed
        case (let o?, let n?): return n == o ? .unchanged : (n < o ? .better : .worse)
        }
    }

    /// Scenario, method and design values that differ between the two reports. A design's
    /// values are compared field by field under its name; a preset the scenario file does not
    /// override has its built-in values.
    package static func changes(base: JSONValue, head: JSONValue) -> [ChangedValue] {
        func leaves(_ json: JSONValue) -> [(path: String, value: String)] {
            // The price table is an assumption too; each result row repeats it.
            let price = (json["results"]?.array?.first?["cost"]?.leaves(prefix: "prices") ?? []).filter {
                ["prices.inputCostPerToken", "prices.outputCostPerToken", "prices.model", "prices.priceSource"].contains($0.path)
            }
            var scenario = json["scenario"]
            if case .object(var members)? = scenario {
                members["designs"] = nil
                scenario = .object(members)
            }
            return (scenario?.leaves(prefix: "scenario") ?? [])
                + (json["method"]?.leaves(prefix: "method").filter { $0.path != "method.description" } ?? []) + price
        }
        let old = collapsingLists(leaves(base))
        let new = collapsingLists(leaves(head))
        let oldMap = Dictionary(old, uniquingKeysWith: { a, _ in a })
        let newMap = Dictionary(new, uniquingKeysWith: { a, _ in a })
        var paths = old.map(\.path)
        for item in new where oldMap[item.path] == nil { paths.append(item.path) }
        let general = paths.compactMap { path in
            oldMap[path] == newMap[path]
                ? nil
                : ChangedValue(
                    design: nil, path: path.hasPrefix("scenario.") ? String(path.dropFirst(9)) : path,
                    old: oldMap[path], new: newMap[path])
        }
        return designChanges(base: base, head: head) + general
    }

    /// Fields of a design that describe it rather than set its behaviour.
    static let descriptiveFields: Set<String> = ["name", "summary", "source"]

    /// The design fields that differ, by design name: each report's own design, else the preset.
    static func designChanges(base: JSONValue, head: JSONValue) -> [ChangedValue] {
        func own(_ json: JSONValue) -> [(name: String, value: JSONValue)] {
            (json["scenario"]?["designs"]?.array ?? []).compactMap { d in d["name"]?.string.map { ($0, d) } }
        }
        let baseOwn = own(base)
        let headOwn = own(head)
        var names = baseOwn.map(\.name)
        for item in headOwn where !names.contains(item.name) { names.append(item.name) }
        var out = [ChangedValue]()
        for name in names {
            // A field the file leaves out keeps the preset's value, as the scenario loader does.
            let preset = DesignPresets.named(name).flatMap { try? JSONValue.of($0) }
            let presetLeaves = collapsingLists(preset?.leaves() ?? [])
            func fields(_ own: JSONValue?) -> [(path: String, value: String)] {
                let mine = collapsingLists(own?.leaves() ?? [])
                let given = Set(mine.map(\.path))
                return (presetLeaves.filter { !given.contains($0.path) } + mine).filter { !descriptiveFields.contains($0.path) }
                    .sorted { $0.path < $1.path }
            }
            let oldLeaves = fields(baseOwn.first { $0.name == name }?.value)
            let newLeaves = fields(headOwn.first { $0.name == name }?.value)
            let oldMap = Dictionary(oldLeaves, uniquingKeysWith: { a, _ in a })
            let newMap = Dictionary(newLeaves, uniquingKeysWith: { a, _ in a })
            var fields = oldLeaves.map(\.path)
            for item in newLeaves where oldMap[item.path] == nil { fields.append(item.path) }
            for field in fields where oldMap[field] != newMap[field] {
                out.append(ChangedValue(design: name, path: field, old: oldMap[field], new: newMap[field]))
            }
        }
        return out
    }

    /// Lists of plain values (`method.designs[0]`, `[1]`, ...) as one value each (`method.designs`:
    /// "a, b, c"), so that a design added at the front reads as that, not as every later index
    /// changing. Lists of objects keep their indexed paths.
    static func collapsingLists(_ leaves: [(path: String, value: String)]) -> [(path: String, value: String)] {
        var out = [(path: String, value: String)]()
        var listIndex = [String: Int]()
        for leaf in leaves {
            guard leaf.path.hasSuffix("]"), let open = leaf.path.lastIndex(of: "["),
                Int(leaf.path[leaf.path.index(after: open)..<leaf.path.index(before: leaf.path.endIndex)]) != nil
            else {
                out.append(leaf)
                continue
            }
            let list = String(leaf.path[..<open])
            if let i = listIndex[list] {
                out[i].value += ", " + leaf.value
            } else {
                listIndex[list] = out.count
                out.append((list, leaf.value))
            }
        }
        return out
    }
}

/// Decides whether a difference between two reports' figures is a change or Monte-Carlo noise.
///
/// - Same seed, runs and sample (common random numbers): both reports drew the same uncertain
///   assumptions and users, so the run-to-run spread is shared and cancels in the difference. A
///   figure with percentiles changed when its mean and every percentile (p5, p50, p95) moved the
///   same way; a share changed when the difference exceeds twice its standard error between
///   users (at most √(p(1−p) / (sample users × runs)) per report: shares of glances are tallied
///   over the whole sample, whatever the row's user count).
/// - Otherwise the runs are independent: a figure with percentiles is within noise when the two
///   p5–p95 ranges across runs overlap; a share when the difference is within twice its standard
///   error between runs (at most √(p(1−p) / runs) per report: a share varies at most that much).
package struct NoiseModel: Sendable {
    let common: Bool
    let baseRuns: Double
    let headRuns: Double
    let baseSample: Double
    let headSample: Double

    package init(base: ReportDiff.Sampling, head: ReportDiff.Sampling) {
        common = base.seed != nil && base == head
        baseRuns = Double(max(base.runs ?? 1, 1))
        headRuns = Double(max(head.runs ?? 1, 1))
        baseSample = Double(max(base.sampleUsers ?? 1, 1))
        headSample = Double(max(head.sampleUsers ?? 1, 1))
    }

    package func movement(
        _ unit: ReportDiff.Metric.Unit, base: ReportDiff.Estimate?, head: ReportDiff.Estimate?, users: Int
    ) -> ReportDiff.Movement {
        guard let base else { return head == nil ? .unchanged : .added }
        guard let head else { return .removed }
        if base == head || base.mean == head.mean { return .unchanged }
        let direction: ReportDiff.Movement = head.mean < base.mean ? .better : .worse
        if unit == .share {
            // Shares of glances are tallied over the whole sample, whatever the row's user count.
            let (nb, nh) = common ? (baseSample * baseRuns, headSample * headRuns) : (baseRuns, headRuns)
            let variance = { (p: Double, n: Double) in min(max(p, 0), 1) * (1 - min(max(p, 0), 1)) / n }
            let standardError = (variance(base.mean, nb) + variance(head.mean, nh)).squareRoot()
            return abs(head.mean - base.mean) <= 2 * standardError ? .withinNoise : direction
        }
        if common {
            let shifts = [
                head.p5.flatMap { h in base.p5.map { h - $0 } }, head.p50.flatMap { h in base.p50.map { h - $0 } },
                head.p95.flatMap { h in base.p95.map { h - $0 } },
            ].compactMap { $0 }
            let sign: Double = head.mean > base.mean ? 1 : -1
            return shifts.allSatisfy { $0 * sign > 0 } ? direction : .withinNoise
        }
        guard let b5 = base.p5, let b95 = base.p95, let h5 = head.p5, let h95 = head.p95 else { return direction }
        return max(b5, h5) <= min(b95, h95) ? .withinNoise : direction
    }
}

/// Reads, from a report's JSON, which quota tier each design × user count needs: the row's
/// `requiredTier` when the report has it, else the cheapest tier within the acceptable risk.
struct TierReader {
    let tiers: [String]
    let risk: Double
    let table: MetricTable
    let rows: [JSONValue]

    init(json: JSONValue, table: MetricTable) {
        let quotas = json["scenario"]?["quotas"]
        tiers = quotas?["tiers"]?.array?.compactMap { $0["name"]?.string } ?? []
        risk = quotas?["acceptableRisk"]?.number ?? 0.05
        rows = json["results"]?.array ?? []
        self.table = table
    }

    func needed(design: String, users: Int) -> String? {
        guard !tiers.isEmpty else { return nil }
        let row = rows.first { $0["design"]?.string == design && $0["users"]?.number == Double(users) }
        if let required = row?["requiredTier"] { return required.string ?? "above " + tiers.last! }
        let rows = table.records(metric: "quota.exceedProbability", matching: [("design", design), ("users", String(users))])
        guard !rows.isEmpty else { return nil }
        for tier in tiers where (rows.first { $0.labels["tier"] == tier }?.value ?? 1) <= risk { return tier }
        return "above " + tiers.last!
    }

    /// A tier's place from the cheapest (0); "above" the last tier ranks after every tier.
    func rank(_ tier: String) -> Int {
        tiers.firstIndex(of: tier) ?? tiers.count
    }
}
