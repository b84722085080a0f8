import Foundation

/// Secret keys and tokens told by the prefixes their providers publish: what `analyze` redacts
/// from logs and what `lint` reports in an app's code, property lists and build settings.
///
/// Each shape is a regular expression over the token alone. Publishable keys that are meant to
/// ship in an app (Stripe's `pk_live_…`) are not secrets and are left out.
package enum KeyShapes {
    /// A shape: what the key is, in words, and its pattern.
    package struct Shape: Sendable {
        /// "an AWS access key id", for messages.
        package let kind: String
        package let pattern: String
    }

    /// The providers' shapes, in the order they are tried.
    package static let providers: [Shape] = [
        Shape(kind: "an AWS access key id", pattern: #"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b"#),
        Shape(kind: "a GitHub token", pattern: #"\bgh[pousr]_[A-Za-z0-9]{30,255}\b"#),
        Shape(kind: "a GitHub token", pattern: #"\bgithub_pat_[A-Za-z0-9_]{22,255}\b"#),
        Shape(kind: "a Stripe secret key", pattern: #"\b[rs]k_(?:live|test)_[0-9A-Za-z]{10,}"#),
        Shape(kind: "a Slack token", pattern: #"\bxox[abposr]-[0-9A-Za-z-]{10,}"#),
        Shape(kind: "a Hugging Face token", pattern: #"\bhf_[A-Za-z0-9]{30,}"#),
        Shape(kind: "a SendGrid key", pattern: #"\bSG\.[A-Za-z0-9_\-]{16,}\.[A-Za-z0-9_\-]{16,}"#),
        Shape(kind: "a Google OAuth access token", pattern: #"\bya29\.[0-9A-Za-z_\-]{20,}"#),
        Shape(kind: "a Google OAuth client secret", pattern: #"\bGOCSPX-[0-9A-Za-z_\-]{20,}"#),
    ]

    /// Text any shape's match holds (ASCII, case as written): a text with none of them needs no
    /// regular expression.
    package static let markers = ["AKIA", "ASIA", "gh", "github_pat_", "k_live_", "k_test_", "xox", "hf_", "SG.", "ya29.", "GOCSPX-"]

    private struct Compiled: @unchecked Sendable {
        let kind: String
        let regex: NSRegularExpression
    }

    // The patterns are constants of this file; a failure to compile one is a programming error.
    private static let compiled = providers.map { Compiled(kind: $0.kind, regex: try! NSRegularExpression(pattern: $0.pattern)) }

    /// The first provider-shaped key in `text` and what kind of key it is.
    package static func firstProviderKey(in text: String) -> (kind: String, key: String)? {
        guard markers.contains(where: text.contains) else { return nil }
        let range = NSRange(text.startIndex..., in: text)
        for shape in compiled {
            if let m = shape.regex.firstMatch(in: text, range: range), let r = Range(m.range, in: text) {
                return (shape.kind, String(text[r]))
            }
        }
        return nil
    }
}
