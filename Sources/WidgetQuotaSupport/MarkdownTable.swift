import Foundation

/// A GitHub-flavoured Markdown table: every row has the header's column count and pipes are escaped.
package struct MarkdownTable: Sendable {
    package enum Alignment: Sendable { case left, right }

    package let header: [String]
    /// Explicit alignments; by default a column is right-aligned when every cell reads as a number.
    package let fixedAlignments: [Alignment]?
    package private(set) var rows: [[String]] = []

    package init(_ header: [String], alignments: [Alignment]? = nil) {
        self.header = header
        self.fixedAlignments = alignments
    }

    /// Each column's alignment.
    package var alignments: [Alignment] {
        fixedAlignments
            ?? header.indices.map { column in
                column > 0 && rows.allSatisfy { MarkdownTable.isNumeric($0[column]) } ? .right : .left
            }
    }

    /// A figure: starts with a digit, a sign, `$`, `−`, `+` or is a placeholder dash.
    static func isNumeric(_ cell: String) -> Bool {
        guard let first = cell.unicodeScalars.first else { return true }
        return cell == "–" || ("0"..."9").contains(first) || "$+-−".unicodeScalars.contains(first)
    }

    /// Appends a row, padding or failing loudly on a column-count mismatch in debug builds.
    package mutating func append(_ row: [String]) {
        precondition(row.count == header.count, "row has \(row.count) cells, header has \(header.count)")
        rows.append(row)
    }

    /// Escapes a cell: pipes, line breaks, leading/trailing whitespace, and `<` outside code spans
    /// (a name can open no HTML tag).
    package static func escape(_ raw: String) -> String {
        let cell = PrintableText.clean(raw)  // no terminal escape sequence reaches a report
        // One pass, and none for the usual cell (a number or a name): reports have thousands.
        let special = cell.utf8.contains { $0 == 0x5C || $0 == 0x7C || $0 == 0x0D || $0 == 0x0A || $0 == 0x3C }
        var s = cell
        if special {
            var out = String.UnicodeScalarView()
            var afterCR = false
            var inCode = false  // inside a `code span`, where Markdown reads no HTML
            for u in cell.unicodeScalars {
                defer { afterCR = u == "\r" }
                if u == "`" { inCode.toggle() }
                switch u {
                case "<" where !inCode: out.append(contentsOf: "&lt;".unicodeScalars)  // no HTML tag from a name
                case "\\": out.append(contentsOf: #"\\"#.unicodeScalars)
                case "|": out.append(contentsOf: #"\|"#.unicodeScalars)
                case "\r": out.append(contentsOf: "<br>".unicodeScalars)
                case "\n": if !afterCR { out.append(contentsOf: "<br>".unicodeScalars) }  // CRLF is one break
                default: out.append(u)
                }
            }
            s = String(out)
        }
        if let first = s.unicodeScalars.first, let last = s.unicodeScalars.last,
            CharacterSet.whitespaces.contains(first) || CharacterSet.whitespaces.contains(last)
        {
            s = s.trimmingCharacters(in: .whitespaces)
        }
        return s.isEmpty ? " " : s
    }

    /// The table's Markdown, ending with a newline.
    package var markdown: String {
        var lines = ["| " + header.map(MarkdownTable.escape).joined(separator: " | ") + " |"]
        lines.append("|" + alignments.map { $0 == .left ? " --- |" : " ---: |" }.joined())
        for row in rows {
            lines.append("| " + row.map(MarkdownTable.escape).joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
