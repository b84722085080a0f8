import Foundation
import Testing
@testable import WidgetQuotaKit

/// Table cells are escaped in one pass; the result must be what the plain chain of replacements
/// (backslashes, pipes, CRLF, LF, CR, then trimming) gives, on every awkward cell.
@Suite struct MarkdownEscapeTests {
    static func reference(_ cell: String) -> String {
        var s = cell.replacingOccurrences(of: "\\", with: "\\\\")
        s = s.replacingOccurrences(of: "|", with: "\\|")
        s = s.replacingOccurrences(of: "\r\n", with: "<br>").replacingOccurrences(of: "\n", with: "<br>")
        s = s.replacingOccurrences(of: "\r", with: "<br>")
        s = s.trimmingCharacters(in: .whitespaces)
        return s.isEmpty ? " " : s
    }

    @Test(arguments: [
        "", " ", "\t", "899,613", "cache-bgtask", "a|b", "a\\|b", "\\", "||", "line\nbreak", "cr\rlf", "crlf\r\nend",
        "\r\r\n", "\n\r", "\r\n\r\n", " padded | cell ", "\u{00A0}nbsp\u{00A0}", "tab\tinside", "é|ü\\ß\n日本",
        "👩‍👩‍👧|x", "\u{2003}em space", "trailing\r", "\n", "`code|pipe`", "<br>",
    ])
    func onePassMatchesTheReplacementChain(cell: String) {
        #expect(MarkdownTable.escape(cell) == Self.reference(cell))
    }

    @Test func escapedCellsNeverBreakARow() {
        let cell = MarkdownTable.escape("a|b\nc\\")
        #expect(!cell.contains("\n") && !cell.replacingOccurrences(of: "\\|", with: "").contains("|"))
    }
}
