import Foundation
import WidgetQuotaModel
import WidgetQuotaSupport
import WidgetQuotaSwiftSource

/// `api-key-in-client`: no API key in the app's or the extension's code.
///
/// Reported at the string literal or the call, in any Swift file of the tree:
/// - a string literal shaped like a key: a Google key (`AIza` and 35 more key characters), an
///   OpenAI- or Anthropic-style key (`sk-`, `sk-proj-`, `sk-ant-` and 20 or more), a JSON Web
///   Token, or a key of a provider that publishes its prefix (AWS, GitHub, Stripe's secret keys,
///   Slack, Hugging Face, SendGrid, Google OAuth: `KeyShapes`);
/// - a long high-entropy literal (24 or more letters, digits, `_-+/=`; 32 or more for hex)
///   given to a name holding `key`, `token`, `secret` or `password`: a `let`, a member
///   assignment, or a call's argument label (`apiKey: "…"`; `forKey:`-style labels excluded);
/// - a URL literal with a `key=` or `api_key=` query parameter (interpolated strings included);
/// - an API-key header: `x-goog-api-key`, `x-api-key` and the like, or `Authorization` with a
///   `Bearer` literal holding a token or a key-named value, set with
///   `setValue(_:forHTTPHeaderField:)` / `addValue(_:forHTTPHeaderField:)` or as a key of a
///   dictionary literal.
///
/// A literal that reads as words (a `UserDefaults` or Keychain item name) is a name, not a key.
/// Tests and files no target builds are not read: they do not ship.
///
/// One finding per line. Messages never quote the key: it is shown as its first six characters,
/// `…` and its length.
///
/// Property lists and build settings ship too: a key-shaped value in a property list (an
/// `Info.plist`, which `Bundle.main.object(forInfoDictionaryKey:)` reads, or another bundled
/// `.plist`), or a secret-named key holding a key-like value, and the same in an `.xcconfig`
/// file, whose settings an `Info.plist` copies into the bundle through `$(NAME)`
/// (see `APIKeyInSettings.swift`).
///
/// Not seen: a key assembled from pieces or obfuscated (base64, XOR).
package struct APIKeyInClientRule: LintRule {
    package static let description = LintRuleDescription(
        .apiKeyInClient, title: "No API key in client code", severity: .error,
        rationale: "A key shipped in an app can be extracted and billed to you; call the API through your own server.")
    package init() {}

    /// Header names whose value is an API key (lowercased).
    static let keyHeaders: Set<String> = [
        "x-goog-api-key", "x-api-key", "api-key", "apikey", "x-apikey", "ocp-apim-subscription-key", "x-rapidapi-key",
    ]
    static let keyParameters = ["key=", "api_key=", "apikey=", "api-key="].map { Array($0.utf8) }

    /// The `key=`-style query parameter of a URL text (after `?` or `&`, any case), if any.
    package static func keyParameter(in text: String) -> String? {
        let u = Array(text.utf8)
        for i in u.indices where u[i] == 0x3F || u[i] == 0x26 {
            for parameter in keyParameters where i + parameter.count < u.count {
                var same = true
                for (j, c) in parameter.enumerated() where (u[i + 1 + j] | 0x20) != (c | 0x20) {
                    same = false
                    break
                }
                if same { return String(decoding: parameter, as: UTF8.self) }
            }
        }
        return nil
    }
    static let fix = "call the API through your own server, which holds the key; rotate this key"

    package func check(_ source: LintSource) -> [Finding] {
        let tree = source.tree
        var findings = [Finding]()
        for file in tree.swiftFiles where !Self.isNotShipped(file, in: tree) {
            var lines = Set<Int>()
            func add(_ location: SourceLocation, _ message: String) {
                guard lines.insert(location.line).inserted else { return }
                findings.append(finding(file.path, location, message, fix: Self.fix))
            }
            let index = file.index
            let side = file.role == .widgetExtension ? "the widget extension" : file.role == .app ? "the app" : "client code"
            // Literals shaped like a key.
            for s in index.strings {
                if let (kind, key) = Self.keyShape(in: s.value) {
                    add(s.location, "\(kind) \(Self.redacted(key)) is compiled into \(side)")
                }
            }
            // High-entropy literals given to a key-like name.
            for c in index.constants where Self.isSecretName(c.name) {
                if let value = index.apiKeyRulePlainString(c.value), Self.looksLikeSecret(value) {
                    add(c.location, "`\(c.name)` holds a key-like literal \(Self.redacted(value)) compiled into \(side)")
                }
            }
            for a in index.assignments where Self.isSecretName(String(a.target.split(separator: ".").last ?? "")) {
                if let value = index.apiKeyRulePlainString(a.value), Self.looksLikeSecret(value) {
                    add(a.location, "`\(a.target)` is set to a key-like literal \(Self.redacted(value)) in \(side)")
                }
            }
            for call in index.calls where !call.arguments.isEmpty {
                for argument in call.arguments {
                    guard let label = argument.label, Self.isSecretName(label), !label.hasPrefix("for") else { continue }
                    if let value = index.apiKeyRulePlainString(argument.tokens), Self.looksLikeSecret(value) {
                        add(
                            index.tokens[argument.tokens.lowerBound].location,
                            "`\(label):` is given a key-like literal \(Self.redacted(value)) in \(side)")
                    }
                }
            }
            // `key=` in a URL.
            for s in index.strings {
                if let parameter = Self.keyParameter(in: s.value) {
                    add(s.location, "a URL in \(side) carries the API key in its `\(parameter)` query parameter")
                }
            }
            // API-key headers.
            for call in index.calls where call.arguments.count == 2 && call.arguments[1].label == "forHTTPHeaderField" {
                guard call.name == "setValue" || call.name == "addValue",
                    let header = index.appGroupRuleString(call.arguments[1].tokens, tree: nil)
                else { continue }
                if isKeyHeader(header, value: call.arguments[0].tokens, in: index) {
                    add(call.location, "`\(call.name)` sets the API-key header `\(header)` in \(side)")
                }
            }
            for s in index.strings where s.token + 1 < index.tokens.count && index.tokens[s.token + 1].is(":") {
                let valueStart = s.token + 2
                let valueEnd = index.apiKeyRuleDictionaryValueEnd(from: valueStart)
                if isKeyHeader(s.value, value: valueStart..<valueEnd, in: index) {
                    add(s.location, "a headers dictionary sets the API-key header `\(s.value)` in \(side)")
                }
            }
        }
        findings += settingsFindings(tree)
        return findings
    }

    /// True for an API-key header, or `Authorization` whose value is a `Bearer` literal holding a
    /// token or a key-named value.
    func isKeyHeader(_ header: String, value: Range<Int>, in index: SwiftFileIndex) -> Bool {
        let name = header.lowercased()
        if Self.keyHeaders.contains(name) { return true }
        guard name == "authorization", !value.isEmpty, value.upperBound <= index.tokens.count else { return false }
        let tokens = index.tokens[value]
        guard let literal = tokens.first(where: { $0.kind == .string }), let text = literal.value,
            text.lowercased().hasPrefix("bearer ")
        else { return false }
        let rest = text.dropFirst("bearer ".count).trimmingCharacters(in: .whitespaces)
        if !rest.isEmpty { return true }
        return tokens.contains { $0.kind == .identifier && Self.isKeyName($0.text) }
    }

    static let secretWords = ["key", "token", "secret", "password"].map { Array($0.utf8) }
    static let keyWords = ["key", "secret"].map { Array($0.utf8) }

    /// A name that holds a key: `apiKey`, `GEMINI_KEY`, `accessToken`, `clientSecret`, `password`.
    static func isSecretName(_ name: String) -> Bool {
        containsWord(name, secretWords)
    }

    /// A name that holds an API key rather than a user's session token.
    static func isKeyName(_ name: String) -> Bool {
        containsWord(name, keyWords)
    }

    /// True when `name` holds one of `words` (lowercase ASCII), ignoring ASCII case.
    static func containsWord(_ name: String, _ words: [[UInt8]]) -> Bool {
        let u = Array(name.utf8)
        for w in words {
            guard w.count <= u.count else { continue }
            for i in 0...(u.count - w.count) {
                var same = true
                for j in 0..<w.count {
                    let c = u[i + j]
                    if (c >= 0x41 && c <= 0x5A ? c | 0x20 : c) != w[j] {
                        same = false
                        break
                    }
                }
                if same { return true }
            }
        }
        return false
    }

    static func isKeyCharacter(_ c: UInt8) -> Bool {
        (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x5F || c == 0x2D
    }

    static let googlePrefix = Array("AIza".utf8)
    static let secretPrefix = Array("sk-".utf8)
    static let tokenPrefix = Array("eyJ".utf8)

    /// The first key-shaped run of `text` and what kind of key it is.
    package static func keyShape(in text: String) -> (String, String)? {
        var u = [UInt8]()
        u.reserveCapacity(text.utf8.count)
        u.append(contentsOf: text.utf8)
        func run(from k: Int) -> Int {
            var n = k
            while n < u.count && isKeyCharacter(u[n]) { n += 1 }
            return n
        }
        func has(_ prefix: [UInt8], at i: Int) -> Bool {
            guard i + prefix.count <= u.count else { return false }
            for (j, c) in prefix.enumerated() where u[i + j] != c { return false }
            return true
        }
        var i = 0
        while i < u.count {
            let c = u[i]
            guard c == 0x41 || c == 0x73 || c == 0x65, i == 0 || !isKeyCharacter(u[i - 1]) else {
                i += 1
                continue
            }
            if has(googlePrefix, at: i) {
                let end = run(from: i + 4)
                if end - i - 4 >= 35 { return ("a Google API key", String(decoding: u[i..<end], as: UTF8.self)) }
            }
            if has(secretPrefix, at: i) {
                let end = run(from: i + 3)
                if end - i - 3 >= 20 { return ("a secret API key", String(decoding: u[i..<end], as: UTF8.self)) }
            }
            // A JWT as the log redactor knows it: header (`eyJ` and 5 more), payload (2 or more),
            // and a signature, empty in an unsigned token.
            if has(tokenPrefix, at: i) {
                let header = run(from: i)
                if header - i >= 8, header < u.count, u[header] == 0x2E {
                    let payload = run(from: header + 1)
                    if payload - header - 1 >= 2, payload < u.count, u[payload] == 0x2E {
                        let end = run(from: payload + 1)
                        return ("a JSON Web Token", String(decoding: u[i..<end], as: UTF8.self))
                    }
                }
            }
            i += 1
        }
        if let (kind, key) = KeyShapes.firstProviderKey(in: text) { return (kind, key) }
        return nil
    }

    /// A long literal of key characters with the spread of a random token. A publishable key
    /// (Stripe's `pk_live_…`, made to ship in apps) is not a secret.
    package static func looksLikeSecret(_ value: String) -> Bool {
        if value.hasPrefix("pk_live_") || value.hasPrefix("pk_test_") { return false }
        let u = Array(value.utf8)
        guard u.count >= 24, u.count <= 512 else { return false }
        let allowed = u.allSatisfy { isKeyCharacter($0) || $0 == 0x2B || $0 == 0x2F || $0 == 0x3D }
        let letters = u.contains { ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) }
        let digits = u.contains { $0 >= 0x30 && $0 <= 0x39 }
        guard allowed, letters, digits, !readsAsWords(u) else { return false }
        var counts = [UInt8: Int]()
        for c in u { counts[c, default: 0] += 1 }
        let n = Double(u.count)
        let entropy = counts.values.reduce(0.0) { e, k in
            let p = Double(k) / n
            return e - p * log2(p)
        }
        let hex = u.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) || ($0 >= 0x41 && $0 <= 0x46) }
        return hex ? (u.count >= 32 && entropy >= 3.0) : entropy >= 3.8
    }

    /// True when a literal reads as a name made of words (`didPurgeImageCachesForResizingKey`,
    /// `carPlayLastConfigurationV2`): split at case changes, digits and punctuation, chunks of
    /// three or more letters holding a vowel cover two thirds of it. A key's characters are
    /// random, so its letter runs are short.
    static func readsAsWords(_ u: [UInt8]) -> Bool {
        func isUpper(_ c: UInt8) -> Bool { c >= 0x41 && c <= 0x5A }
        func isLower(_ c: UInt8) -> Bool { c >= 0x61 && c <= 0x7A }
        let vowels: Set<UInt8> = Set("aeiouyAEIOUY".utf8)
        var covered = 0
        var start = 0
        func close(_ end: Int) {
            let chunk = u[start..<end]
            if chunk.count >= 3 && chunk.contains(where: vowels.contains) { covered += chunk.count }
        }
        for k in u.indices {
            let c = u[k]
            let letter = isUpper(c) || isLower(c)
            if !letter {
                close(k)
                start = k + 1
            } else if k > start && isUpper(c) && isLower(u[k - 1]) {
                close(k)
                start = k
            }
        }
        close(u.count)
        return covered * 3 >= u.count * 2
    }

    /// True for a file the app never ships (`AppSourceTree.neverShips`).
    static func isNotShipped(_ file: AppSwiftFile, in tree: AppSourceTree) -> Bool { tree.neverShips(file) }

    /// `AIzaSy…` (39 characters): the key's first six characters and its length.
    package static func redacted(_ key: String) -> String {
        "`\(key.prefix(6))…` (\(key.count) characters)"
    }

    package var examples: [LintRuleExample] {
        [
            LintRuleExample(
                "key names, a test's query parameter and a demo file no target builds are not keys",
                files: [
                    "App/Settings.swift": """
                    import Foundation
                    enum Settings {
                        static let didPurgeCachesKey = "didPurgeImageCachesForResizing-2026-03-30"
                        static let notificationPrivateKeyName = "notification-private-key-base64"
                        static func save() { UserDefaults.standard.set(true, forKey: didPurgeCachesKey) }
                    }
                    """,
                    "App/Tests/URLTests.swift": """
                    import XCTest
                    final class URLTests: XCTestCase {
                        func testKey() { XCTAssertNotNil(URL(string: "https://duck.ai/?key=oldValue")) }
                    }
                    """,
                ]),
            LintRuleExample(
                "a hex key given to a key-named constant in the app",
                files: [
                    "App/Secrets.swift": """
                    enum Secrets {
                        static let ↓weatherApiKey = "6805ca9fb1e04c2d8a7e3f5b9d1c4e07"
                    }
                    """
                ]),
            LintRuleExample(
                "a Google key literal, a key header and key= in an interpolated URL",
                files: [
                    "Widget/Provider.swift": """
                    import WidgetKit
                    struct Provider: TimelineProvider {
                        let apiKey = ↓"AIzaSyFAKE-KEY-FOR-TESTS-ONLY-000000000"
                        func request() -> URLRequest {
                            var request = URLRequest(url: URL(string: "https://example.com/v1/generate")!)
                            request.↓setValue(apiKey, forHTTPHeaderField: "x-goog-api-key")
                            return request
                        }
                    }
                    """,
                    "App/Fetcher.swift": """
                    import Foundation
                    struct Fetcher {
                        let key = Bundle.main.object(forInfoDictionaryKey: "GeminiKey") as? String ?? ""
                        var url: URL { URL(string: ↓"https://example.com/v1/models:generate?alt=json&key=\\(key)")! }
                    }
                    """,
                ]),
            LintRuleExample(
                "an OpenAI key in a Bearer header dictionary, a token constant and an SDK key argument",
                files: [
                    "App/Client.swift": """
                    import Foundation
                    struct Client {
                        static let headers = ["Authorization": ↓"Bearer sk-proj-FAKEFAKEFAKEFAKEFAKE0000"]
                        static let ↓serviceToken = "q8ZtR2vX9pLm4NcW7yKs3HbJ6dFa1GeU"
                        let model = GenerativeModel(name: "gemini-2.5-flash", apiKey: ↓"Zx81Qp0Lw93Nv7Tb5Ry2Mc6Kd4Hs1Fj0")
                        func authorize(_ r: inout URLRequest, openAIKey: String) {
                            r.↓setValue("Bearer \\(openAIKey)", forHTTPHeaderField: "Authorization")
                        }
                    }
                    """
                ]),
            LintRuleExample(
                "key-shaped text in a comment, Info.plist key names, defaults keys and a user's session token",
                files: [
                    "App/Fetcher.swift": """
                    import Foundation
                    // An earlier build kept AIzaSyFAKE-KEY-FOR-TESTS-ONLY-000000000 here; the key now lives on our server.
                    struct Fetcher {
                        let name = Bundle.main.object(forInfoDictionaryKey: "GeminiKey") as? String
                        let cacheKey = "quote.fetchedAt"
                        func store(_ d: UserDefaults) { d.set(1, forKey: "widget_cache_last_fetched_at_v2") }
                        func authorize(_ r: inout URLRequest, session: Session) {
                            r.setValue("Bearer \\(session.accessToken)", forHTTPHeaderField: "Authorization")
                            r.setValue("application/json", forHTTPHeaderField: "Content-Type")
                        }
                        let monkey = "https://example.com/search?monkey=1&keys=2"
                    }
                    """
                ]),
            LintRuleExample(
                "keys in the widget's Info.plist, another bundled property list and build settings",
                files: [
                    "Widget/Info.plist": Self.plist([
                        ("NSExtension", "<dict><key>NSExtensionPointIdentifier</key><string>com.apple.widgetkit-extension</string></dict>"),
                        ("WeatherServiceKey", "↓<string>AIzaSyFAKE-KEY-FOR-TESTS-ONLY-000000000</string>"),
                        ("QuoteToken", "<string>$(QUOTE_TOKEN)</string>"),
                    ]),
                    "App/Config.plist": Self.plist([
                        ("Services", "<array><string>ok</string>↓<string>hf_FAKEfakeFAKEfakeFAKEfakeFAKEfake00</string></array>")
                    ]),
                    "Config/Shared.xcconfig": """
                    // Shared settings
                    PRODUCT_BUNDLE_IDENTIFIER = com.example.quotes
                    API_BASE_URL = https:/$()/api.example.com/v1 // the backend
                    QUOTE_TOKEN = ↓q8ZtR2vX9pLm4NcW7yKs3HbJ6dFa1GeU
                    AWS_ACCESS_KEY_ID[config=Release] = ↓AKIAFAKEFAKEFAKE0000
                    STRIPE_PUBLISHABLE_KEY = pk_live_51FAKEfakeFAKEfake00FAKEfake
                    """,
                ]),
            LintRuleExample(
                "Firebase's configuration, a test's property list, names and a setting read through $(…) are not keys",
                files: [
                    "App/GoogleService-Info.plist": Self.plist([("API_KEY", "<string>AIzaSyFAKE-KEY-FOR-TESTS-ONLY-000000000</string>")]),
                    "App/Resources/GoogleService-Info-Release.plist": Self.plist([
                        ("API_KEY", "<string>AIzaSyFAKE-KEY-FOR-TESTS-ONLY-000000000</string>")
                    ]),
                    "AppTests/Fixture.plist": Self.plist([("apiKey", "<string>AIzaSyFAKE-KEY-FOR-TESTS-ONLY-000000000</string>")]),
                    "App/Settings.plist": Self.plist([
                        ("cacheKey", "<string>quote.fetchedAt</string>"), ("lastKey", "<string>$(API_KEY)</string>"),
                    ]),
                ]),
            LintRuleExample(
                "a backend URL without a key and a build hash that is not named like a key",
                files: [
                    "Widget/Provider.swift": """
                    import WidgetKit
                    struct Provider: TimelineProvider {
                        static let endpoint = URL(string: "https://api.example.com/v1/widget-quote?lang=en")!
                        static let buildHash = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
                        let headers = ["Content-Type": "application/json", "Accept": "application/json"]
                    }
                    """
                ]),
        ]
    }
}

