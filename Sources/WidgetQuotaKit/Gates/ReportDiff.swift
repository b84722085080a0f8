import Foundation

/// Compares two JSON reports (baseline and proposed) for a pull-request comment: per design and
/// user count the old and new monthly requests (and cost, when both have it), the change, the
/// quota tier each needs, and the assumptions that changed.
public struct ReportDiff: Sendable {
    /// One design × user count of one metric.
    public struct Row: Sendable, Equatable {
        public var design: String
        public var users: Int
        public var old: Double?
        public var new: Double?
        public var oldTier: String?
        public var newTier: String?

        /// new − old, when both exist.
        public var change: Double? { old.flatMap { o in new.map { $0 - o } } }
        /// The change as a share of old; nil when old is 0 or missing.
        public var share: Double? { old.flatMap { o in o != 0 ? change.map { $0 / o } : nil } }
    }

    /// One scenario or method value that differs.
    public struct ChangedValue: Sendable, Equatable {
        public var path: String
        public var old: String?
        public var new: String?
    }

    /// Metrics compared, in table order: (path, title, format).
    static let metrics: [(path: String, title: String, dollars: Bool)] = [
        ("totalRequestsPerMonth.mean", "Requests per month", false),
        ("cost.perMonth.mean", "Cost per month", true),
    ]

    public let tables: [(title: String, dollars: Bool, rows: [Row])]
    public let changedAssumptions: [ChangedValue]

    /// Compares `base` with `head`.
    public init(base: JSONValue, head: JSONValue) {
        let baseTable = MetricTable(json: base)
        let headTable = MetricTable(json: head)
        let baseTiers = TierReader(json: base, table: baseTable)
        let headTiers = TierReader(json: head, table: headTable)
        var tables = [(title: String, dollars: Bool, rows: [Row])]()
        for metric in ReportDiff.metrics {
            let old = ReportDiff.values(metric.path, in: baseTable)
            let new = ReportDiff.values(metric.path, in: headTable)
            guard !old.isEmpty || !new.isEmpty else { continue }
            var keys = old.map(\.key)
            for item in new where !keys.contains(where: { $0 == item.key }) { keys.append(item.key) }
            let rows = keys.map { key in
                Row(
                    design: key.design, users: key.users,
                    old: old.first { $0.key == key }?.value, new: new.first { $0.key == key }?.value,
                    oldTier: baseTiers.needed(design: key.design, users: key.users),
                    newTier: headTiers.needed(design: key.design, users: key.users))
            }
            tables.append((metric.title, metric.dollars, rows))
        }
        self.tables = tables
        self.changedAssumptions = ReportDiff.changes(base: base, head: head)
    }

    struct Key: Equatable {
        var design: String
        var users: Int
    }

    static func values(_ metric: String, in table: MetricTable) -> [(key: Key, value: Double)] {
        table.records.compactMap { r in
            guard r.metric == metric, let d = r.labels["design"], let u = r.labels["users"].flatMap({ Int($0) }) else { return nil }
            return (Key(design: d, users: u), r.value)
        }
    }

    /// Scenario and method values that differ between the two reports.
    static func changes(base: JSONValue, head: JSONValue) -> [ChangedValue] {
        func leaves(_ json: JSONValue) -> [(path: String, value: String)] {
            // The price table is an assumption too; each result row repeats it.
            let price = (json["results"]?.array?.first?["cost"]?.leaves(prefix: "prices") ?? []).filter {
                ["prices.inputCostPerToken", "prices.outputCostPerToken", "prices.model", "prices.priceSource"].contains($0.path)
            }
            return (json["scenario"]?.leaves(prefix: "scenario") ?? [])
                + (json["method"]?.leaves(prefix: "method").filter { $0.path != "method.description" } ?? []) + price
        }
        let old = collapsingLists(leaves(base))
        let new = collapsingLists(leaves(head))
        let oldMap = Dictionary(old, uniquingKeysWith: { a, _ in a })
        let newMap = Dictionary(new, uniquingKeysWith: { a, _ in a })
        var paths = old.map(\.path)
        for item in new where oldMap[item.path] == nil { paths.append(item.path) }
        return paths.compactMap { path in
            oldMap[path] == newMap[path]
                ? nil
                : ChangedValue(
                    path: path.hasPrefix("scenario.") ? String(path.dropFirst(9)) : path,
                    old: oldMap[path], new: newMap[path])
        }
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

    /// True when no compared figure and no assumption changed.
    public var isUnchanged: Bool {
        changedAssumptions.isEmpty && tables.allSatisfy { $0.rows.allSatisfy { $0.change == 0 && $0.oldTier == $0.newTier } }
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
}
