import Foundation
import Testing
import WidgetQuotaSwiftSource
import WidgetQuotaTestSupport

/// Target membership and settings a project states outside its Sources phases: Xcode 16
/// synchronized folders' exception sets, `.xcconfig` files, and repositories of several projects.
@Suite("Build settings and synchronized folders")
struct BuildSettingsTests {
    @Test("an exception set takes a file out of the target whose folder it is, and adds one to another target")
    func exceptionSets() throws {
        let text = #"""
            {
                objects = {
                    G0 = {isa = PBXGroup; children = (S1, S2, ); sourceTree = "<group>"; };
                    S1 = {isa = PBXFileSystemSynchronizedRootGroup; exceptions = (E1, E2, ); path = Widget; sourceTree = "<group>"; };
                    S2 = {isa = PBXFileSystemSynchronizedRootGroup; path = App; sourceTree = "<group>"; };
                    E1 = {isa = PBXFileSystemSynchronizedBuildFileExceptionSet; membershipExceptions = (Preview.swift, ); target = T2; };
                    E2 = {isa = PBXFileSystemSynchronizedBuildFileExceptionSet; membershipExceptions = (Shared/Model.swift, ); target = T1; };
                    T1 = {isa = PBXNativeTarget; buildPhases = (); fileSystemSynchronizedGroups = (S2, ); name = App; productType = "com.apple.product-type.application"; };
                    T2 = {isa = PBXNativeTarget; buildPhases = (); fileSystemSynchronizedGroups = (S1, ); name = Widget; productType = "com.apple.product-type.app-extension"; };
                    R1 = {isa = PBXProject; mainGroup = G0; targets = (T1, T2, ); };
                };
            }
            """#
        let p = try XcodeProject.parse(Array(text.utf8), file: "p.xcodeproj/project.pbxproj")
        let app = p.targets[0]
        let widget = p.targets[1]
        #expect(widget.contains("Widget/Provider.swift"))
        #expect(!widget.contains("Widget/Preview.swift"), "taken out of the folder's own target")
        #expect(app.contains("Widget/Shared/Model.swift"), "added to a target the folder is not in")
        #expect(!app.contains("Widget/Provider.swift") && app.contains("App/Main.swift"))
    }

    @Test("xcconfig settings: includes, the last assignment, conditions only where the plain key is unset")
    func xcconfig() {
        let files = [
            "Config/Widget.xcconfig": """
            #include "Base.xcconfig"
            // a comment
            INFOPLIST_FILE = $(TARGET_NAME)/Info.plist // trailing comment
            CODE_SIGN_ENTITLEMENTS[sdk=iphoneos*] = Widget/Widget.entitlements
            OTHER = $(inherited) -x
            """,
            "Config/Base.xcconfig": "INFOPLIST_FILE = Base/Info.plist\nSWIFT_VERSION = 6.0\n#include? \"Missing.xcconfig\"\n",
        ]
        let settings = BuildSettings(path: "Config/Widget.xcconfig") { files[$0] }
        #expect(settings["INFOPLIST_FILE"] == "$(TARGET_NAME)/Info.plist")
        #expect(BuildSettings.path(settings["INFOPLIST_FILE"] ?? "", target: "QuoteWidget") == "QuoteWidget/Info.plist")
        #expect(settings["CODE_SIGN_ENTITLEMENTS"] == "Widget/Widget.entitlements")
        #expect(settings["SWIFT_VERSION"] == "6.0")
        #expect(settings["OTHER"] == "-x")
        #expect(BuildSettings.path("$(SRCROOT)/App/Info.plist", target: "App") == "App/Info.plist")
        let nested = ["Config/App/App.xcconfig": "#include \"../Shared.xcconfig\"\n", "Config/Shared.xcconfig": "A = 1\n"]
        #expect(BuildSettings(path: "Config/App/App.xcconfig") { nested[$0] }["A"] == "1", "an include of a parent folder's file")
    }

    @Test("a file included from many places is read once, and an include applies where it stands")
    func includeChains() {
        // 15 levels, each including the next four times: 4^15 reads if each include were re-read.
        var files = [String: String]()
        for level in 0..<15 { files["c\(level).xcconfig"] = String(repeating: "#include \"c\(level + 1).xcconfig\"\n", count: 4) }
        files["c15.xcconfig"] = "DEEP = 1\n"
        let reads = Counter()
        let settings = BuildSettings(path: "c0.xcconfig") { path in
            reads.add()
            return files[path]
        }
        #expect(settings["DEEP"] == "1")
        #expect(reads.value == files.count, "each of the \(files.count) files read once, not \(reads.value) times")
        // Remembered effects keep Xcode's order: an include's assignments overwrite what came before
        // it, and later lines overwrite the include's, every time it is included.
        let ordered = [
            "a.xcconfig": "X = 1\n#include \"b.xcconfig\"\nY = 3\n#include \"b.xcconfig\"\n",
            "b.xcconfig": "Y = 2\n",
        ]
        let read = BuildSettings(path: "a.xcconfig") { ordered[$0] }
        #expect(read["X"] == "1" && read["Y"] == "2")
    }

    /// Counts calls from a non-escaping closure.
    final class Counter {
        private(set) var value = 0
        func add() { value += 1 }
    }

    @Test("a target's entitlements and Info.plist come from its base configuration when the project does not set them")
    func entitlementsFromXcconfig() throws {
        let tmp = try TemporaryDirectory()
        var files = [String: String]()
        let project = #"""
            {
                objects = {
                    G0 = {isa = PBXGroup; children = (F9, ); sourceTree = "<group>"; };
                    F9 = {isa = PBXFileReference; path = Widget.xcconfig; sourceTree = "<group>"; };
                    T1 = {isa = PBXNativeTarget; buildConfigurationList = L1; buildPhases = (); name = Widget; productType = "com.apple.product-type.app-extension"; };
                    L1 = {isa = XCConfigurationList; buildConfigurations = (C1, ); };
                    C1 = {isa = XCBuildConfiguration; baseConfigurationReference = F9; buildSettings = { }; name = Debug; };
                    R1 = {isa = PBXProject; mainGroup = G0; targets = (T1, ); };
                };
            }
            """#
        files["App.xcodeproj/project.pbxproj"] = project
        files["Widget.xcconfig"] = "CODE_SIGN_ENTITLEMENTS = Widget/Widget.entitlements\nINFOPLIST_FILE = Widget/Info.plist\n"
        files["Widget/Widget.entitlements"] =
            #"<plist version="1.0"><dict><key>com.apple.security.application-groups</key><array><string>group.x</string></array></dict></plist>"#
        files["Widget/Info.plist"] = #"<plist version="1.0"><dict/></plist>"#
        let tree = try AppSourceTree.load(paths: [try AppSourceTreeTests.tree(files, in: tmp)])
        let widget = try #require(tree.targets.first)
        #expect(widget.entitlementsPath == "Widget/Widget.entitlements")
        #expect(widget.appGroups == ["group.x"])
        #expect(widget.infoPlistPath == "Widget/Info.plist")
    }

    @Test("each Xcode project of a repository assigns the files under its own folder")
    func severalProjects() throws {
        let tmp = try TemporaryDirectory()
        func project(_ target: String, _ file: String) -> String {
            #"""
            {
                objects = {
                    G0 = {isa = PBXGroup; children = (F1, ); sourceTree = "<group>"; };
                    F1 = {isa = PBXFileReference; path = \#(file); sourceTree = "<group>"; };
                    B1 = {isa = PBXBuildFile; fileRef = F1; };
                    P1 = {isa = PBXSourcesBuildPhase; files = (B1, ); };
                    T1 = {isa = PBXNativeTarget; buildPhases = (P1, ); name = \#(target); productType = "com.apple.product-type.application"; };
                    R1 = {isa = PBXProject; mainGroup = G0; targets = (T1, ); };
                };
            }
            """#
        }
        let files = [
            "One/One.xcodeproj/project.pbxproj": project("One", "A.swift"), "Two/Two.xcodeproj/project.pbxproj": project("Two", "B.swift"),
            "One/A.swift": "struct A {}\n", "Two/B.swift": "struct B {}\n",
        ]
        let tree = try AppSourceTree.load(paths: [try AppSourceTreeTests.tree(files, in: tmp)])
        #expect(tree.projects.map(\.path) == ["One/One.xcodeproj/project.pbxproj", "Two/Two.xcodeproj/project.pbxproj"])
        #expect(tree.swiftFile("One/A.swift")?.targets == ["One"])
        #expect(tree.swiftFile("Two/B.swift")?.targets == ["Two"])
    }
}
