import Foundation
import Testing
import WidgetQuotaSupport
import WidgetQuotaSwiftSource
import WidgetQuotaTestSupport

@Suite("App source tree") struct AppSourceTreeTests {
    static func plist(_ body: String) -> String {
        "<?xml version=\"1.0\"?>\n<plist version=\"1.0\">\n<dict>\n\(body)\n</dict>\n</plist>\n"
    }

    static let groups = "<key>com.apple.security.application-groups</key><array><string>group.com.example.quotes</string></array>"
    static let widgetPoint =
        "<key>NSExtension</key><dict><key>NSExtensionPointIdentifier</key><string>com.apple.widgetkit-extension</string></dict>"

    /// Writes `files` (relative path → text) under a new folder and returns it.
    static func tree(_ files: [String: String], in tmp: TemporaryDirectory) throws -> String {
        let root = try tmp.subfolder()
        for (path, text) in files {
            let url = URL(fileURLWithPath: root + "/" + path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        return root
    }

    static let appFiles: [String: String] = [
        "QuoteApp/QuoteApp.swift": "@main struct QuoteApp: App { var body: some Scene { WindowGroup { Text(\"hi\") } } }",
        "QuoteApp/Fetcher.swift": "func fetch() async throws { _ = try await URLSession.shared.data(from: url) }",
        "QuoteApp/Info.plist": plist("<key>UIBackgroundModes</key><array><string>fetch</string></array>"),
        "QuoteApp/QuoteApp.entitlements": plist(groups),
        "QuoteWidget/Views.swift": "struct Row: View { var body: some View { Text(\"row\") } }",
        "QuoteWidget/Provider.swift": "struct Provider: AppIntentTimelineProvider {}",
        "QuoteWidget/Info.plist": plist(widgetPoint),
        "QuoteWidget/QuoteWidget.entitlements": plist(groups),
        ".build/Junk.swift": "URLSession.shared.data(from: x)",
        "Pods/Lib/Lib.swift": "let x = 1",
        "QuoteApp/Assets.xcassets/Contents.json": "{}",
        "README.md": "not read",
    ]

    @Test("without a project file: the widget extension by its Info.plist and its provider, the rest is the app")
    func withoutProject() throws {
        let tmp = try TemporaryDirectory()
        let root = try Self.tree(Self.appFiles, in: tmp)
        let tree = try AppSourceTree.load(paths: [root])
        #expect(tree.project == nil)
        #expect(
            tree.swiftFiles.map(\.path) == [
                "QuoteApp/Fetcher.swift", "QuoteApp/QuoteApp.swift", "QuoteWidget/Provider.swift", "QuoteWidget/Views.swift",
            ])
        #expect(tree.swiftFiles.map(\.role) == [.app, .app, .widgetExtension, .widgetExtension])
        let widget = try #require(tree.widgetExtension)
        #expect(widget.name == "QuoteWidget")
        #expect(widget.infoPlistPath == "QuoteWidget/Info.plist")
        #expect(widget.appGroups == ["group.com.example.quotes"])
        let app = try #require(tree.app)
        #expect(app.infoValue("UIBackgroundModes")?.strings == ["fetch"])
        #expect(app.entitlementsPath == "QuoteApp/QuoteApp.entitlements")
        #expect(app.swiftFiles == ["QuoteApp/Fetcher.swift", "QuoteApp/QuoteApp.swift"])
        #expect(tree.swiftFile("QuoteApp/Fetcher.swift")?.index.calls(named: "data").count == 1)
    }

    @Test("a provider file alone puts its folder in the extension, without any Info.plist")
    func providerOnly() throws {
        let tmp = try TemporaryDirectory()
        let root = try Self.tree(
            [
                "App/Main.swift": "struct Main {}",
                "Widget/Provider.swift": "struct P: TimelineProvider {}",
                "Widget/Entry.swift": "struct E: TimelineEntry {}",
                "Top.swift": "struct W: Widget {}",
            ], in: tmp)
        let tree = try AppSourceTree.load(paths: [root])
        #expect(
            Dictionary(uniqueKeysWithValues: tree.swiftFiles.map { ($0.path, $0.role) }) == [
                "App/Main.swift": .app, "Top.swift": .widgetExtension, "Widget/Entry.swift": .widgetExtension,
                "Widget/Provider.swift": .widgetExtension,
            ])
    }

