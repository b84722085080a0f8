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
    package static let markers = [
        "AKIA", "ASIA", "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "k_live_", "k_test_", "xox", "hf_", "SG.", "ya29.",
        "GOCSPX-",
    ]

    private static let markerBytes = markers.map { Array($0.utf8) }

    /// True when `text` holds a marker: one pass over its bytes (lint asks this of every string
    /// literal of an app, where Foundation's string search per marker was the cost).
    static func holdsMarker(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { b in
            for i in b.indices {
                for m in markerBytes where b[i] == m[0] && i + m.count <= b.count {
                    var j = 1
                    while j < m.count && b[i + j] == m[j] { j += 1 }
                    if j == m.count { return true }
                }
            }
            return false
        }
    }

    private struct Compiled: @unchecked Sendable {
        let kind: String
        let regex: NSRegularExpression
    }

    // The patterns are constants of this file; a failure to compile one is a programming error.
    private static let compiled = providers.map { Compiled(kind: $0.kind, regex: try! NSRegularExpression(pattern: $0.pattern)) }

    /// The first provider-shaped key in `text` and what kind of key it is.
    package static func firstProviderKey(in text: String) -> (kind: String, key: String)? {
        guard holdsMarker(text) else { return nil }
        let range = NSRange(text.startIndex..., in: text)
        for shape in compiled {
            if let m = shape.regex.firstMatch(in: text, range: range), let r = Range(m.range, in: text) {
                return (shape.kind, String(text[r]))
            }
        }
        return nil
    }
}
