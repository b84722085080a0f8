import Foundation
import WidgetQuotaGates
import WidgetQuotaModel
import WidgetQuotaSupport

/// The pull-request comment (or `$GITHUB_STEP_SUMMARY`) for a `ReportDiff`: a headline per
/// changed design with every figure's better-or-worse, one table of changed rows, the rest folded
/// in `<details>`, the assumptions that changed, the thresholds and change gates, and how noise
/// was judged.
extension ReportDiff {
    /// GitHub's limit on a comment's length, in UTF-16 code units (what it counts).
    package static let commentLimit = 65_536

    /// The comment's first line, invisible when rendered: a workflow finds its earlier comment by it
    /// and updates that one instead of adding another.
    package static let commentMarker = "<!-- widget-quota diff -->"

    /// The comment as Markdown, cut to `limit` characters with a note when longer: the folded
    /// rows go first, then changed rows from the end. `newFindings`, when given, lists the lint
    /// findings the head branch adds after the changed rows.
    package func markdown(
        base baseName: String, head headName: String, thresholds: [ThresholdOutcome] = [], changeGates: [ChangeOutcome] = [],
        newFindings: NewFindingsSection? = nil, limit: Int = ReportDiff.commentLimit
    ) -> String {
        let view = DiffComment(diff: self)
        return DiffComment.fitted(
            top: ReportDiff.commentMarker + "\n## WidgetQuota: \(baseName) → \(headName)\n\n" + view.headline(),
            changed: view.changedRows(), folded: view.foldedRows(), foldedCount: view.rows(changed: false).count,
            tail: (newFindings?.markdown() ?? "") + view.assumptions() + view.gates(thresholds: thresholds, changeGates: changeGates)
                + view.noiseNote(), limit: limit)
    }
}

extension DiffComment {
    /// Joins a comment's parts, cut to `limit` UTF-16 code units with a note when longer: first the
    /// folded block becomes a note, then changed rows go from the end, then the text is cut.
    ///
    /// - Parameters:
    ///   - changed: the changed rows' section as lines: a title, the table header (two lines), rows.
    ///   - folded: the folded block.
    static func fitted(top: String, changed: [String], folded: [String], foldedCount: Int, tail: String, limit: Int) -> String {
        var changed = changed
        var folded = folded
        var tail = tail
        func assemble() -> String {
            top + (changed.isEmpty ? "" : "\n" + changed.joined()) + (folded.isEmpty ? "" : "\n" + folded.joined()) + tail
        }
        var md = assemble()
        guard md.utf16.count > limit else { return md }
        folded = [
            "<details><summary>\(foldedCount) unchanged or within-noise rows left out</summary>\n\n"
                + "Left out to stay under GitHub's \(ReportFormat.whole(Double(limit)))-character limit; "
                + "`widget-quota diff --out FILE` writes the whole comparison.\n\n</details>\n"
        ]
        md = assemble()
        // Changed rows: the title and table header stay; rows go from the end, replaced by a note.
        var cut = 0
        while md.utf16.count > limit, changed.count - 3 - (cut > 0 ? 1 : 0) > 0 {
            if cut > 0 { changed.removeLast() }
            changed.removeLast()
            cut += 1
            changed.append(
                "\n_\(cut) more changed row\(cut == 1 ? "" : "s") left out to stay under GitHub's comment limit; "
                    + "`widget-quota diff --out FILE` writes them all._\n")
            md = assemble()
        }
        if md.utf16.count > limit {
            tail = "\n_The comment is cut here to stay under GitHub's comment limit._\n"
            let room = max(limit - tail.utf16.count, 0)
            var text = String(md.utf16.prefix(room)) ?? String(md.prefix(room))
            if let newline = text.lastIndex(of: "\n") { text = String(text[...newline]) }
            md = text + tail
        }
        return md
    }
}

/// The pieces of the comment, each ending with a newline.
struct DiffComment {
    let diff: ReportDiff

    /// What the stale share counts: glances older than the freshness target, when the reports state it.
    var staleTitle: String {
        diff.freshnessTargetMinutes.map { "glances older than \(Self.duration($0))" } ?? "stale glances"
    }

    static func duration(_ minutes: Double) -> String {
        minutes >= 60 && minutes.truncatingRemainder(dividingBy: 60) == 0
            ? "\(NumberText.plain(minutes / 60)) h" : "\(NumberText.plain(minutes)) min"
    }

    func title(_ metric: ReportDiff.Metric) -> String {
        metric.unit == .share ? staleTitle : metric.title
    }

    func columnTitle(_ metric: ReportDiff.Metric) -> String {
        switch metric.path {
        case "totalRequestsPerMonth": return "Requests a month"
        case "cost.perMonth": return "Cost a month"
        case "freshness.overTargetShare": return staleTitle.prefix(1).uppercased() + staleTitle.dropFirst()
        default: return "Peak requests a minute"
        }
    }

