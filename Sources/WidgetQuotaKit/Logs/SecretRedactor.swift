import Foundation

/// Removes secrets from log text before anything else sees it.
///
/// Every message, device name and free-text field is redacted at the parser boundary, so no
/// report, CSV, JSON, scenario or error message can contain an API key or a token: Google API
/// keys (`AIza...`), `key=`/`api_key=`/`token=`/`access_token=`/`sig=` parameters in URLs,
/// `x-goog-api-key:` and similar headers, `Authorization: Bearer ...`, JSON Web Tokens and
/// `sk-...` keys. A redacted value reads `[REDACTED]`.
public struct SecretRedactor: Sendable {
    /// What replaces a secret.
    public static let marker = "[REDACTED]"

    private struct Rule: @unchecked Sendable {
        let regex: NSRegularExpression
        let template: String
    }

    private let rules: [Rule]
    /// Lowercase words one of which appears in any text a rule can match (a cheap pre-check):
    /// every name a rule below matches must contain one of them. The pre-check folds ASCII case
    /// only, while the rules' `(?i)` also folds the Kelvin sign to `k` and the long s to `s`, so
    /// those two characters send a text to the rules as well.
    static let triggers = ["key", "token", "auth", "bearer", "aiza", "sk-", "eyj", "secret", "password", "passwd", "sig", "code=",
                           "\u{212A}", "\u{017F}"]
    private let prefilter = NeedleSet(SecretRedactor.triggers, foldingCase: true)

    public init() {
        let specs: [(String, String)] = [
            // Authorization: Bearer abc / Authorization=Basic abc
            (#"(?i)\b(authorization|proxy-authorization)(["']?\s*[:=]\s*["']?)(bearer\s+|basic\s+|token\s+)?[^\s"',;}]+"#, "$1$2$3\(SecretRedactor.marker)"),
            (#"(?i)\bbearer\s+[A-Za-z0-9._~+/=-]{6,}"#, "Bearer \(SecretRedactor.marker)"),
            // Headers and JSON/form fields that carry keys: x-goog-api-key: ..., "api_key": "...", token=...
            (#"(?i)\b(x-goog-api-key|x-api-key|api[-_]?key|access[-_]?token|refresh[-_]?token|auth[-_]?token|id[-_]?token|client[-_]?secret|secret|password|passwd|token)(["']?\s*[:=]\s*["']?)[^\s"',;}&]+"#, "$1$2\(SecretRedactor.marker)"),
            // URL query parameters: ?key=..., &sig=...
            (#"(?i)\b(key|sig|signature|code)=[^&\s"',;}]+"#, "$1=\(SecretRedactor.marker)"),
            // Bare Google API keys, OpenAI-style keys, JSON Web Tokens.
            (#"AIza[0-9A-Za-z_\-]{20,}"#, SecretRedactor.marker),
            (#"\bsk-[A-Za-z0-9_\-]{16,}"#, SecretRedactor.marker),
            (#"\beyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}"#, SecretRedactor.marker),
        ]
        rules = specs.map { pattern, template in
            // The patterns are constants of this file; a failure here is a programming error.
            Rule(regex: try! NSRegularExpression(pattern: pattern), template: template)
        }
    }

    /// `text` with every secret replaced by `[REDACTED]`.
    public func redact(_ text: String) -> String {
        guard mightContainSecret(text) else { return text }
        var result = text
        for rule in rules {
            let range = NSRange(result.startIndex..., in: result)
            result = rule.regex.stringByReplacingMatches(in: result, range: range, withTemplate: rule.template)
        }
        return result
    }

    /// False when no rule can match: most log messages skip the regular expressions.
    func mightContainSecret(_ text: String) -> Bool {
        // Byte-level and ASCII case-folded: Foundation's string search is far too slow per line.
        var text = text
        return text.withUTF8 { prefilter.occurs(in: $0) }
    }
}
