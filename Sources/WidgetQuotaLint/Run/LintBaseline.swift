import Foundation
import WidgetQuotaModel
import WidgetQuotaSupport

/// Findings accepted as they are when lint is adopted on an existing codebase, or the findings
/// of a pull request's base branch: a run given a baseline reports only the findings it does not
/// hold. Findings are matched by `FindingFingerprint` (rule, file, the line's normalised text and
/// occurrence), so moving code down a file or re-indenting it keeps a finding known, and a second,
/// equal finding in the same file is new.
///
/// The file (`lint --write-baseline FILE`) is JSON with stable keys: `schemaVersion` and
/// `findings[].{fingerprint, rule, file, line, message}`; only `fingerprint` is matched, the
/// rest is there for the person who reviews it.
package struct LintBaseline: Sendable, Equatable, Codable {
    /// The version of this JSON shape.
    package static let currentSchemaVersion = 1

    /// One accepted finding.
    package struct Entry: Sendable, Equatable, Codable {
        package var fingerprint: String
        package var rule: String
        package var file: String
        package var line: Int?
        package var message: String
    }

    package var schemaVersion: Int
    package var findings: [Entry]

    /// The baseline of every finding of `report`, files named as `paths` names them.
    package init(_ report: LintReport, paths: RepositoryPath) {
        schemaVersion = Self.currentSchemaVersion
        findings = zip(report.findings, FindingFingerprint.all(report, paths: paths)).map { f, fingerprint in
            Entry(
                fingerprint: fingerprint, rule: f.rule.rawValue, file: FindingFingerprint.path(f.location.file, paths),
                line: f.location.line, message: PrintableText.clean(f.message))
        }
    }

    /// The baseline at `path`; an error naming the file when it is not one.
    package static func load(path: String) throws -> LintBaseline {
        let data = try InputFile.contents(of: path)
        let file = InputFile.name(path)
        try WidgetQuotaError.checkJSONSyntax(JSONSyntax.withoutByteOrderMark(data), file: file)
        let baseline: LintBaseline
        do {
            baseline = try JSONDecoder().decode(LintBaseline.self, from: JSONSyntax.withoutByteOrderMark(data))
        } catch {
            throw WidgetQuotaError.malformedInput(
                file: file, line: nil,
                problem: "not a lint baseline (expected {\"schemaVersion\": 1, \"findings\": [{\"fingerprint\": …}]}, "
                    + "as `widget-quota lint --write-baseline FILE` writes)")
        }
        guard baseline.schemaVersion == currentSchemaVersion else {
            throw WidgetQuotaError.malformedInput(
                file: file, line: nil,
                problem: "a lint baseline of schemaVersion \(baseline.schemaVersion); this version reads \(currentSchemaVersion): "
                    + "write it again with `widget-quota lint --write-baseline FILE`")
        }
        return baseline
    }

    /// Pretty, key-sorted JSON, ending with a newline.
    package func render() throws -> String { try JSONOutput.encode(self) }

    /// `report` without the findings this baseline holds; `baselined` counts them.
    package func filter(_ report: LintReport, paths: RepositoryPath) -> LintReport {
        filtered(report, paths: paths).report
    }

    /// `report` without the findings this baseline holds, and the fingerprints of those it keeps
    /// as the whole report numbers them: a second equal finding stays `…:2` once the first,
    /// known one is left out, so code scanning never takes it for the known alert.
    package func filtered(_ report: LintReport, paths: RepositoryPath) -> (report: LintReport, fingerprints: [String]) {
        let known = Set(findings.map(\.fingerprint))
        let kept = zip(report.findings, FindingFingerprint.all(report, paths: paths)).filter { !known.contains($1) }
        var out = report
        out.findings = kept.map(\.0)
        out.baselined = report.findings.count - out.findings.count
        return (out, kept.map(\.1))
    }
}