    // MARK: Values and changes

    static func value(_ unit: ReportDiff.Metric.Unit, _ v: Double) -> String {
        switch unit {
        case .count: return abs(v) >= 100 ? ReportFormat.whole(v) : NumberText.human(v)
        case .dollars: return ReportFormat.money(v)
        case .share: return NumberText.percent(v)
        }
    }

    /// `▼ 54%` / `▲ 10.0 pts`: the direction and size of a change.
    static func delta(_ figure: ReportDiff.Figure) -> String {
        guard let change = figure.change else { return "" }
        let arrow = change < 0 ? "▼" : (change > 0 ? "▲" : "")
        if figure.metric.unit == .share {
            return arrow + " " + NumberText.fixed(abs(change) * 100, digits: 1) + " pts"
        }
        if let share = figure.share {
            return arrow + " " + NumberText.percent(abs(share), digits: abs(share) >= 0.1 ? 0 : 1)
        }
        return arrow + " " + value(figure.metric.unit, abs(change))
    }

    /// What a movement means for a reader.
    static func word(_ movement: ReportDiff.Movement) -> String {
        switch movement {
        case .better: return "better"
        case .worse: return "**worse**"
        case .withinNoise: return "within noise"
        case .unchanged: return "unchanged"
        case .added: return "new in head"
        case .removed: return "removed in head"
        }
    }

    /// `3,100 → 1,400 (▼ 54%, better)`, or the one value when unchanged.
    static func comparison(_ f: ReportDiff.Figure, inTable: Bool = false) -> String {
        let b = f.base.map { value(f.metric.unit, $0.mean) } ?? "–"
        let h = f.head.map { value(f.metric.unit, $0.mean) } ?? "–"
        switch f.movement {
        case .unchanged: return h
        case .added, .removed: return "\(b) → \(h) (\(word(f.movement)))"
        case .withinNoise: return "\(b) → \(h) (\(delta(f)), within noise)"
        case .better, .worse: return "\(b) → \(h) (\(delta(f)), \(word(f.movement)))"
        }
    }

    static func tierText(_ row: ReportDiff.Row) -> String {
        let b = MarkdownText.inline(row.baseTier ?? "–")
        let h = MarkdownText.inline(row.headTier ?? "–")
        switch row.tierMovement {
        case .unchanged: return h
        case .better: return "\(b) → \(h) (cheaper tier, better)"
        case .worse: return "\(b) → \(h) (more expensive tier, **worse**)"
        default: return "\(b) → \(h)"
        }
    }

    // MARK: Headline

    static let betterPhrase = [
        "totalRequestsPerMonth": "fewer requests", "cost.perMonth": "lower cost", "freshness.overTargetShare": "fewer stale glances",
        "load.peakRequestsPerMinute": "a quieter busiest minute", "tier": "a cheaper tier",
    ]
    static let worsePhrase = [
        "totalRequestsPerMonth": "more requests", "cost.perMonth": "higher cost", "freshness.overTargetShare": "more stale glances",
        "load.peakRequestsPerMinute": "a busier busiest minute", "tier": "a more expensive tier",
    ]

