import Foundation
import Testing
import WidgetQuotaModel
import WidgetQuotaTestSupport

/// The app trees under `Fixtures/apps/` list their intended findings in `EXPECTED.md`; these tests
/// keep every listed line true to its file, so the rules can be checked against them.
@Suite("Lint fixtures")
struct LintFixtureTests {
    static let apps = ["cache-app", "broken-app", "direct-widget", "xcode-project", "spending-widget"]

    /// One row of an EXPECTED.md table: which rule, where, the token on that line, and its section.
    struct Row: CustomStringConvertible {
        var section: String
        var rule: String
        var file: String
        var line: Int
        var token: String
        var description: String { "\(section): \(rule) \(file):\(line) `\(token)`" }
    }

    /// The five-column rows (rule, file, line, token, why) of every section of `text`.
    static func rows(_ text: String) -> [Row] {
        var section = ""
        var rows = [Row]()
        for line in text.split(separator: "\n") {
            if line.hasPrefix("## ") {
                section = String(line.dropFirst(3))
                continue
            }
            guard line.hasPrefix("| `") else { continue }
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
                .map { $0.trimmingCharacters(in: .whitespaces) }
            func code(_ cell: String) -> String { cell.hasPrefix("`") && cell.hasSuffix("`") ? String(cell.dropFirst().dropLast()) : cell }
            guard cells.count == 5, let number = Int(cells[2]) else { continue }
            rows.append(Row(section: section, rule: code(cells[0]), file: code(cells[1]), line: number, token: code(cells[3])))
        }
        return rows
    }

    @Test("every EXPECTED.md line points at a line of its file that holds the named token", arguments: apps)
    func linesAreTrue(app: String) throws {
        let rows = Self.rows(try Fixtures.text("apps/\(app)/EXPECTED.md"))
        #expect(rows.count >= 3, "\(app): \(rows.count) rows")
        for row in rows {
            #expect(ChecklistRule(rawValue: row.rule) != nil, "\(app): not a rule id: \(row)")
            let text = try Fixtures.text("apps/\(app)/\(row.file)")
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(row.line >= 1 && row.line <= lines.count, "\(app): no such line: \(row)")
            guard row.line >= 1 && row.line <= lines.count else { continue }
            #expect(lines[row.line - 1].contains(row.token), "\(app): line \(row.line) is \(lines[row.line - 1]) — \(row)")
        }
    }

    @Test("the sections say what each tree is for: no finding in the cache app, most rules broken in the broken app")
    func sections() throws {
        let cache = Self.rows(try Fixtures.text("apps/cache-app/EXPECTED.md"))
        #expect(cache.allSatisfy { $0.section == "Must not trigger" })
        let broken = Self.rows(try Fixtures.text("apps/broken-app/EXPECTED.md"))
        let brokenRules = Set(broken.filter { $0.section == "Findings" }.map(\.rule))
        // The broken app reloads on every foreground (a reload-misuse finding), and any reload in
        // the app means a `.never` timeline is reloaded: it cannot break never-policy-without-reload too.
        let breakable = Set(ChecklistRule.allCases.map(\.rawValue)).subtracting([ChecklistRule.neverPolicyWithoutReload.rawValue])
        #expect(brokenRules == breakable, "rules the broken app does not break: \(breakable.subtracting(brokenRules))")
        #expect(broken.filter { $0.section == "Suppressed" }.count == 1)
        for app in ["direct-widget", "xcode-project"] {
            let rows = Self.rows(try Fixtures.text("apps/\(app)/EXPECTED.md"))
            #expect(rows.contains { $0.section == "Findings" } && rows.contains { $0.section == "Must not trigger" }, "\(app)")
        }
    }

    @Test("the trees hold what the brief of each promises: plists, entitlements, a project file")
    func treesAreComplete() throws {
        let fm = FileManager.default
        for app in ["cache-app", "broken-app"] {
            for file in ["App/Info.plist", "Widget/Info.plist"] {
                #expect(fm.fileExists(atPath: Fixtures.path("apps/\(app)/\(file)")), "\(app)/\(file)")
            }
        }
        let project = try Fixtures.text("apps/xcode-project/Project.xcodeproj/project.pbxproj")
        for word in [
            "PBXNativeTarget", "PBXSourcesBuildPhase", "PBXBuildFile", "PBXFileReference", "PBXGroup", "INFOPLIST_FILE",
            "CODE_SIGN_ENTITLEMENTS", "com.apple.product-type.app-extension",
        ] {
            #expect(project.contains(word), "project.pbxproj lacks \(word)")
        }
        let widgetPlist = try Fixtures.text("apps/direct-widget/Widget/Info.plist")
        #expect(widgetPlist.contains("com.apple.widgetkit-extension"))
    }

    @Test("the fake API key has a real key's shape and appears only where EXPECTED.md says")
    func fakeKey() throws {
        let key = "AIzaSyFAKE-KEY-FOR-TESTS-ONLY-000000000"
        #expect(key.count == 39 && key.hasPrefix("AIzaSy"))
        #expect(try Fixtures.text("apps/broken-app/Widget/HeadlinesWidget.swift").contains("\"\(key)\""))
        #expect(
            try Fixtures.text("apps/cache-app/Widget/QuoteWidget.swift").contains(
                "/// task fetch. (An earlier build kept a key like \(key)"))
    }
}
