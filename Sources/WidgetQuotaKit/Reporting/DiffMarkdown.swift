import Foundation

/// A diff as Markdown, for a pull-request comment or `$GITHUB_STEP_SUMMARY`.
extension ReportDiff {
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
                if let s = row.share {
                    share = ReportFormat.signed(s) { NumberText.percent($0) }
                } else {
                    share = row.change == 0 ? NumberText.percent(0) : "–"
                }
                let tier = row.oldTier == row.newTier ? (row.newTier ?? "–") : "\(row.oldTier ?? "–") → **\(row.newTier ?? "–")**"
                let old = row.old.map { format($0) } ?? "–"
                let new = row.new.map { format($0) } ?? "–"
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
        let added = moved.filter { $0.old == nil }.count
        let removed = moved.filter { $0.new == nil }.count
        guard let largest = common.max(by: { abs($0.share ?? .infinity) < abs($1.share ?? .infinity) }) ?? moved.first else {
            // Requests held: say what did move (cost, the tier needed), then the assumptions.
            var parts = ["Requests are unchanged"]
            for table in tables.dropFirst() {
                let changed = table.rows.filter { ($0.change ?? 1) != 0 }
                guard !changed.isEmpty else { continue }
                var text = "\(table.title.lowercased()) changed in \(changed.count) of \(table.rows.count) rows"
                if let big = changed.filter({ $0.share != nil }).max(by: { abs($0.share!) < abs($1.share!) }) {
                    text +=
                        " (largest: \(big.design) at \(ReportFormat.users(big.users)) users, \(ReportFormat.signed(big.share!) { NumberText.percent($0) }))"
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
        var text =
            shared.isEmpty
            ? "No design × user row is in both reports"
            : "\(common.count) of the \(shared.count) design × user rows both reports have changed"
        if added + removed > 0 { text += "; \(added) new in head, \(removed) removed in head" }
        text += ". Largest: **\(largest.design)** at "
        text += "\(ReportFormat.users(largest.users)) user\(largest.users == 1 ? "" : "s"), "
        if let share = largest.share {
            text +=
                "\(ReportFormat.signed(share) { NumberText.percent($0) }) (\(largest.old.map(ReportFormat.whole) ?? "–") → \(largest.new.map(ReportFormat.whole) ?? "–") requests a month)."
        } else {
            text += largest.old == nil ? "new in head." : (largest.new == nil ? "removed in head." : "from 0.")
        }
        let tierMoves = requests.rows.filter { $0.oldTier != $0.newTier && $0.old != nil && $0.new != nil }
        if !tierMoves.isEmpty { text += " \(tierMoves.count) row(s) now need a different quota tier." }
        return text
    }
}
