import Foundation
import Testing
import WidgetQuotaLint
import WidgetQuotaLogs
import WidgetQuotaSupport

/// Secrets as a class: random keys of every shape, in the places a log or an app puts them, are
/// redacted from logs and reported by `lint` (in code and in property lists and build settings).
@Suite("secret shapes, property")
struct SecretShapePropertyTests {
    /// A shape: a fixed start, then runs of characters from an alphabet, of random lengths.
    struct Shape: Sendable, CustomTestStringConvertible {
        let name: String
        let start: String
        let runs: [(alphabet: String, lengths: ClosedRange<Int>, then: String)]
        var testDescription: String { name }

        func key(_ rng: inout RandomStream) -> String {
            var key = start
            for run in runs {
                let letters = Array(run.alphabet)
                let n = run.lengths.lowerBound + Int(rng.next() % UInt64(run.lengths.count))
                for _ in 0..<n { key.append(letters[Int(rng.next() % UInt64(letters.count))]) }
                key += run.then
            }
            return key
        }
    }

    static let upper = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    static let digits = "0123456789"
    static let alnum = upper + upper.lowercased() + digits
    static let url = alnum + "_-"

    // Starts are split so that no scanner reads this file as holding keys.
    static let shapes: [Shape] = [
        Shape(name: "Google API key", start: "AI" + "za", runs: [(url, 35...35, "")]),
        Shape(name: "OpenAI key", start: "sk-" + "proj-", runs: [(url, 20...60, "")]),
        Shape(name: "JSON Web Token", start: "ey" + "J", runs: [(url, 8...30, "."), (url, 2...40, "."), (url, 0...43, "")]),
        Shape(name: "AWS access key id", start: "AK" + "IA", runs: [(upper + digits, 16...16, "")]),
        Shape(name: "GitHub token", start: "gh" + "p_", runs: [(alnum, 36...36, "")]),
        Shape(name: "GitHub fine-grained token", start: "github" + "_pat_", runs: [(alnum + "_", 22...82, "")]),
        Shape(name: "Stripe secret key", start: "sk" + "_live_", runs: [(alnum, 24...99, "")]),
        Shape(name: "Slack token", start: "xo" + "xb-", runs: [(digits, 10...13, "-"), (alnum, 10...32, "")]),
        Shape(name: "Hugging Face token", start: "hf" + "_", runs: [(alnum, 34...40, "")]),
        Shape(name: "SendGrid key", start: "SG" + ".", runs: [(url, 22...22, "."), (url, 43...43, "")]),
        Shape(name: "Google OAuth token", start: "ya" + "29.", runs: [(url, 20...150, "")]),
        Shape(name: "Google OAuth client secret", start: "GOC" + "SPX-", runs: [(url, 28...28, "")]),
    ]

    /// Where a key stands in a log line.
    static let lines: [@Sendable (String) -> String] = [
        { "fetch failed for \($0) retrying" },
        { "request {\"credential\": \"\($0)\"}" },
        { "GET https://api.example.com/v1/quote/\($0)/latest" },
        { "[\($0)]" },
        { $0 },
    ]

    @Test("random keys of each shape are redacted from logs and reported by lint", arguments: shapes)
    func keysAreRedactedAndReported(shape: Shape) throws {
        var rng = RandomStream(seed: 46, RandomStream.mix(UInt64(shape.name.utf8.count)))
        for _ in 0..<40 {
            let key = shape.key(&rng)
            for line in Self.lines {
                let redacted = SecretRedactor.shared.redact(line(key))
                #expect(!redacted.contains(key.dropFirst(4).prefix(12)), "\(shape.name): \(redacted)")
            }
            #expect(APIKeyInClientRule.keyShape(in: "let k = \"\(key)\"") != nil, "\(shape.name): \(key.prefix(8))… in code")
            #expect(APIKeyInClientRule.keyDescription(name: "SERVICE_URL", value: key) != nil, "\(shape.name) in a setting")
        }
    }
}
