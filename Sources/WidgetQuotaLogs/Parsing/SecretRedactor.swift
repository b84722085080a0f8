import Foundation
import WidgetQuotaSupport

/// Removes secrets from log text before anything else sees it.
///
/// Every message, device name and free-text field is redacted at the parser boundary, so no
/// report, CSV, JSON, scenario or error message can contain an API key or a token: Google API
/// keys (`AIza...`), `key=`/`api_key=`/`token=`/`access_token=`/`sig=`/`code=` parameters in URLs
/// (percent-encoded ones too; a `code=` outside a URL query is kept when it is an integer, such as
/// NSError's `Code=-1009`), `x-goog-api-key:`, `Ocp-Apim-Subscription-Key:` and any header
/// or field whose name ends in `key`, `token` or `secret` after a `-` or `_` (quoted, escaped
/// as in JSON logged as a string, or printed as a Swift dictionary), `Authorization: Bearer ...`
/// and `Basic ...`, JSON Web Tokens and `sk-...` keys; by their shape, AWS access key ids,
/// GitHub, Stripe, Slack, Hugging Face and SendGrid tokens, Google OAuth access tokens and client
/// secrets, Slack webhook paths; a password in a URL (`://user:password@host`) and `Cookie:` /
/// `Set-Cookie:` values. A redacted value reads `[REDACTED]`.
package struct SecretRedactor: Sendable {
    /// What replaces a secret.
    package static let marker = "[REDACTED]"

    /// One redactor for every reader: its rules compile once per process, not once per file or
    /// fuzz input (Foundation on Linux also keeps a copy of every pattern longer than 256
    /// characters it compiles, and the key-name rule is one). Immutable, so sharing is safe.
    package static let shared = SecretRedactor()

    private struct Rule: @unchecked Sendable {
        let regex: NSRegularExpression
        let template: String
    }

    private let rules: [Rule]
    /// Lowercase words one of which appears in any text a rule can match (a cheap pre-check):
    /// every name a rule below matches must contain one of them. The pre-check folds ASCII case
    /// only, while the rules' `(?i)` also folds the Kelvin sign to `k` and the long s to `s`, so
    /// those two characters send a text to the rules as well.
    package static let triggers = [
        "key", "token", "auth", "bearer", "aiza", "sk-", "eyj", "secret", "password", "passwd", "sig", "code=", "code%3d",
        "akia", "asia", "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "k_live_", "k_test_", "xox", "hooks.slack.com",
        "hf_", "sg.", "ya29.", "gocspx-", "cookie", "://", "\u{212A}", "\u{017F}",
    ]
    private let prefilter = NeedleSet(
        Array(Set(SecretRedactor.triggers + KeyShapes.markers.map { $0.lowercased() })).sorted(), foldingCase: true)

    package init() {
        let m = SecretRedactor.marker
        // A name starts at a word boundary or right after a percent-escape (`%3Fkey%3D...`).
        let start = #"(?:(?<=%[0-9A-Fa-f]{2})|\b)"#
        // Between a name and its value: quotes, escaped quotes (`\"` in JSON logged as a string),
        // the `")` of a printed Swift dictionary, spaces, and `:`, `=` or a percent-encoded `=`.
        let separator = #"((?:\\*["'])?\)?\s*(?:[:=]|%(?:25)?3[Dd])\s*(?:\\*["'])?)"#
        // A value runs to a space, quote, backslash, bracket, delimiter or (encoded or not) `&`.
        let value = #"(?:[^\s"',;})\]>&\\%]|%(?!(?:25)?26)[0-9A-Fa-f]{2})+"#
        let specs: [(String, String)] = [
            // Authorization: Bearer abc, Authorization=Basic abc, [AnyHashable("Authorization"): Basic abc]
            (
                #"(?i)"# + start + #"((?:proxy-)?authorization)"# + separator + #"(bearer\s+|basic\s+|token\s+)?(?:\\*["'])?"# + value,
                "$1$2$3\(m)"
            ),
            (#"(?i)\bbearer\s+["']?[A-Za-z0-9._~+/=-]{6,}"#, "Bearer \(m)"),
            // Headers and JSON, form or query fields that carry keys: x-goog-api-key: ..., "api_key": "...",
            // ?key=..., token=..., Ocp-Apim-Subscription-Key: ..., private_key = ... (words joined
            // by - or _ before the name, so `monkey` and `tokens` are left alone).
            (
                #"(?i)"# + start + #"((?:[a-z0-9]+[-_])*(?:api[-_]?key|access[-_]?token|refresh[-_]?token|auth[-_]?token|id[-_]?token|"#
                    + #"client[-_]?secret|private[-_]?key|secret[-_]?key|subscription[-_]?key|key|token|secret|password|passwd|sig|signature))"#
                    + separator + value,
                "$1$2\(m)"
            ),
            // OAuth codes in URLs: ?code=..., &code=... (percent-encoded too), whatever the value.
            (#"(?i)(?<=[?&]|%3[Ff]|%26|%253[Ff]|%2526)(code)((?:=|%(?:25)?3[Dd]))"# + value, "$1$2\(m)"),
            // Any other `code=` except an integer: NSError's `Domain=NSURLErrorDomain Code=-1009`
            // is the most useful part of an error message, not a secret.
            (
                #"(?i)"# + start + #"(code)((?:=|%(?:25)?3[Dd]))(?!-?[0-9]{1,10}(?![0-9A-Za-z_~+/=\-]|\.[^\s"',;})\]>&\\%])|\[REDACTED\])"#
                    + value,
                "$1$2\(m)"
            ),
            // Bare Google API keys, OpenAI-style keys, JSON Web Tokens.
            (#"AIza[0-9A-Za-z_\-]{20,}"#, m),
            (#"\bsk-[A-Za-z0-9_\-]{16,}"#, m),
            // A JWT: a base64url JSON header (`{"` is `eyJ`), a payload, and a signature, which an
            // unsigned token (`alg: none`) leaves empty; short tokens too.
            (#"\beyJ[A-Za-z0-9_\-]{5,}\.[A-Za-z0-9_\-]{2,}\.[A-Za-z0-9_\-]*"#, m),
            // Providers' keys and tokens by their published prefixes; Stripe's publishable keys
            // too, which are no secret but name the account.
            (#"\bpk_(?:live|test)_[0-9A-Za-z]{10,}"#, m),
            (#"(?i)(hooks\.slack\.com/services/)[A-Za-z0-9/_-]+"#, "$1\(m)"),  // Slack webhooks
        ]
        let shapes: [(String, String)] = KeyShapes.providers.map { ($0.pattern, m) }
        let after: [(String, String)] = [
            // A password in a URL's authority: scheme://user:password@host.
            (#"(?<=://)([^/\s:@"']+):[^/\s@"']+@"#, "$1:\(m)@"),
            // Cookie and Set-Cookie headers: the whole value, to the end of the line or a quote.
            (#"(?i)"# + start + #"((?:set-)?cookie)"# + separator + #"[^\r\n"\\]+"#, "$1$2\(m)"),
        ]
        rules = (specs + shapes + after).map { pattern, template in
            // The patterns are constants of this file; a failure here is a programming error.
            Rule(regex: try! NSRegularExpression(pattern: pattern), template: template)
        }
    }

    /// `text` with every secret replaced by `[REDACTED]`.
    package func redact(_ text: String) -> String {
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
