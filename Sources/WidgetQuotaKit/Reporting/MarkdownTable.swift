import Foundation

/// A GitHub-flavoured Markdown table: every row has the header's column count and pipes are escaped.
public struct MarkdownTable: Sendable {
    public enum Alignment: Sendable { case left, right }

    public let header: [String]
    public let alignments: [Alignment]
    public private(set) var rows: [[String]] = []

    public init(_ header: [String], alignments: [Alignment]? = nil) {
        self.header = header
        self.alignments = alignments ?? header.indices.map { $0 == 0 ? .left : .right }
    }

    /// Appends a row, padding or failing loudly on a column-count mismatch in debug builds.
    public mutating func append(_ row: [String]) {
        precondition(row.count == header.count, "row has \(row.count) cells, header has \(header.count)")
        rows.append(row)
    }

    /// Escapes a cell: pipes, line breaks and leading/trailing whitespace.
    public static func escape(_ cell: String) -> String {
        var s = cell.replacingOccurrences(of: "\\", with: "\\\\")
        s = s.replacingOccurrences(of: "|", with: "\\|")
        s = s.replacingOccurrences(of: "\r\n", with: "<br>").replacingOccurrences(of: "\n", with: "<br>")
        s = s.replacingOccurrences(of: "\r", with: "<br>")
        s = s.trimmingCharacters(in: .whitespaces)
        return s.isEmpty ? " " : s
    }

    /// The table's Markdown, ending with a newline.
    public var markdown: String {
        var lines = ["| " + header.map(MarkdownTable.escape).joined(separator: " | ") + " |"]
        lines.append("|" + alignments.map { $0 == .left ? " --- |" : " ---: |" }.joined())
        for row in rows {
            lines.append("| " + row.map(MarkdownTable.escape).joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
