import Foundation
import WidgetQuotaSupport

/// The Markdown of a `lint` run: the verdict first, the design read from the code, a table of
/// findings, why each broken rule matters, the rules that passed, and those with nothing to check.
package enum LintReportMarkdown {
    /// The report's Markdown, ending with a newline.
    package static func render(_ report: LintReport) -> String {
        var out = "# Widget pre-release checklist\n\n"
        out += "**\(MarkdownTable.escape(capitalised(report.verdict))).**\n\n"
        out += filesLine(report) + "\n"
        if let design = report.design {
            out += "\n## The design in the code\n\n" + designParagraph(design)
        }
        if !report.findings.isEmpty {
            out += "\n## Findings\n\n"
            var table = MarkdownTable(["Severity", "Rule", "Where", "Message", "Fix", "Cost"])
            // A rule's cost is the same for each of its findings that changes the design: written once.
            var costsShown = Set<String>()
            for f in report.findings {
                let cost = f.cost.map { costsShown.insert(f.rule.rawValue + "\u{0}" + $0).inserted ? $0 : "as above" } ?? "–"
                table.append([f.severity.rawValue, "`\(f.rule.rawValue)`", "`\(f.location.description)`", f.message, f.fix, cost])
            }
            out += table.markdown
            out += "\n## Why these rules\n\n"
            for rule in report.rulesBroken {
                out += "- **`\(rule.rawValue)`** (\(rule.title)): \(rule.rationale)\n"
            }
        }
        if !report.directiveProblems.isEmpty {
            out += "\n## Directives not understood\n\n"
            for problem in report.directiveProblems {
                out += "- `\(problem.location.description)`: \(PrintableText.clean(problem.message))\n"
            }
        }
        if !report.notes.isEmpty {
            out += "\n## Notes on the files read\n\n"
            for note in report.notes { out += "- \(MarkdownTable.escape(PrintableText.clean(note)))\n" }
        }
        let passed = report.rulesPassed
        out += "\n## Rules passed\n\n"
        out += passed.isEmpty ? "None.\n" : passed.map { "- `\($0.rawValue)`: \($0.title)\n" }.joined()
        if !report.nothingToCheck.isEmpty {
            out += "\n## Nothing to check\n\n"
            out += report.nothingToCheck.map { "- `\($0.rawValue)`: \($0.title)\n" }.joined()
        }
        return out
    }

    /// "Read 6 app files, 3 widget extension files and 2 property lists; 1 finding suppressed."
    static func filesLine(_ report: LintReport) -> String {
        let parts = LintReport.FileRole.allCases.compactMap { role -> String? in
            let n = report.count(role)
            return n == 0 ? nil : role.phrase(n)
        }
        var line = parts.isEmpty ? "No file read" : "Read " + list(parts)
        if report.suppressed > 0 {
            line +=
                "; \(report.suppressed) finding\(report.suppressed == 1 ? "" : "s") suppressed by the configuration or inline directives"
        }
        if report.baselined > 0 {
            line += "; \(report.baselined) finding\(report.baselined == 1 ? "" : "s") known in the baseline (`--baseline`) left out"
        }
        return line + "."
    }

    static func designParagraph(_ design: LintDesignSummary) -> String {
        var text = capitalised(design.sentence) + "."
        if let requests = design.requestsPerUserMonth {
            text += " Projected\(design.projection.map { " (\($0))" } ?? ""): ≈ \(amount(requests)) API requests per user a month"
            if let baseline = design.baselineRequestsPerUserMonth {
                text += " (≈ \(amount(baseline)) with the cache design)"
            }
            text += "."
        }
        if !design.assumedFields.isEmpty {
            text +=
                " Not read from the code, so taken from the preset: " + design.assumedFields.map { "`\($0)`" }.joined(separator: ", ") + "."
        }
        return text + "\n"
    }

    /// A request count: whole numbers with separators from 100 up, one decimal at most below.
    package static func amount(_ value: Double) -> String {
        value >= 100 ? NumberText.human(value) : NumberText.plain((value * 10).rounded() / 10)
    }

    static func capitalised(_ text: String) -> String {
        text.prefix(1).uppercased() + text.dropFirst()
    }

    static func list(_ parts: [String]) -> String {
        parts.count <= 1 ? parts.joined() : parts.dropLast().joined(separator: ", ") + " and " + parts.last!
    }
}
