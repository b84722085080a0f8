import Foundation

/// Writes RFC 4180 CSV: CRLF line ends, fields with commas, quotes or line breaks quoted, quotes doubled.
/// Text cells a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, tab, CR) get a leading `'`.
package struct CSVWriter: Sendable {
    package enum Cell: Sendable, Equatable {
        case text(String)
        case number(Double)
        case integer(Int)
        case empty
    }

    private(set) public var output = ""

    package init(header: [String]) {
        appendRow(header.map(Cell.text))
    }

    /// Appends one row.
    package mutating func appendRow(_ cells: [Cell]) {
        output += cells.map(CSVWriter.encode).joined(separator: ",") + "\r\n"
    }

    /// The text of one cell.
    package static func encode(_ cell: Cell) -> String {
        switch cell {
        case .empty: return ""
        case .integer(let v): return String(v)
        case .number(let v): return v.isFinite ? NumberText.plain(v, maxFractionDigits: fractionDigits(v)) : ""
        case .text(let raw):
            var s = PrintableText.clean(raw)
            if let first = s.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first) {
                s = "'" + s
            }
            // Check scalars, not Characters: "\r\n" is one Character that equals neither "\r" nor "\n".
            if s.unicodeScalars.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) {
                return "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            }
            return s
        }
    }

    /// Six fraction digits, more for small values so each keeps six significant digits
    /// (a price per token of 2.5e-6 must not print as 0.000003, nor 3e-7 as 0).
    static func fractionDigits(_ v: Double) -> Int {
        guard v != 0 else { return 6 }
        let exponent = Int(Foundation.log10(abs(v)).rounded(.down))
        return min(15, max(6, 5 - exponent))
    }
}
