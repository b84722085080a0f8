import Foundation
import WidgetQuotaModel
import WidgetQuotaSupport

/// `lint`'s findings where developers look: GitHub Actions workflow commands (`::error file=…::`,
/// shown on the pull request's lines and in the run's log) and the `path:line:column: error: …`
/// lines Xcode shows in its issue navigator when a Run Script build phase prints them.
package enum LintAnnotations {
    /// One `::error`, `::warning` or `::notice` command per finding and directive problem, with
    /// the file relative to the repository root, then the verdict as a plain line.
    package static func github(_ report: LintReport, paths: RepositoryPath) -> String {
        var lines = report.findings.map { f -> String in
            let span = report.spans[f.location]
            var properties = [("file", paths.relative(f.location.file) ?? paths.absolute(f.location.file))]
            if let line = f.location.line {
                properties.append(("line", String(line)))
                if let column = f.location.column { properties.append(("col", String(column))) }
                if let span { properties += [("endLine", String(span.endLine)), ("endColumn", String(span.endColumn))] }
            }
            properties.append(("title", "\(f.rule.rawValue): \(f.rule.title)"))
            return GitHubCommand.annotation(githubLevel(f.severity), properties, FindingText.line(f))
        }
        lines += report.directiveProblems.map { problem in
            var properties = [("file", paths.relative(problem.location.file) ?? paths.absolute(problem.location.file))]
            if let line = problem.location.line { properties.append(("line", String(line))) }
            properties.append(("title", "widget-quota directive"))
            return GitHubCommand.annotation("warning", properties, FindingText.sentence(problem.message))
        }
        lines.append("widget-quota lint: " + PrintableText.oneLine(report.verdict))
        return lines.joined(separator: "\n") + "\n"
    }

    /// One `path:line:column: error|warning|note: message [rule]` line per finding, the path
    /// absolute so Xcode opens it whatever the build phase's folder. A line break in a path or a
    /// message is written `\n`, so every finding stays one line (and, printed in a GitHub Actions
    /// log, never starts a workflow command).
    package static func xcode(_ report: LintReport, paths: RepositoryPath) -> String {
        var lines = report.findings.map { f in
            place(f.location, paths) + " \(f.severity.rawValue): " + PrintableText.oneLine(FindingText.line(f)) + " [\(f.rule.rawValue)]"
        }
        lines += report.directiveProblems.map {
            place($0.location, paths) + " warning: " + PrintableText.oneLine(FindingText.sentence($0.message))
        }
        return lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n"
    }

    static func place(_ l: Finding.Location, _ paths: RepositoryPath) -> String {
        var place = PrintableText.oneLine(paths.absolute(l.file))
        if let line = l.line {
            place += ":\(line)"
            if let column = l.column { place += ":\(column)" }
        }
        return place + ":"
    }

    /// GitHub's annotation levels: `note` is `notice` there.
    static func githubLevel(_ severity: FindingSeverity) -> String {
        switch severity {
        case .error: return "error"
        case .warning: return "warning"
        case .note: return "notice"
        }
    }
}