extension APIKeyInClientRule {
    /// An XML property list of `entries` (a key and its value element, written as is), for examples.
    static func plist(_ entries: [(String, String)]) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0">
        <dict>
        \(entries.map { "    <key>\($0.0)</key>\n    \($0.1)" }.joined(separator: "\n"))
        </dict>
        </plist>
        """
    }
}

extension SwiftFileIndex {
    /// The value of a range that is exactly one string literal without interpolation.
    func apiKeyRulePlainString(_ range: Range<Int>) -> String? {
        guard range.count == 1, range.upperBound <= tokens.count else { return nil }
        let t = tokens[range.lowerBound]
        return t.kind == .string && t.interpolations == 0 ? t.value : nil
    }

    /// The end of a dictionary literal's value starting at `k`: the `,` or `]` at its own nesting.
    func apiKeyRuleDictionaryValueEnd(from k: Int) -> Int {
        var depth = 0
        var j = k
        while j < tokens.count && j < k + 64 {
            let t = tokens[j]
            if t.is("(") || t.is("[") || t.is("{") { depth += 1 }
            if t.is(")") || t.is("]") || t.is("}") {
                if depth == 0 { return j }
                depth -= 1
            }
            if depth == 0 && t.is(",") { return j }
            j += 1
        }
        return j
    }
}
