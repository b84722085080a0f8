import Foundation
import WidgetQuotaSupport

/// The lines of code behind a pull request's change: the findings of `lint --format json
/// --baseline BASE` on the head branch, that is the findings the base branch did not have,
/// listed in the comment so a reviewer sees which lines moved the projection.
package struct NewFindingsSection: Sendable, Equatable {
    /// One finding, as lint's JSON writes it.
    package struct Finding: Sendable, Equatable {
        package var rule: String
        package var severity: String
        package var file: String
        package var line: Int?
        package var message: String
        package var cost: String?

        package init(rule: String, severity: String, file: String, line: Int?, message: String, cost: String? = nil) {
            (self.rule, self.severity, self.file, self.line, self.message, self.cost) = (rule, severity, file, line, message, cost)
        }
    }

    /// The findings new in the head branch, in lint's order.
    package var findings: [Finding]
    /// Findings the base branch had too (lint's `summary.baselined`).
    package var known: Int

    /// The most findings listed; the rest are counted.
    static let listed = 20

    package init(findings: [Finding], known: Int) {
        self.findings = findings
        self.known = known
    }

    /// Reads lint's JSON (`findings[].{rule, severity, file, line, message, cost}`, the file from
    /// the repository root when `repositoryPath` is there, and `summary.baselined`); `file` names
    /// it in errors.
    package init(lintJSON json: JSONValue, file: String) throws {
        guard json["schemaVersion"]?.number != nil, let items = json["findings"]?.array else {
            throw WidgetQuotaError.malformedInput(
                file: file, line: nil,
                problem: "not lint's JSON (expected schemaVersion and findings, as `widget-quota lint --format json` writes)")
        }
        findings = try items.enumerated().map { index, item in
            guard let rule = item["rule"]?.string, let severity = item["severity"]?.string, let path = item["file"]?.string,
                let message = item["message"]?.string
            else {
                throw WidgetQuotaError.malformedInput(
                    file: file, line: nil, problem: "findings[\(index)] lacks rule, severity, file or message")
            }
            return Finding(
                rule: rule, severity: severity, file: item["repositoryPath"]?.string ?? path, line: item["line"]?.number.map { Int($0) },
                message: message,
                cost: item["cost"]?.string)
        }
        known = json["summary"]?["baselined"]?.number.map { Int($0) } ?? 0
    }

    /// "### Lint findings new in this branch" with a row per new finding (the first 20), or a line
    /// saying the branch adds none.
    package func markdown() -> String {
        var md = "\n### Lint findings new in this branch\n\n"
        let knownText = known > 0 ? " (\(known) the base branch had too are left out)" : ""
        guard !findings.isEmpty else { return md + "None\(knownText).\n" }
        md += "\(findings.count) finding\(findings.count == 1 ? "" : "s") the base branch did not have\(knownText):\n\n"
        var table = MarkdownTable(["Severity", "Rule", "Where", "Finding"])
        for f in findings.prefix(Self.listed) {
            let place = "`" + f.file.replacingOccurrences(of: "`", with: "'") + (f.line.map { ":\($0)" } ?? "") + "`"
            table.append([f.severity, "`\(f.rule)`", place, f.message + (f.cost.map { " (\($0))" } ?? "")])
        }
        md += table.markdown
        if findings.count > Self.listed { md += "\n_\(findings.count - Self.listed) more in the lint report._\n" }
        return md
    }
}