    func headline() -> String {
        let changed = rows(changed: true)
        guard !diff.rows.isEmpty else { return "Neither report has results.\n" }
        if diff.isUnchanged {
            return "**No change**: every design and user count has the same figures, and no assumption changed.\n"
        }
        let assumptions = diff.changedAssumptions.count
        let assumptionText =
            assumptions == 0 ? "" : " \(assumptions) assumption\(assumptions == 1 ? "" : "s") changed (listed below)."
        guard !changed.isEmpty else {
            let noisy = diff.rows.filter { $0.movement == .withinNoise }.count
            if noisy == 0 { return "**No change** in any figure or tier.\(assumptionText)\n" }
            return
                "**No change beyond noise**: \(noisy) of \(diff.rows.count) design × user rows differ, every difference within the "
                + "Monte-Carlo noise (see the note at the end).\(assumptionText)\n"
        }
        var lines = [String]()
        for design in diff.designs {
            let designRows = diff.rows.filter { $0.design == design }
            let moved = designRows.filter(\.isChanged)
            guard !moved.isEmpty else { continue }
            if moved.allSatisfy({ $0.movement == .added }) || moved.allSatisfy({ $0.movement == .removed }) {
                lines.append(
                    "**\(MarkdownText.inline(design))**: \(moved.count) row\(moved.count == 1 ? "" : "s") \(moved[0].movement == .added ? "new in head" : "removed in head").\n"
                )
                continue
            }
            // The row to quote: the largest user count whose tier moved, else the largest that changed.
            let shown = moved.filter { $0.tierMovement.isChange }.max { $0.users < $1.users } ?? moved.max { $0.users < $1.users }!
            var parts = shown.figures.map { "\(title($0.metric)) \(Self.comparison($0))" + ($0.movement == .unchanged ? " (same)" : "") }
            parts.insert(
                "tier "
                    + (shown.tierMovement == .unchanged ? "\(MarkdownText.inline(shown.headTier ?? "–")) (same)" : Self.tierText(shown)),
                at: min(2, parts.count))
            var line =
                "**\(MarkdownText.inline(design))** at \(ReportFormat.users(shown.users)) user\(shown.users == 1 ? "" : "s"): "
                + parts.joined(separator: " · ")
            // The trade-off across the design's changed rows: what it gains and what it costs.
            var gains = [String]()
            var losses = [String]()
            for key in ReportDiff.metrics.map(\.path) + ["tier"] {
                let movements = moved.map { row in key == "tier" ? row.tierMovement : (row.figure(key)?.movement ?? .unchanged) }
                if movements.contains(.better) { gains.append(Self.betterPhrase[key]!) }
                if movements.contains(.worse) { losses.append(Self.worsePhrase[key]!) }
            }
            line += "  \n↳ "
            if !gains.isEmpty && !losses.isEmpty {
                line += "**Trade-off**: \(Self.list(gains)), paid for with \(Self.list(losses))"
            } else if !gains.isEmpty {
                line += "Better: \(Self.list(gains)), nothing worse"
            } else {
                line += "**Worse**: \(Self.list(losses)), nothing gained"
            }
            line += "; changed at \(moved.count) of \(designRows.count) user counts"
            let tierMoves = moved.filter { $0.tierMovement.isChange && $0.users != shown.users }
            if !tierMoves.isEmpty {
                line +=
                    "; the tier also moves at "
                    + tierMoves.map {
                        "\(ReportFormat.users($0.users)) (\(MarkdownText.inline($0.baseTier ?? "–")) → \(MarkdownText.inline($0.headTier ?? "–")))"
                    }
                    .joined(separator: ", ")
            }
            lines.append(line + ".\n")
        }
        let unchangedDesigns = diff.designs.count - lines.count
        if unchangedDesigns > 0 {
            lines.append(
                "\(unchangedDesigns) other design\(unchangedDesigns == 1 ? "" : "s") unchanged or within noise (folded below).\(assumptionText)\n"
            )
        } else if !assumptionText.isEmpty {
            lines.append(assumptionText.dropFirst() + "\n")
        }
        return lines.joined(separator: "\n")
    }

    static func list(_ items: [String]) -> String {
        items.count <= 1 ? items.joined() : items.dropLast().joined(separator: ", ") + " and " + items.last!
    }

    // MARK: Tables

    func rows(changed: Bool) -> [ReportDiff.Row] {
        diff.rows.filter { $0.isChanged == changed }
    }

    var hasTiers: Bool { diff.rows.contains { $0.baseTier != nil || $0.headTier != nil } }

    func header() -> [String] {
        var columns = ["Design", "Users"] + diff.comparedMetrics.map(columnTitle)
        if hasTiers { columns.insert("Tier", at: min(4, columns.count)) }
        return columns
    }

    func cells(_ row: ReportDiff.Row, compare wanted: Bool) -> [String] {
        // A row only one report has shows its values once, marked by the design's name.
        let whole = row.movement == .added || row.movement == .removed
        let compare = wanted && !whole
        var cells = [wanted && whole ? "\(row.design) (\(Self.word(row.movement)))" : row.design, ReportFormat.users(row.users)]
        for metric in diff.comparedMetrics {
            guard let f = row.figure(metric.path) else {
                cells.append("–")
                continue
            }
            if compare {
                cells.append(Self.comparison(f))
            } else {
                cells.append((f.head ?? f.base).map { Self.value(metric.unit, $0.mean) } ?? "–")
            }
        }
        if hasTiers { cells.insert(compare ? Self.tierText(row) : (row.headTier ?? row.baseTier ?? "–"), at: min(4, cells.count)) }
        return cells
    }

    /// The table of changed rows as lines: header, separator, one line per row.
    func changedRows() -> [String] {
        let rows = rows(changed: true)
        guard !rows.isEmpty else { return [] }
        var table = MarkdownTable(header())
        for row in rows { table.append(cells(row, compare: true)) }
        let lines = table.markdown.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { String($0) + "\n" }
        return ["### Changed rows\n\n"] + lines
    }

