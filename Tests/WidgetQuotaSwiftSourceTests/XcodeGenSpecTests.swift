import Foundation
import Testing
import WidgetQuotaSupport
import WidgetQuotaSwiftSource
import WidgetQuotaTestSupport

@Suite("YAML and XcodeGen specs") struct XcodeGenSpecTests {
    @Test(
        "YAML values as a project spec writes them",
        arguments: [
            (
                "a: 1\nb: text # a comment\nc: \"quoted # not a comment\"",
                PropertyList.dictionary(["a": .integer(1), "b": .string("text"), "c": .string("quoted # not a comment")])
            ),
            ("list:\n  - x\n  - 'y'\n", .dictionary(["list": .array([.string("x"), .string("y")])])),
            ("list:\n- x\n- y\n", .dictionary(["list": .array([.string("x"), .string("y")])])),
            (
                "s:\n  - path: A\n    excludes: [\"gpx\", '*.md']\n  - B\n",
                .dictionary([
                    "s": .array([
                        .dictionary(["path": .string("A"), "excludes": .array([.string("gpx"), .string("*.md")])]), .string("B"),
                    ])
                ])
            ),
            (
                "m: {a: true, b: [1, two], c: {d: e}}",
                .dictionary([
                    "m": .dictionary(["a": .bool(true), "b": .array([.integer(1), .string("two")]), "c": .dictionary(["d": .string("e")])])
                ])
            ),
            (
                "m: {\n  \"x.org\": {\n    k: 1\n  }\n}\nafter: z",
                .dictionary(["m": .dictionary(["x.org": .dictionary(["k": .integer(1)])]), "after": .string("z")])
            ),
            ("t: |\n  line one\n  line two\nu: v", .dictionary(["t": .string("line one\nline two"), "u": .string("v")])),
            ("url: https://example.com/a:b\n", .dictionary(["url": .string("https://example.com/a:b")])),
        ])
    func yaml(text: String, expected: PropertyList) throws {
        #expect(try YAMLSubset.parse(text, file: "p.yml") == expected)
    }

    @Test("bad YAML is an error naming the file and line", arguments: ["a: 1\n\tb: 2", "a: 1\n  b: 2\nc", "m: {a: 1"])
    func badYAML(text: String) {
        #expect(throws: WidgetQuotaError.self) { try YAMLSubset.parse(text, file: "p.yml") }
        do {
            _ = try YAMLSubset.parse(text, file: "p.yml")
        } catch {
            #expect("\(error)".contains("p.yml"))
        }
    }

    static let widgetSpec = """
        targets:
          QuoteWidget:
            type: app-extension
            platform: iOS
            sources: ["."]
            entitlements:
              path: QuoteWidget.entitlements
              properties:
                com.apple.security.application-groups: [group.com.example.quotes]
            info:
              path: Info.plist
              properties:
                NSExtension:
                  NSExtensionPointIdentifier: com.apple.widgetkit-extension
        """

    static let appSpec = """
        name: Quotes
        include:
          - path: QuoteWidget/project.yml
        targets:
          Quotes:
            type: application
            sources:
              - path: App
                excludes: ["Fixtures", "*.md"]
          QuotesTests:
            type: bundle.unit-test
            sources: [AppTests]
        """

    /// A tree described by an XcodeGen spec: the widget's Info.plist and entitlements are
    /// generated (absent from the tree), the widget's spec is included from its own folder.
    @Test("an XcodeGen spec assigns files to its targets, with the plists its properties generate")
    func specAssignsTargets() throws {
        let tmp = try TemporaryDirectory()
        let root = try AppSourceTreeTests.tree(
            [
                "project.yml": Self.appSpec,
                "QuoteWidget/project.yml": Self.widgetSpec,
                "App/QuotesApp.swift": "@main struct QuotesApp: App { var body: some Scene { WindowGroup { Text(\"q\") } } }",
                "App/Fixtures/Sample.swift": "let sample = 1",
                "AppTests/QuotesTests.swift": "func testIt() {}",
                "QuoteWidget/Provider.swift": "struct Provider: TimelineProvider {}",
                "QuoteWidget/Row.swift": "struct Row {}",
                "Scripts/tool.swift": "print(1)",
            ], in: tmp)
        let tree = try AppSourceTree.load(paths: [root])
        let roles = Dictionary(uniqueKeysWithValues: tree.swiftFiles.map { ($0.path, $0.role) })
        #expect(roles["App/QuotesApp.swift"] == .app)
        #expect(roles["App/Fixtures/Sample.swift"] == .unknown, "excluded from the app")
        #expect(roles["QuoteWidget/Provider.swift"] == .widgetExtension)
        #expect(roles["QuoteWidget/Row.swift"] == .widgetExtension)
        #expect(roles["AppTests/QuotesTests.swift"] == .unknown)
        #expect(roles["Scripts/tool.swift"] == .unknown)
        let widget = try #require(tree.targets.first { $0.role == .widgetExtension })
        #expect(widget.name == "QuoteWidget")
        #expect(widget.infoPlistPath == "QuoteWidget/Info.plist")
        #expect(widget.infoValue("NSExtension.NSExtensionPointIdentifier")?.string == "com.apple.widgetkit-extension")
        #expect(widget.entitlements?["com.apple.security.application-groups"]?.strings == ["group.com.example.quotes"])
        #expect(tree.projects.map(\.path) == ["project.yml"], "the included spec is read through the one that includes it")
    }

    /// Specs run from the repository's top name paths from there, not from their own folder.
    @Test("a path the spec's folder does not hold is taken from the tree's top")
    func pathsFromTheTop() throws {
        let tmp = try TemporaryDirectory()
        let root = try AppSourceTreeTests.tree(
            [
                "Apps/Quotes/project.yml": "targets:\n  W:\n    type: app-extension\n    sources: [Widget]\n",
                "Widget/Provider.swift": "struct Provider: TimelineProvider {}",
            ], in: tmp)
        let tree = try AppSourceTree.load(paths: [root])
        #expect(tree.swiftFiles.first?.role == .widgetExtension)
        #expect(tree.swiftFiles.first?.targets == ["W"])
    }

    @Test("an Xcode project's file outside its group's folder (`../App/File.swift`) is found")
    func dotDotPath() {
        #expect(XcodeGenSpec.normalize("Core/../App/File.swift") == "App/File.swift")
        #expect(XcodeGenSpec.normalize("./a/./b") == "a/b")
        #expect(XcodeGenSpec.normalize("../x") == "../x")
    }

    @Test(
        "XcodeGen's excludes",
        arguments: [
            ("gpx/a.gpx", "gpx", true), ("a/b.md", "**/*.md", true), ("b.md", "*.md", true), ("a/b.md", "*.md", false),
            ("gpxx/a", "gpx", false),
        ])
    func excludes(path: String, pattern: String, matches: Bool) {
        #expect(XcodeGenSpec.matches(path, pattern) == matches)
    }
}
