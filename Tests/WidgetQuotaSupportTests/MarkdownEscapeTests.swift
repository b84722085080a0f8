import Foundation
import Testing
import WidgetQuotaSupport

/// Table cells are escaped in one pass over Unicode scalars. On cells without combining marks the
/// result is what the plain chain of replacements (backslashes, pipes, `<` outside code spans, CRLF, LF, CR, then
/// trimming) gives; where a pipe, backslash or line break carries a combining mark, the chain
/// (which matches whole characters) let it through and broke the row, and the pass escapes it.
@Suite("markdown escape") struct MarkdownEscapeTests {
    static func reference(_ cell: String) -> String {
        // Control characters (terminal escapes, NUL, BEL, DEL, C1) first become U+FFFD.
        var s = String(
            String.UnicodeScalarView(
                cell.unicodeScalars.map { u -> Unicode.Scalar in
                    let v = u.value
                    return (v < 0x20 && v != 0x09 && v != 0x0A && v != 0x0D) || (v >= 0x7F && v <= 0x9F) ? "\u{FFFD}" : u
                }))
        s = s.replacingOccurrences(of: "\\", with: "\\\\")
        s = s.replacingOccurrences(of: "|", with: "\\|")
        // `<` outside code spans, so no HTML tag opens in a cell.
        var inCode = false
        s = String(
            s.map { c -> String in
                if c == "`" { inCode.toggle() }
                return c == "<" && !inCode ? "&lt;" : String(c)
            }.joined())
        s = s.replacingOccurrences(of: "\r\n", with: "<br>").replacingOccurrences(of: "\n", with: "<br>")
        s = s.replacingOccurrences(of: "\r", with: "<br>")
        s = s.trimmingCharacters(in: .whitespaces)
        return s.isEmpty ? " " : s
    }

    @Test(
        "one pass matches the replacement chain",
        arguments: [
            "", " ", "\t", "899,613", "cache-bgtask", "a|b", "a\\|b", "\\", "||", "line\nbreak", "cr\rlf", "crlf\r\nend",
            "\r\r\n", "\n\r", "\r\n\r\n", " padded | cell ", "\u{00A0}nbsp\u{00A0}", "tab\tinside", "é|ü\\ß\n日本",
            "👩‍👩‍👧|x", "\u{2003}em space", "trailing\r", "\n", "`code|pipe`", "<br>",
            "d\u{1B}[2J\u{1B}]0;owned\u{07}", "nul\u{0}byte", "del\u{7F}", "c1\u{9B}31m", "\u{1B}|\u{1B}",
        ])
    func onePassMatchesTheReplacementChain(cell: String) {
        #expect(MarkdownTable.escape(cell) == Self.reference(cell))
    }

    @Test(
        "special characters carrying a combining mark are still escaped",
        arguments: [
            ("|\u{301}", "\\|\u{301}"),
            ("\\\u{20DD}", "\\\\\u{20DD}"),
            ("a\n\u{301}b", "a<br>\u{301}b"),
            ("a\r\n\u{301}b", "a<br>\u{301}b"),
        ])
    func combiningMarksDoNotHideSpecialCharacters(cell: String, escaped: String) {
        #expect(MarkdownTable.escape(cell) == escaped)
        #expect(!MarkdownTable.escape(cell).contains("\n"))
    }

    @Test("escaped cells never break a row") func escapedCellsNeverBreakARow() {
        let cell = MarkdownTable.escape("a|b\nc\\")
        #expect(!cell.contains("\n") && !cell.replacingOccurrences(of: "\\|", with: "").contains("|"))
    }
}