    @Test("with a project file: targets, roles and settings come from it")
    func withProject() throws {
        var files = Self.appFiles
        files["QuoteApp.xcodeproj/project.pbxproj"] = #"""
            // !$*UTF8*$!
            { objects = {
                A1 = {isa = PBXBuildFile; fileRef = R1; };
                A2 = {isa = PBXBuildFile; fileRef = R2; };
                A3 = {isa = PBXBuildFile; fileRef = R3; };
                R1 = {isa = PBXFileReference; path = QuoteApp.swift; sourceTree = "<group>"; };
                R2 = {isa = PBXFileReference; path = Fetcher.swift; sourceTree = "<group>"; };
                R3 = {isa = PBXFileReference; path = Provider.swift; sourceTree = "<group>"; };
                G0 = {isa = PBXGroup; children = (G1, G2); sourceTree = "<group>"; };
                G1 = {isa = PBXGroup; children = (R1, R2); path = QuoteApp; sourceTree = "<group>"; };
                G2 = {isa = PBXGroup; children = (R3); path = QuoteWidget; sourceTree = "<group>"; };
                P1 = {isa = PBXSourcesBuildPhase; files = (A1, ); };
                P2 = {isa = PBXSourcesBuildPhase; files = (A2, A3, ); };
                T1 = {isa = PBXNativeTarget; buildConfigurationList = L1; buildPhases = (P1); name = Quotes; productType = "com.apple.product-type.application"; };
                T2 = {isa = PBXNativeTarget; buildConfigurationList = L2; buildPhases = (P2); name = QuotesWidget; productType = "com.apple.product-type.app-extension"; };
                L1 = {isa = XCConfigurationList; buildConfigurations = (C1); };
                L2 = {isa = XCConfigurationList; buildConfigurations = (C2); };
                C1 = {isa = XCBuildConfiguration; buildSettings = {INFOPLIST_FILE = QuoteApp/Info.plist; CODE_SIGN_ENTITLEMENTS = QuoteApp/QuoteApp.entitlements; }; };
                C2 = {isa = XCBuildConfiguration; buildSettings = {INFOPLIST_FILE = QuoteWidget/Info.plist; }; };
                X = {isa = PBXProject; targets = (T1, T2); };
            }; }
            """#
        let tmp = try TemporaryDirectory()
        let root = try Self.tree(files, in: tmp)
        let tree = try AppSourceTree.load(paths: [root])
        #expect(tree.projectPath == "QuoteApp.xcodeproj/project.pbxproj")
        #expect(tree.targets.map(\.name) == ["Quotes", "QuotesWidget"])
        #expect(tree.targets.map(\.role) == [.app, .widgetExtension])
        // The project, not the folders, decides: Fetcher.swift is built by the widget target.
        #expect(tree.swiftFile("QuoteApp/Fetcher.swift")?.role == .widgetExtension)
        #expect(tree.swiftFile("QuoteApp/Fetcher.swift")?.targets == ["QuotesWidget"])
        #expect(tree.swiftFile("QuoteApp/QuoteApp.swift")?.role == .app)
        #expect(tree.swiftFile("QuoteWidget/Views.swift")?.role == .unknown)
        #expect(tree.app?.appGroups == ["group.com.example.quotes"])
        #expect(tree.widgetExtension?.entitlements == nil)
    }

    @Test("files given directly keep their paths; a missing path is a no-input error")
    func directFilesAndMissing() throws {
        let tmp = try TemporaryDirectory()
        let file = try tmp.file("struct P: TimelineProvider {}", name: "Provider.swift")
        let tree = try AppSourceTree.load(paths: [file])
        #expect(tree.swiftFiles.map(\.path) == [file])
        #expect(tree.swiftFiles.first?.role == .widgetExtension)
        let error = #expect(throws: WidgetQuotaError.self) { try AppSourceTree.load(paths: [tmp.path + "/nope"]) }
        #expect(error?.exitCode == .noInput)
        #expect(error?.description.contains("/nope") == true)
    }

    @Test("a broken Info.plist, a broken other plist and a non-UTF-8 Swift file are skipped with a note naming them")
    func badFiles() throws {
        let tmp = try TemporaryDirectory()
        let root = try Self.tree(["A/Info.plist": "<plist><dict><key>x</key></dict></plist>", "A/Main.swift": "let x = 1"], in: tmp)
        let withBrokenInfo = try AppSourceTree.load(paths: [root])
        #expect(withBrokenInfo.swiftFiles.map(\.path) == ["A/Main.swift"])
        #expect(withBrokenInfo.notes.count == 1)
        // The note says what skipping an Info.plist costs: the rules that read it did not see it.
        #expect(withBrokenInfo.notes.first?.hasPrefix("A/Info.plist:1:") == true)
        #expect(withBrokenInfo.notes.first?.contains("the rules that read this file did not see it") == true)
        let other = try Self.tree(["A/Settings.plist": "bplist00", "A/Main.swift": "let x = 1"], in: tmp)
        try Data([0x6C, 0x65, 0x74, 0xFF, 0xFE]).write(to: URL(fileURLWithPath: other + "/A/Bad.swift"))
        let tree = try AppSourceTree.load(paths: [other])
        #expect(tree.swiftFiles.map(\.path) == ["A/Main.swift"])
        #expect(tree.notes.count == 2)
        #expect(tree.notes.contains { $0.hasPrefix("A/Bad.swift: skipped") })
        #expect(tree.notes.contains { $0.hasPrefix("A/Settings.plist:1:") && $0.contains("plutil") })
    }

    @Test("a FIFO in the tree, as a Swift file, entitlements, settings, a project or a link to one, is skipped with a note")
    func fifosAreSkipped() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        try FileManager.default.createDirectory(atPath: tmp.path + "/App/A.xcodeproj", withIntermediateDirectories: true)
        try "let x = 1\n".write(toFile: tmp.path + "/App/Real.swift", atomically: true, encoding: .utf8)
        for name in ["App/Pipe.swift", "App/App.entitlements", "App/Base.xcconfig", "App/A.xcodeproj/project.pbxproj"] {
            #expect(mkfifo(tmp.path + "/" + name, 0o600) == 0)
        }
        try FileManager.default.createSymbolicLink(atPath: tmp.path + "/App/Link.swift", withDestinationPath: tmp.path + "/App/Pipe.swift")
        let tree = try AppSourceTree.load(paths: [tmp.path])
        #expect(tree.swiftFiles.map(\.path) == ["App/Real.swift"])
        for name in ["App/Pipe.swift", "App/Link.swift", "App/App.entitlements", "App/Base.xcconfig", "App/A.xcodeproj/project.pbxproj"] {
            #expect(tree.notes.contains("\(name): skipped: it is a FIFO, not a regular file"), "\(tree.notes)")
        }
    }

    /// More Swift source than lint reads in one run is refused by the files' sizes, before any is
    /// read (its index takes about 40 times the source in memory); at the bound it is read.
    @Test("a tree past the Swift source bound is refused before it is read, naming the bound")
    func sourceBound() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        try FileManager.default.createDirectory(atPath: tmp.path + "/App", withIntermediateDirectories: true)
        try "let x = 1\n".write(toFile: tmp.path + "/App/Real.swift", atomically: true, encoding: .utf8)
        // A sparse file: its size counts, though no byte of it is on disk or read.
        let big = tmp.path + "/App/Big.swift"
        #expect(FileManager.default.createFile(atPath: big, contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: big))
        try handle.truncate(atOffset: UInt64(AppSourceTree.maxSwiftBytes))
        try handle.close()
        #expect {
            try AppSourceTree.load(paths: [tmp.path])
        } throws: { error in
            "\(error)".contains("more than 64 MiB of Swift source") && "\(error)".contains(tmp.path)
        }
        // At the bound less the small file's bytes, the tree is read (the sparse file is NUL bytes).
        let shorter = try #require(FileHandle(forWritingAtPath: big))
        try shorter.truncate(atOffset: UInt64(AppSourceTree.maxSwiftBytes - 10))
        try shorter.close()
        #expect(try AppSourceTree.load(paths: [tmp.path]).swiftFiles.count == 2)
    }

    /// A group that lists the main group, which contains it, is a cycle Xcode would refuse:
    /// reported, and files placed as if that link were absent, so no file loses its target.
    @Test("a cycle in the project's groups is reported, and files keep their targets")
    func groupCycle() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let copy = try tmp.copyOfApp("xcode-project")
        let projectFile = copy + "/Project.xcodeproj/project.pbxproj"
        let original = try AppSourceTree.load(paths: [Fixtures.path("apps/xcode-project")])
        let text = try String(contentsOfFile: projectFile, encoding: .utf8)
        let shared = "AA0200000000000000000003 /* WeatherClient.swift */,"
        #expect(text.contains(shared))
        try text.replacingOccurrences(of: shared, with: shared + "\n\t\t\t\tAA0300000000000000000001 /* the main group */,")
            .write(toFile: projectFile, atomically: true, encoding: .utf8)
        let tree = try AppSourceTree.load(paths: [copy])
        #expect(tree.swiftFiles.map(\.path) == original.swiftFiles.map(\.path))
        #expect(tree.swiftFiles.map(\.role) == original.swiftFiles.map(\.role))
        #expect(tree.swiftFiles.map(\.targets) == original.swiftFiles.map(\.targets))
        #expect(
            tree.notes.contains {
                $0.hasPrefix("Project.xcodeproj/project.pbxproj: the group \"Shared\" lists")
                    && $0.contains("a cycle in the project's groups")
            }, "\(tree.notes)")
    }
}
