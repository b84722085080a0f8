import Foundation
import Testing
@testable import WidgetQuotaKit

/// The README documents every scenario field, so the docs cannot drift from the model.
@Suite struct ReadmeTests {
    static let readme: String = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        return (try? String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)) ?? ""
    }()

    /// Dotted paths of every field of the default scenario (arrays are documented as a whole).
    static func fieldPaths() throws -> [String] {
        let data = Data(ScenarioLoader.encode(Scenario()).utf8)
        let tree = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        var paths = [String]()
        func walk(_ object: [String: Any], _ prefix: String) {
            for (key, value) in object {
                let path = prefix.isEmpty ? key : prefix + "." + key
                if let child = value as? [String: Any], child["distribution"] == nil {
                    walk(child, path)
                } else {
                    paths.append(path)
                }
            }
        }
        walk(tree, "")
        return paths.filter { $0 != "schemaVersion" }.sorted()
    }

    @Test func everyScenarioFieldIsDocumented() throws {
        #expect(!Self.readme.isEmpty, "README.md not found")
        for path in try Self.fieldPaths() {
            let last = path.split(separator: ".").last.map(String.init) ?? path
            let documented = Self.readme.contains("`\(path)`") || Self.readme.contains("`.\(last)`")
                || Self.readme.contains("/ `\(last)`")
            #expect(documented, "README does not document \(path)")
        }
    }

    @Test func everyPresetIsDocumented() {
        for design in DesignPresets.all {
            #expect(Self.readme.contains("`\(design.name)`"), "README does not list design \(design.name)")
        }
    }

    @Test func ciRunsTheReadmeTestCommand() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let ci = try String(contentsOf: root.appendingPathComponent(".ci/run"), encoding: .utf8)
        #expect(Self.readme.contains("swift test "))
        #expect(ci.split(separator: "\n").contains("swift test"))
    }
}
