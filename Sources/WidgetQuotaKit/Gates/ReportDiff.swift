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
        let baseTable = MetricTable(json: base), headTable = MetricTable(json: head)
        let baseTiers = TierReader(json: base, table: baseTable), headTiers = TierReader(json: head, table: headTable)
        var tables = [(title: String, dollars: Bool, rows: [Row])]()
        for metric in ReportDiff.metrics {
            let old = ReportDiff.values(metric.path, in: baseTable), new = ReportDiff.values(metric.path, in: headTable)
            guard !old.isEmpty || !new.isEmpty else { continue }
            var keys = old.map(\.key)
            for item in new where !keys.contains(where: { $0 == item.key }) { keys.append(item.key) }
            let rows = keys.map { key in
                Row(design: key.design, users: key.users,
                    old: old.first { $0.key == key }?.value, new: new.first { $0.key == key }?.value,
                    oldTier: baseTiers.needed(design: key.design, users: key.users),
                    newTier: headTiers.needed(design: key.design, users: key.users))
            }
            tables.append((metric.title, metric.dollars, rows))
        }
        self.tables = tables
        self.changedAssumptions = ReportDiff.changes(base: base, head: head)
    }

    struct Key: Equatable { var design: String; var users: Int }

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
        let old = collapsingLists(leaves(base)), new = collapsingLists(leaves(head))
        let oldMap = Dictionary(old, uniquingKeysWith: { a, _ in a }), newMap = Dictionary(new, uniquingKeysWith: { a, _ in a })
        var paths = old.map(\.path)
        for item in new where oldMap[item.path] == nil { paths.append(item.path) }
        return paths.compactMap { path in
            oldMap[path] == newMap[path] ? nil : ChangedValue(path: path.hasPrefix("scenario.") ? String(path.dropFirst(9)) : path,
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
                  Int(leaf.path[leaf.path.index(after: open)..<leaf.path.index(before: leaf.path.endIndex)]) != nil else {
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

    /// Markdown for a pull-request comment or `$GITHUB_STEP_SUMMARY`.
    public func markdown(base baseName: String, head headName: String, thresholds: [ThresholdOutcome] = []) -> String {
        var md = "## WidgetQuota: \(baseName) → \(headName)\n\n"
        md += headline() + "\n"
        let footnote = changedAssumptions.isEmpty ? "" : "[^assumptions]"
        for table in tables {
            md += "\n### \(table.title)\n\n"
            let withTier = table.title == tables.first?.title
            var t = MarkdownTable(["Design", "Users", "Base", "Head", "Change" + footnote, "Change %"] + (withTier ? ["Tier needed"] : []))
            let dollars = table.dollars
            let format: (Double) -> String = {
                dollars ? ReportFormat.money($0) : (abs($0) >= 100 ? ReportFormat.whole($0) : NumberText.human($0))
            }
            for row in table.rows {
                let change: String
                if let c = row.change { change = ReportFormat.signed(c, format) } else { change = row.old == nil ? "added" : "removed" }
                let share: String
                if let s = row.share { share = ReportFormat.signed(s) { NumberText.percent($0) } } else {
                    share = row.change == 0 ? NumberText.percent(0) : "–"
                }
                let tier = row.oldTier == row.newTier ? (row.newTier ?? "–") : "\(row.oldTier ?? "–") → **\(row.newTier ?? "–")**"
                let old = row.old.map { format($0) } ?? "–", new = row.new.map { format($0) } ?? "–"
                t.append([row.design, ReportFormat.users(row.users), old, new, change, share] + (withTier ? [tier] : []))
            }
            md += t.markdown
        }
        if !thresholds.isEmpty { md += "\n" + ThresholdSection(outcomes: thresholds).markdown() }
        if !changedAssumptions.isEmpty {
            let list = changedAssumptions.map { "`\($0.path)`: \($0.old ?? "(absent)") → \($0.new ?? "(absent)")" }
            md += "\n[^assumptions]: Assumptions that changed: " + list.joined(separator: "; ") + ".\n"
        }
        return md
    }

    func headline() -> String {
        guard let requests = tables.first else { return "Neither report has results." }
        if isUnchanged { return "**No change**: every design and user count sends the same number of requests, and no assumption changed." }
        let moved = requests.rows.filter { ($0.change ?? 1) != 0 }
        // The largest change among rows both reports have; added or removed rows are counted apart.
        let shared = requests.rows.filter { $0.old != nil && $0.new != nil }
        let common = moved.filter { $0.old != nil && $0.new != nil }
        let added = moved.filter { $0.old == nil }.count, removed = moved.filter { $0.new == nil }.count
        guard let largest = common.max(by: { abs($0.share ?? .infinity) < abs($1.share ?? .infinity) }) ?? moved.first else {
            // Requests held: say what did move (cost, the tier needed), then the assumptions.
            var parts = ["Requests are unchanged"]
            for table in tables.dropFirst() {
                let changed = table.rows.filter { ($0.change ?? 1) != 0 }
                guard !changed.isEmpty else { continue }
                var text = "\(table.title.lowercased()) changed in \(changed.count) of \(table.rows.count) rows"
                if let big = changed.filter({ $0.share != nil }).max(by: { abs($0.share!) < abs($1.share!) }) {
                    text += " (largest: \(big.design) at \(ReportFormat.users(big.users)) users, \(ReportFormat.signed(big.share!) { NumberText.percent($0) }))"
                }
                parts.append(text)
            }
            let tiers = requests.rows.filter { $0.oldTier != $0.newTier }.count
            if tiers > 0 { parts.append("the tier needed moved in \(tiers) row\(tiers == 1 ? "" : "s")") }
            if !changedAssumptions.isEmpty {
                parts.append("\(changedAssumptions.count) assumption\(changedAssumptions.count == 1 ? "" : "s") changed (see the footnote)")
            }
            return parts.joined(separator: "; ") + "."
        }
        var text = shared.isEmpty ? "No design × user row is in both reports"
            : "\(common.count) of the \(shared.count) design × user rows both reports have changed"
        if added + removed > 0 { text += "; \(added) new in head, \(removed) removed in head" }
        text += ". Largest: **\(largest.design)** at "
        text += "\(ReportFormat.users(largest.users)) user\(largest.users == 1 ? "" : "s"), "
        if let share = largest.share {
            text += "\(ReportFormat.signed(share) { NumberText.percent($0) }) (\(largest.old.map(ReportFormat.whole) ?? "–") → \(largest.new.map(ReportFormat.whole) ?? "–") requests a month)."
        } else {
            text += largest.old == nil ? "new in head." : (largest.new == nil ? "removed in head." : "from 0.")
        }
        let tierMoves = requests.rows.filter { $0.oldTier != $0.newTier && $0.old != nil && $0.new != nil }
        if !tierMoves.isEmpty { text += " \(tierMoves.count) row(s) now need a different quota tier." }
        return text
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
