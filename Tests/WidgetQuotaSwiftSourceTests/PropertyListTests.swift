import Foundation
import Testing
import WidgetQuotaSupport
import WidgetQuotaSwiftSource

@Suite("Property lists") struct PropertyListTests {
    static let info = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
            <!-- a comment -->
            <key>BGTaskSchedulerPermittedIdentifiers</key>
            <array>
                <string>com.example.refresh</string>
            </array>
            <key>UIBackgroundModes</key>
            <array><string>fetch</string><string>processing</string></array>
            <key>NSExtension</key>
            <dict>
                <key>NSExtensionPointIdentifier</key>
                <string>com.apple.widgetkit-extension</string>
            </dict>
            <key>Name</key><string>Q &amp; A &lt;3 &#x263A;</string>
            <key>Script</key><string><![CDATA[a < b && c]]></string>
            <key>Count</key><integer>42</integer>
            <key>Ratio</key><real>0.5</real>
            <key>On</key><true/>
            <key>Off</key><false/>
            <key>When</key><date>2026-01-01T00:00:00Z</date>
            <key>Blob</key><data>AAEC</data>
            <key>Empty</key><string/>
        </dict>
        </plist>
        """

    @Test("every value type, entities and CDATA")
    func values() throws {
        let p = try PropertyList.parseXML(Array(Self.info.utf8), file: "Info.plist")
        #expect(p["BGTaskSchedulerPermittedIdentifiers"]?.strings == ["com.example.refresh"])
        #expect(p["UIBackgroundModes"]?.strings == ["fetch", "processing"])
        #expect(p.value(at: "NSExtension.NSExtensionPointIdentifier")?.string == "com.apple.widgetkit-extension")
        #expect(p["Name"]?.string == "Q & A <3 ☺")
        #expect(p["Script"]?.string == "a < b && c")
        #expect(p["Count"] == .integer(42))
        #expect(p["Ratio"]?.number == 0.5)
        #expect(p["On"]?.bool == true && p["Off"]?.bool == false)
        #expect(p["When"] == .date("2026-01-01T00:00:00Z"))
        #expect(p["Blob"] == .data([0, 1, 2]))
        #expect(p["Empty"]?.string == "")
    }

    @Test(
        "errors name the file and the line, and say what was expected",
        arguments: [
            ("<plist>\n<dict>\n<key>a</key>\n<string>x</strin>\n</dict></plist>", 4, "</string>"),
            ("<plist>\n<dict>\n<string>x</string>\n</dict></plist>", 3, "<key> or </dict>"),
            ("<plist><dict>\n<key>n</key>\n<integer>ten</integer></dict></plist>", 3, "a whole number"),
            ("<plist><dict>\n\n<key>n</key><string>&bogus;</string></dict></plist>", 3, "a known entity"),
            ("<plist><dict>\n<key>n</key>\n<string><![CDATA[never]></string></dict></plist>", 3, "]]>"),
            ("<plist>\n<dict>\n<key>n</key>\n<widget/>\n</dict></plist>", 4, "a property list element"),
            ("", 1, "empty file"),
        ])
    func errors(text: String, line: Int, expected: String) {
        #expect {
            try PropertyList.parseXML(Array(text.utf8), file: "App/Info.plist")
        } throws: { error in
            guard case .malformedPropertyList(let file, let l, let e) = error as? WidgetQuotaError else { return false }
            return file == "App/Info.plist" && l == line && e.contains(expected)
        }
    }

    @Test("a binary property list is refused with the command that converts it")
    func binary() {
        let error = #expect(throws: WidgetQuotaError.self) {
            try PropertyList.parseXML(Array("bplist00\u{1}\u{2}".utf8), file: "Info.plist")
        }
        #expect(error?.description.contains("plutil -convert xml1 Info.plist") == true)
        #expect(error?.exitCode == .dataError)
    }

    @Test("nesting deeper than the limit is an error, not a crash")
    func deepNesting() {
        let text = String(repeating: "<array>", count: 100_000)
        #expect(throws: WidgetQuotaError.self) { try PropertyList.parseXML(Array(text.utf8), file: "deep.plist") }
        let pbx = String(repeating: "(", count: 100_000)
        #expect(throws: WidgetQuotaError.self) { try OldStylePropertyList.parse(Array(pbx.utf8), file: "project.pbxproj") }
    }
}

@Suite("Xcode project") struct XcodeProjectTests {
    /// A project in Xcode's own layout: an app target with two files, a widget extension with
    /// one file in a group folder and a synchronized folder, and their build settings.
    static let project = #"""
        // !$*UTF8*$!
        {
            archiveVersion = 1;
            objects = {
        /* Begin PBXBuildFile section */
                B1 /* App.swift in Sources */ = {isa = PBXBuildFile; fileRef = F1 /* App.swift */; };
                B2 /* Store.swift in Sources */ = {isa = PBXBuildFile; fileRef = F2; };
                B3 /* Provider.swift in Sources */ = {isa = PBXBuildFile; fileRef = F3; };
                B4 = {isa = PBXBuildFile; fileRef = F2; };
        /* End PBXBuildFile section */
                F1 = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = App.swift; sourceTree = "<group>"; };
                F2 = {isa = PBXFileReference; path = "Shared/Store.swift"; sourceTree = SOURCE_ROOT; };
                F3 = {isa = PBXFileReference; path = Provider.swift; sourceTree = "<group>"; };
                G0 = {isa = PBXGroup; children = (G1, G2, S1, ); sourceTree = "<group>"; };
                G1 = {isa = PBXGroup; children = (F1, ); path = "My App"; sourceTree = "<group>"; };
                G2 = {isa = PBXGroup; children = (F3, ); path = QuoteWidget; sourceTree = "<group>"; };
                S1 = {isa = PBXFileSystemSynchronizedRootGroup; path = WidgetViews; sourceTree = "<group>"; };
                P1 = {isa = PBXSourcesBuildPhase; files = (B1, B2, ); };
                P2 = {isa = PBXSourcesBuildPhase; files = (B3 /* Provider.swift in Sources */, B4, ); };
                T1 = {isa = PBXNativeTarget; buildConfigurationList = L1; buildPhases = (P1, ); name = "My App"; productType = "com.apple.product-type.application"; };
                T2 = {isa = PBXNativeTarget; buildConfigurationList = L2; buildPhases = (P2, ); fileSystemSynchronizedGroups = (S1, ); name = QuoteWidgetExtension; productType = "com.apple.product-type.app-extension"; };
                L1 = {isa = XCConfigurationList; buildConfigurations = (C1, ); };
                L2 = {isa = XCConfigurationList; buildConfigurations = (C2, ); };
                C1 = {isa = XCBuildConfiguration; buildSettings = { CODE_SIGN_ENTITLEMENTS = "My App/App.entitlements"; INFOPLIST_FILE = "My App/Info.plist"; }; name = Debug; };
                C2 = {isa = XCBuildConfiguration; buildSettings = { CODE_SIGN_ENTITLEMENTS = QuoteWidget/QuoteWidget.entitlements; INFOPLIST_FILE = "$(SRCROOT)/QuoteWidget/Info.plist"; STRING = "a \"quoted\" \\ value"; }; name = Debug; };
                R1 = {isa = PBXProject; mainGroup = G0; targets = (T1, T2, ); };
            };
            rootObject = R1;
        }
        """#

    @Test("targets with product types, source files resolved through groups, and build settings")
    func targets() throws {
        let p = try XcodeProject.parse(Array(Self.project.utf8), file: "App.xcodeproj/project.pbxproj")
        #expect(p.targets.map(\.name) == ["My App", "QuoteWidgetExtension"])
        #expect(p.targets[0].isApplication && p.targets[1].isExtension)
        #expect(p.targets[0].sourceFiles == ["My App/App.swift", "Shared/Store.swift"])
        #expect(p.targets[1].sourceFiles == ["QuoteWidget/Provider.swift", "Shared/Store.swift"])
        #expect(p.targets[1].folders == ["WidgetViews"])
        #expect(p.targets[1].contains("WidgetViews/Row.swift") && !p.targets[0].contains("WidgetViews/Row.swift"))
        #expect(p.targets[0].infoPlist == "My App/Info.plist" && p.targets[0].entitlements == "My App/App.entitlements")
        #expect(p.targets[1].infoPlist == "QuoteWidget/Info.plist")
    }

    @Test("quoted strings keep their escapes' characters")
    func quoted() throws {
        let root = try OldStylePropertyList.parse(Array(Self.project.utf8), file: "p")
        #expect(root.value(at: "objects.C2.buildSettings.STRING")?.string == #"a "quoted" \ value"#)
    }

    @Test(
        "syntax errors give the line",
        arguments: [
            ("{\n a = b;\n c = d\n}", 4, "';' after the value of \"c\""),
            ("{\n a = (x, y\n z);\n}", 3, "',' or ')'"),
            ("{\n a = \"open;\n}", 2, "'\"' to close the string opened on line 2"),
            ("{\n /* never closed\n", 2, "*/"),
            ("{ a = b; }", 1, "'objects' dictionary"),
        ])
    func errors(text: String, line: Int, expected: String) {
        #expect {
            try XcodeProject.parse(Array(text.utf8), file: "X.xcodeproj/project.pbxproj")
        } throws: { error in
            guard case .malformedPropertyList(let file, let l, let e) = error as? WidgetQuotaError else { return false }
            return file == "X.xcodeproj/project.pbxproj" && l == line && e.contains(expected)
        }
    }
}