    /// The folded block of unchanged and within-noise rows.
    func foldedRows() -> [String] {
        let rows = rows(changed: false)
        guard !rows.isEmpty else { return [] }
        let noisy = rows.filter { $0.movement == .withinNoise }.count
        let wholeDesigns = diff.designs.filter { d in diff.rows.filter { $0.design == d }.allSatisfy { !$0.isChanged } }
        var summary = "\(rows.count) row\(rows.count == 1 ? "" : "s") unchanged or within noise"
        summary += noisy == 0 ? "" : " (\(noisy) within noise)"
        if !wholeDesigns.isEmpty {
            summary += "; designs with no change beyond noise: " + wholeDesigns.map(MarkdownText.html).joined(separator: ", ")
        }
        var table = MarkdownTable(header() + ["Difference"])
        for row in rows {
            let noisyFigures = row.figures.filter { $0.movement == .withinNoise }.map { title($0.metric) }
            let note = noisyFigures.isEmpty ? "unchanged" : "within noise: " + noisyFigures.joined(separator: ", ")
            table.append(cells(row, compare: false) + [note])
        }
        return ["<details><summary>\(summary)</summary>\n\nHEAD's values.\n\n" + table.markdown + "\n</details>\n"]
    }

    func assumptions() -> String {
        guard !diff.changedAssumptions.isEmpty else { return "" }
        var md = "\n### Assumptions that changed\n\n"
        for change in diff.changedAssumptions {
            let old = MarkdownText.inline(change.old ?? "(absent)")
            let new = MarkdownText.inline(change.new ?? "(absent)")
            let path = "`" + PrintableText.oneLine(change.path).replacingOccurrences(of: "`", with: "'") + "`"
            if let design = change.design {
                md += "- **\(MarkdownText.inline(design))**: \(path) \(old) → \(new)\n"
            } else {
                md += "- \(path): \(old) → \(new)\n"
            }
        }
        return md
    }

    func gates(thresholds: [ThresholdOutcome], changeGates: [ChangeOutcome]) -> String {
        var md = ""
        if !thresholds.isEmpty {
            md +=
                "\n"
                + ThresholdSection(outcomes: thresholds).markdown().replacingOccurrences(
                    of: "## Thresholds\n", with: "### Thresholds on HEAD\n")
        }
        guard !changeGates.isEmpty else { return md }
        let failed = changeGates.filter(\.failsRun).count
        let failIfs = changeGates.filter { $0.severity == .fail }.count
        md += "\n### Change gates\n\n"
        if failIfs > 0 {
            md +=
                (failed == 0
                    ? "All \(failIfs) fail-if change gate\(failIfs == 1 ? "" : "s") passed."
                    : "**\(failed) of \(failIfs) fail-if change gate\(failIfs == 1 ? "" : "s") failed.**") + "\n\n"
        }
        var table = MarkdownTable(
            ["Gate", "Kind", "Result", "Row", "Base", "Head", "Change", "Rows in violation"],
            alignments: [.left, .left, .left, .left, .right, .right, .right, .right])
        for gate in changeGates {
            guard let worst = gate.worst else { continue }
            let result = gate.passed ? "passed" : "**\(gate.verdict)**"
            table.append([
                "`\(gate.expression)`", gate.severity == .fail ? "fail-if" : "warn-if", result, worst.row,
                worst.baseText ?? gate.formatted(worst.base), worst.headText ?? gate.formatted(worst.head),
                gate.formattedChange(worst.change) + (worst.withinNoise ? " (within noise)" : ""),
                "\(gate.violations) of \(gate.rows.count)",
            ])
        }
        return md + table.markdown
    }

    func noiseNote() -> String {
        let b = diff.base
        let h = diff.head
        var md = "\n<sub>"
        if diff.comparedMetrics.contains(where: { $0.unit == .share }) {
            md +=
                "\(staleTitle.prefix(1).uppercased() + staleTitle.dropFirst()): when the user glances, the widget shows content older than the freshness target, or an error. "
        }
        if diff.commonRandomNumbers {
            md +=
                "Base and head share seed \(b.seed ?? "–"), \(b.runs.map(String.init) ?? "–") runs and "
                + "\(b.sampleUsers.map { ReportFormat.users($0) } ?? "–") sampled users, so they draw the same random numbers: "
                + "a figure counts as a change when its mean, p5, p50 and p95 across runs all move the same way, a share when it "
                + "moves by more than twice its standard error between the sample's users; anything less is marked within noise."
        } else {
            md +=
                "Base and head draw different random numbers (seed \(b.seed ?? "–") → \(h.seed ?? "–"), runs "
                + "\(b.runs.map(String.init) ?? "–") → \(h.runs.map(String.init) ?? "–"), sampled users "
                + "\(b.sampleUsers.map { ReportFormat.users($0) } ?? "–") → \(h.sampleUsers.map { ReportFormat.users($0) } ?? "–")): "
                + "a figure counts as a change only when the two p5–p95 ranges across runs do not overlap, a share when it moves "
                + "by more than twice its largest standard error between runs; anything less is marked within noise. "
                + "Run both with the same seed for a finer comparison."
        }
        return md + "</sub>\n"
    }
}
