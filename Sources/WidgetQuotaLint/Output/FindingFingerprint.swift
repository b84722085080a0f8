import WidgetQuotaModel
import WidgetQuotaSupport

/// A finding's identity across edits elsewhere in its file: its rule, its file (relative to the
/// repository root) and its line's text with spacing and comments normalised, then its occurrence
/// among findings with the same three. Code scanning's `partialFingerprints` and lint baselines
/// both use it, so a finding keeps its identity when lines are inserted above it or re-indented.
package enum FindingFingerprint {
    /// One fingerprint per finding of `report`, in the report's order ("0123456789abcdef:1").
    package static func all(_ report: LintReport, paths: RepositoryPath) -> [String] {
        var occurrences = [String: Int]()
        return report.findings.map { f in
            let key = hash(rule: f.rule, path: path(f.location.file, paths), text: report.spans[f.location]?.text ?? "")
            occurrences[key, default: 0] += 1
            return key + ":" + String(occurrences[key]!)
        }
    }

    /// The file as findings name it to other tools: relative to the repository root when it is
    /// under it, else absolute.
    package static func path(_ file: String, _ paths: RepositoryPath) -> String {
        paths.relative(file) ?? paths.absolute(file)
    }

    /// FNV-1a of the rule, the path and the normalised line, as 16 hex digits.
    static func hash(rule: ChecklistRule, path: String, text: String) -> String {
        let hash = StableHash.fnv1a(rule.rawValue + "\u{0}" + path + "\u{0}" + text)
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
