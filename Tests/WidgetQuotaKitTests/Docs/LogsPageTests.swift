import Foundation
import Testing
import WidgetQuotaLogs
import WidgetQuotaReporting

/// `docs/logs.md` lists the built-in recognisers, so the page cannot drift from the table.
@Suite("Logs page")
struct LogsPageTests {
    /// `docs/logs.md` of the package (found by walking up from this file), or nil.
    static func page() -> String? {
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while folder.path != "/" {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
                return try? String(contentsOf: folder.appendingPathComponent("docs/logs.md"), encoding: .utf8)
            }
            folder = folder.deletingLastPathComponent()
        }
        return nil
    }

    /// The names in the first column (`` | `name` | ``) of the section headed "What is recognised".
    static func recogniserNames(in page: String) -> Set<String> {
        var names = Set<String>()
        var inSection = false
        for line in page.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("#") {
                inSection = line.drop(while: { $0 == "#" }).trimmingCharacters(in: .whitespaces) == "What is recognised"
                continue
            }
            guard inSection, line.hasPrefix("| `") else { continue }
            let cell = line.dropFirst(3).prefix(while: { $0 != "`" })
            if line.dropFirst(3 + cell.count).hasPrefix("` |") { names.insert(String(cell)) }
        }
        return names
    }

    @Test("the section “What is recognised” lists exactly the built-in recognisers")
    func listsTheTable() throws {
        let page = try #require(Self.page(), "docs/logs.md not found")
        let documented = Self.recogniserNames(in: page)
        let table = Set(AppleLogRecognizer.table.map(\.name))
        #expect(table.subtracting(documented).isEmpty, "not in docs/logs.md: \(table.subtracting(documented).sorted())")
        #expect(documented.subtracting(table).isEmpty, "in docs/logs.md but not a recogniser: \(documented.subtracting(table).sorted())")
    }

    @Test("the checklist section lists every rule analyze checks, with its windows")
    func listsTheChecklistRules() throws {
        let page = try #require(Self.page(), "docs/logs.md not found")
        let section =
            try #require(page.components(separatedBy: "### Checklist findings").dropFirst().first)
            .components(separatedBy: "\n### ").first ?? ""
        for rule in ChecklistWitness.rules {
            #expect(section.contains("| `\(rule.rawValue)`"), "\(rule.rawValue) not in the section")
        }
        #expect(section.contains("**\(Int(ChecklistTrail.failureWindowSeconds)) s**"))
        #expect(section.contains("**\(Int(ChecklistTrail.snapshotWindowSeconds)) s**"))
        #expect(section.contains("(the first \(LogReport.maxFindingsShown);"))
    }

    @Test("reading the section: rows of that section only, first column only")
    func readsTheSection() {
        let page = """
            # Logs
            | `notHere` | before the section |
            ## What is recognised
            | Name | What |
            |---|---|
            | `requestEnded` | getTimeline |
            | `cfnetworkSummary` | apiRequest, see `other` |
            ## Rules files
            | `alsoNotHere` | after it |
            """
        #expect(Self.recogniserNames(in: page) == ["requestEnded", "cfnetworkSummary"])
    }
}
