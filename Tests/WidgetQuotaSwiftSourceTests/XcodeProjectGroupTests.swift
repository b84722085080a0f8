import Foundation
import Testing
import WidgetQuotaSwiftSource

/// Groups nested deep, or left out of the main group's tree in long chains, place their files in
/// time linear in the groups, without recursion, and cycles among them are broken and named.
@Suite("Xcode project groups")
struct XcodeProjectGroupTests {
    /// A project whose target compiles `x.swift`, under `groups` (id, children, path) and a main group.
    static func project(mainChildren: [String], groups: [(id: String, children: [String], path: String?)]) -> [UInt8] {
        var text = "// !$*UTF8*$!\n{ objects = {\n"
        text += "P = { isa = PBXProject; mainGroup = M; targets = ( T ); };\n"
        text += "M = { isa = PBXGroup; children = ( \(mainChildren.joined(separator: ", ")) ); sourceTree = \"<group>\"; };\n"
        for g in groups {
            text += "\(g.id) = { isa = PBXGroup; children = ( \(g.children.joined(separator: ", ")) ); "
            if let path = g.path { text += "path = \(path); " }
            text += "sourceTree = \"<group>\"; };\n"
        }
        text += "F = { isa = PBXFileReference; path = x.swift; sourceTree = \"<group>\"; };\n"
        text += "B = { isa = PBXBuildFile; fileRef = F; };\nS = { isa = PBXSourcesBuildPhase; files = ( B ); };\n"
        text += "T = { isa = PBXNativeTarget; name = App; buildPhases = ( S ); productType = \"com.apple.product-type.application\"; };\n"
        return Array((text + "}; }\n").utf8)
    }

    @Test("a file 100,000 groups deep has its path, with no stack to overflow")
    func deepGroups() throws {
        let depth = 100_000
        let groups = (0..<depth).map { i in (id: "G\(i)", children: [i + 1 < depth ? "G\(i + 1)" : "F"], path: Optional("d")) }
        let p = try XcodeProject.parse(Self.project(mainChildren: ["G0"], groups: groups), file: "A.xcodeproj/project.pbxproj")
        let file = try #require(p.targets.first?.sourceFiles.first)
        #expect(file == Array(repeating: "d", count: depth).joined(separator: "/") + "/x.swift")
        #expect(p.notes.isEmpty)
    }

    @Test("groups the main group does not reach, chained 10,000 long and closed in a cycle: placed, and the cycle named")
    func unreachedChain() throws {
        let count = 10_000
        // U00000 lists U00001, …, U09998 lists U09999, which lists U00000 (the cycle) and the file:
        // met in id order, each link's group has the whole chain above it.
        let name = { (i: Int) in "U" + String(repeating: "0", count: 5 - String(i).count) + String(i) }
        let groups = (0..<count).map { i in
            (id: name(i), children: i + 1 < count ? [name(i + 1)] : [name(0), "F"], path: Optional("u"))
        }
        let p = try XcodeProject.parse(Self.project(mainChildren: [], groups: groups), file: "A.xcodeproj/project.pbxproj")
        let file = try #require(p.targets.first?.sourceFiles.first)
        #expect(file.hasSuffix("u/u/x.swift") && !file.hasPrefix("/"))
        #expect(p.notes.count == 1 && p.notes[0].contains("a cycle in the project's groups"), "\(p.notes)")
    }
}
