import Foundation
import Testing
import WidgetQuotaModel

/// `docs/lint.md` lists every checklist rule with its default severity, so the page cannot drift
/// from `ChecklistRule`.
@Suite("Lint page")
struct LintPageTests {
    /// The rows (`` | `id` | severity | … ``) of the section headed "Rules" of `page`: id → severity.
    static func rules(in page: String) -> [String: String] {
        var rows = [String: String]()
        var inSection = false
        for line in page.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("#") {
                inSection = line.drop(while: { $0 == "#" }).trimmingCharacters(in: .whitespaces) == "Rules"
                continue
            }
            guard inSection, line.hasPrefix("| `") else { continue }
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 3 else { continue }
            rows[String(cells[0].dropFirst().dropLast())] = cells[1]
        }
        return rows
    }

    @Test("the Rules table of docs/lint.md lists exactly the checklist rules, with their default severity")
    func listsEveryRule() {
        let page = ReadmeTests.page("docs/lint.md")
        #expect(!page.isEmpty, "docs/lint.md not found")
        let documented = Self.rules(in: page)
        let rules = Dictionary(uniqueKeysWithValues: ChecklistRule.allCases.map { ($0.rawValue, $0.defaultSeverity.rawValue) })
        #expect(documented == rules)
    }

    @Test("reading the table: rows of the Rules section only, id and severity")
    func readsTheSection() {
        let page = """
            # Lint
            | `not-here` | error | before |
            ## Rules
            | Rule | Default severity | What |
            | --- | --- | --- |
            | `retry-loop` | warning | a loop |
            ## Configuration file
            | `disable` | after |
            """
        #expect(Self.rules(in: page) == ["retry-loop": "warning"])
    }
}
