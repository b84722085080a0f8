import Foundation
import Testing
import WidgetQuotaLint
import WidgetQuotaSwiftSource
import WidgetQuotaTestSupport

/// A key in the widget's Info.plist or in an `.xcconfig` ships as surely as a Swift literal:
/// every key shape `lint` knows is reported in both, never quoted.
@Suite("api-key-in-client in property lists and build settings")
struct APIKeyInSettingsTests {
    /// Fake keys of each shape, assembled so no scanner mistakes this file for a leak.
    static let shapes: [(name: String, key: String)] = [
        ("Google", "AIza" + "SyFAKE-KEY-FOR-TESTS-ONLY-000000000"),
        ("OpenAI project", "sk-" + "proj-" + String(repeating: "F4KE", count: 6)),
        ("Anthropic", "sk-" + "ant-api03-" + String(repeating: "F4KE", count: 6)),
        ("JSON Web Token", "eyJ" + "hbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjMifQ.c2lnbmF0dXJl"),
        ("AWS", "AK" + "IA" + "F4KEF4KEF4KEF4KE"),
        ("GitHub classic", "gh" + "p_" + String(repeating: "F4ke", count: 9)),
        ("GitHub fine-grained", "github" + "_pat_" + String(repeating: "F4ke", count: 8)),
        ("Stripe secret", "sk" + "_live_" + String(repeating: "F4ke", count: 6)),
        ("Stripe restricted", "rk" + "_live_" + String(repeating: "F4ke", count: 6)),
        ("Slack", "xo" + "xb-1234567890-" + String(repeating: "F4ke", count: 3)),
        ("Hugging Face", "hf" + "_" + String(repeating: "F4ke", count: 9)),
        ("SendGrid", "SG" + "." + String(repeating: "F4ke", count: 5) + "." + String(repeating: "F4ke", count: 6)),
        ("Google OAuth token", "ya" + "29." + String(repeating: "F4ke", count: 6)),
        ("Google OAuth secret", "GOC" + "SPX-" + String(repeating: "F4ke", count: 6)),
        ("hex under a key name", "6805ca9fb1e04c2d" + "8a7e3f5b9d1c4e07"),
    ]

    @Test("every shape in the widget's Info.plist and in an xcconfig is reported, redacted", arguments: shapes.map(\.name))
    func everyShape(name: String) throws {
        let key = try #require(Self.shapes.first { $0.name == name }).key
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let root = try tmp.subfolder()
        let files = [
            "Widget/Info.plist": """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0">
            <dict>
                <key>NSExtension</key>
                <dict><key>NSExtensionPointIdentifier</key><string>com.apple.widgetkit-extension</string></dict>
                <key>QuoteServiceKey</key>
                <string>\(key)</string>
                <key>QuoteServiceToken</key>
                <string>$(QUOTE_SERVICE_TOKEN)</string>
            </dict>
            </plist>
            """,
            "Widget/Provider.swift": "import WidgetKit\nstruct Provider: TimelineProvider {}\n",
            "Config/Release.xcconfig": "QUOTE_SERVICE_TOKEN = \(key) // from the dashboard\n",
        ]
        for (path, text) in files {
            let url = URL(fileURLWithPath: root + "/" + path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        let tree = try AppSourceTree.load(paths: [root])
        let findings = APIKeyInClientRule().check(LintSource(tree))
        let places = findings.map { "\($0.location.file):\($0.location.line ?? 0)" }.sorted()
        #expect(places == ["Config/Release.xcconfig:1", "Widget/Info.plist:7"], "\(findings.map(\.message))")
        #expect(findings.allSatisfy { !$0.message.contains(key.dropFirst(6)) }, "\(findings.map(\.message))")
        let setting = try #require(findings.first { $0.location.file.hasSuffix(".xcconfig") })
        #expect(
            setting.message.contains("`Widget/Info.plist` copies it into the bundle through `$(QUOTE_SERVICE_TOKEN)`"), "\(setting.message)"
        )
        let plist = try #require(findings.first { $0.location.file.hasSuffix(".plist") })
        #expect(plist.message.contains("the widget extension's Info.plist"), "\(plist.message)")
    }
}
