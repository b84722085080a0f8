import Foundation
import WidgetQuotaGates
import WidgetQuotaSupport

/// The pull-request comment for a `LogDiff`, laid out as `diff` lays out two simulation reports:
/// a headline with every figure's better-or-worse, one table of changed devices, the rest folded
/// in `<details>`, and the inputs that changed.
extension LogDiff {
    /// The comment as Markdown, cut to `limit` characters with a note when longer.
    package func markdown(base baseName: String, head headName: String, limit: Int = ReportDiff.commentLimit) -> String {
        var top = ReportDiff.commentMarker + "\n## WidgetQuota logs: \(baseName) → \(headName)\n\n"
        top += headline()
        let changedDevices = devices.filter(\.isChanged)
        let unchanged = devices.filter { !$0.isChanged }
        var changed = [String]()
        if !changedDevices.isEmpty {
            var table = MarkdownTable(["Device"] + LogDiff.deviceMetrics.map { $0.title.prefix(1).uppercased() + $0.title.dropFirst() })
            for row in changedDevices {
                if row.movement == .added || row.movement == .removed {
                    let values = row.figures.map { f in (f.head ?? f.base).map { DiffComment.value(f.metric.unit, $0.mean) } ?? "–" }
                    table.append(["\(row.name) (\(DiffComment.word(row.movement)))"] + values)
                } else {
                    table.append([row.name] + row.figures.map { DiffComment.comparison($0) })
                }
            }
            changed =
                ["### Changed devices\n\n"]
                + table.markdown.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { String($0) + "\n" }
        }
        var folded = [String]()
        if !unchanged.isEmpty {
            var table = MarkdownTable(["Device"] + LogDiff.deviceMetrics.map { $0.title.prefix(1).uppercased() + $0.title.dropFirst() })
            for row in unchanged {
                table.append(
                    [row.name] + row.figures.map { f in (f.head ?? f.base).map { DiffComment.value(f.metric.unit, $0.mean) } ?? "–" })
            }
            folded = [
                "<details><summary>\(unchanged.count) unchanged device\(unchanged.count == 1 ? "" : "s")</summary>\n\n" + table.markdown
                    + "\n</details>\n"
            ]
        }
        var tail = ""
        if !changedInputs.isEmpty {
            tail += "\n### Inputs that changed\n\n"
            for change in changedInputs { tail += "- `\(change.path)`: \(change.old ?? "(absent)") → \(change.new ?? "(absent)")\n" }
        }
        tail += "\n<sub>Log analyses are measurements of the devices' logs, not simulations: every difference is a change.</sub>\n"
        return DiffComment.fitted(top: top, changed: changed, folded: folded, foldedCount: unchanged.count, tail: tail, limit: limit)
    }

    func headline() -> String {
        if isUnchanged { return "**No change**: every figure and device is the same, and the inputs are too.\n" }
        var md = ""
        if summary.isChanged {
            let parts = summary.figures.map { f in
                "\(f.metric.title) \(DiffComment.comparison(f))" + (f.movement == .unchanged ? " (same)" : "")
            }
            md += "**All devices**: " + parts.joined(separator: " · ")
            let gains = summary.figures.filter { $0.movement == .better }.map(\.metric.title)
            let losses = summary.figures.filter { $0.movement == .worse }.map(\.metric.title)
            if !gains.isEmpty && !losses.isEmpty {
                md += "  \n↳ **Trade-off**: lower \(DiffComment.list(gains)), but higher \(DiffComment.list(losses))"
            } else if !gains.isEmpty {
                md += "  \n↳ Better: lower \(DiffComment.list(gains)), nothing worse"
            } else if !losses.isEmpty {
                md += "  \n↳ **Worse**: higher \(DiffComment.list(losses)), nothing gained"
            }
            md += ".\n"
        } else {
            md += "**All devices**: the figures over all devices are unchanged.\n"
        }
        let changed = devices.filter(\.isChanged)
        let added = changed.filter { $0.movement == .added }.count
        let removed = changed.filter { $0.movement == .removed }.count
        md += "\n\(changed.count) of \(devices.count) device\(devices.count == 1 ? "" : "s") changed"
        if added + removed > 0 { md += " (\(added) new in head, \(removed) removed in head)" }
        return md + ".\n"
    }
}
