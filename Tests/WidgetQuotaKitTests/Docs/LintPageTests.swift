import Foundation
import Testing
import WidgetQuotaLint
import WidgetQuotaModel

/// `docs/lint.md` lists every checklist rule with its default severity and title, and gives each
/// a section of its own (what SARIF's `helpUri` links to), so the page cannot drift from the
/// rules' descriptions.
@Suite("Lint page")
struct LintPageTests {
    /// The rows (`` | [`id`](#id) | severity | title | ``) of the section headed "Rules" of
    /// `page`: id → severity and title, and the headings of its subsections.
    static func rules(in page: String) -> (rows: [String: [String]], headings: [String]) {
        var rows = [String: [String]]()
        var headings = [String]()
        var inSection = false
        for line in page.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("### ") {
                if inSection { headings.append(String(line.dropFirst(4))) }
                continue
            }
            if line.hasPrefix("#") {
                inSection = line.drop(while: { $0 == "#" }).trimmingCharacters(in: .whitespaces) == "Rules"
                continue
            }
            guard inSection, line.hasPrefix("| [`") else { continue }
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 3, let id = cells[0].split(separator: "`").dropFirst().first else { continue }
            #expect(cells[0] == "[`\(id)`](#\(id))", "the row links to its section")
            rows[String(id)] = Array(cells[1...])
        }
        return (rows, headings)
    }

    @Test("the Rules table of docs/lint.md lists exactly the checklist rules, with their default severity")
    func listsEveryRule() {
        let page = ReadmeTests.page("docs/lint.md")
        #expect(!page.isEmpty, "docs/lint.md not found")
        let documented = Self.rules(in: page)
        let rules = Dictionary(
            uniqueKeysWithValues: ChecklistRule.allCases.map { ($0.rawValue, [$0.defaultSeverity.rawValue, $0.title]) })
        #expect(documented.rows == rules)
        #expect(documented.headings == ChecklistRule.allCases.map(\.rawValue), "one section per rule, in order")
        for rule in ChecklistRule.allCases {
            #expect(page.contains(rule.rationale), "\(rule.rawValue)'s section says why")
        }
    }

    @Test("reading the table: rows of the Rules section only, id and severity")
    func readsTheSection() {
        let page = """
            # Lint
            | `not-here` | error | before |
            ## Rules
            | Rule | Default severity | Title |
            | --- | --- | --- |
            | [`retry-loop`](#retry-loop) | warning | a loop |
            ### retry-loop
            ## Configuration file
            | `disable` | after |
            """
        let read = Self.rules(in: page)
        #expect(read.rows == ["retry-loop": ["warning", "a loop"]] && read.headings == ["retry-loop"])
    }
}
