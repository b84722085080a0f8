import Foundation
import WidgetQuotaModel
import WidgetQuotaSupport

/// The JSON of a `lint` run. Its keys are a public contract: `schemaVersion`,
/// `findings[].{rule, severity, file, line, column, message, fix, cost, title, repositoryPath,
/// fingerprint}`, `design`,
/// `summary`, `files`, `directiveProblems`; fields are added, never renamed.
package enum LintReportJSON {
    /// The version of this JSON shape.
    package static let schemaVersion = 1

    /// Pretty, key-sorted JSON of `report`, ending with a newline; `paths` names each finding's
    /// file from the repository root and gives its fingerprint, as SARIF and baselines do.
    /// `fingerprints`, one per finding, are the whole run's when a baseline filtered `report`.
    package static func render(
        _ report: LintReport, paths: RepositoryPath = RepositoryPath(base: ".", root: "."), fingerprints: [String]? = nil
    ) throws -> String {
        try JSONOutput.encode(Document(report, paths: paths, fingerprints: fingerprints))
    }

    struct Document: Encodable {
        var schemaVersion = LintReportJSON.schemaVersion
        var verdict: String
        var findings: [FindingEntry]
        var design: LintDesignSummary?
        var summary: Summary
        var files: [LintReport.ReadFile]
        var directiveProblems: [ProblemEntry]
        var notes: [String]

        init(_ report: LintReport, paths: RepositoryPath, fingerprints: [String]?) {
            notes = report.notes
            verdict = report.verdict
            findings = zip(report.findings, fingerprints ?? FindingFingerprint.all(report, paths: paths)).map { f, fingerprint in
                FindingEntry(f, repositoryPath: FindingFingerprint.path(f.location.file, paths), fingerprint: fingerprint)
            }
            design = report.design
            summary = Summary(report)
            files = report.files
            directiveProblems = report.directiveProblems.map {
                ProblemEntry(file: $0.location.file, line: $0.location.line, message: $0.message)
            }
        }

        enum CodingKeys: String, CodingKey {
            case schemaVersion, verdict, findings, design, summary, files, directiveProblems, notes
        }

        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(schemaVersion, forKey: .schemaVersion)
            try c.encode(verdict, forKey: .verdict)
            try c.encode(findings, forKey: .findings)
            try c.encode(design, forKey: .design)  // null when the design was not read
            try c.encode(summary, forKey: .summary)
            try c.encode(files, forKey: .files)
            try c.encode(directiveProblems, forKey: .directiveProblems)
            try c.encode(notes, forKey: .notes)
        }
    }

    struct FindingEntry: Encodable {
        var rule: String
        var title: String
        var severity: String
        var file: String
        var line: Int?
        var column: Int?
        var message: String
        var fix: String
        var cost: String?
        var repositoryPath: String
        var fingerprint: String

        init(_ f: Finding, repositoryPath: String, fingerprint: String) {
            self.repositoryPath = repositoryPath
            self.fingerprint = fingerprint
            rule = f.rule.rawValue
            title = f.rule.title
            severity = f.severity.rawValue
            file = f.location.file
            line = f.location.line
            column = f.location.column
            message = f.message
            fix = f.fix
            cost = f.cost
        }

        enum CodingKeys: String, CodingKey {
            case rule, title, severity, file, line, column, message, fix, cost, repositoryPath, fingerprint
        }

        /// Every key is always present; unknown values are null.
        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(rule, forKey: .rule)
            try c.encode(title, forKey: .title)
            try c.encode(severity, forKey: .severity)
            try c.encode(file, forKey: .file)
            try c.encode(line, forKey: .line)
            try c.encode(column, forKey: .column)
            try c.encode(message, forKey: .message)
            try c.encode(fix, forKey: .fix)
            try c.encode(cost, forKey: .cost)
            try c.encode(repositoryPath, forKey: .repositoryPath)
            try c.encode(fingerprint, forKey: .fingerprint)
        }
    }

    struct ProblemEntry: Encodable {
        var file: String
        var line: Int?
        var message: String
    }

    struct Summary: Encodable {
        var errors: Int
        var warnings: Int
        var notes: Int
        var suppressed: Int
        /// Findings left out because the baseline given (`--baseline`) holds them.
        var baselined: Int
        var filesRead: Int
        var filesByRole: [String: Int]
        var rulesBroken: [String]
        var rulesPassed: [String]
        /// Rules the tree gave nothing to look at (neither passed nor broken).
        var rulesWithNothingToCheck: [String]

        init(_ report: LintReport) {
            errors = report.count(FindingSeverity.error)
            warnings = report.count(FindingSeverity.warning)
            notes = report.count(FindingSeverity.note)
            suppressed = report.suppressed
            baselined = report.baselined
            filesRead = report.files.count
            filesByRole = Dictionary(uniqueKeysWithValues: LintReport.FileRole.allCases.map { ($0.rawValue, report.count($0)) })
            rulesBroken = report.rulesBroken.map(\.rawValue)
            rulesPassed = report.rulesPassed.map(\.rawValue)
            rulesWithNothingToCheck = report.nothingToCheck.map(\.rawValue)
        }
    }
}
