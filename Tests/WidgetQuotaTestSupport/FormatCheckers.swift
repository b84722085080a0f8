import Foundation

/// A strict RFC 4180 reader: CRLF record ends, quoted fields with doubled quotes, every record
/// with the header's field count. Anything else is an error, so a sloppy writer cannot pass.
package enum StrictCSV {
    package struct Failure: Error, CustomStringConvertible { package let description: String }

    package static func parse(_ text: String) throws -> [[String]] {
        var records = [[String]]()
        var record = [String]()
        var field = ""
        let chars = Array(text.unicodeScalars)
        var i = 0
        var quoted = false
        var atFieldStart = true
        var afterQuote = false
        func endField() {
            record.append(field)
            field = ""
            atFieldStart = true
            afterQuote = false
        }
        while i < chars.count {
            let c = chars[i]
            if quoted {
                if c == "\"" {
                    if i + 1 < chars.count && chars[i + 1] == "\"" {
                        field.unicodeScalars.append("\"")
                        i += 2
                        continue
                    }
                    quoted = false
                    afterQuote = true
                    i += 1
                    continue
                }
                field.unicodeScalars.append(c)
                i += 1
                continue
            }
            switch c {
            case "\"":
                guard atFieldStart else { throw Failure(description: "quote inside an unquoted field at \(i)") }
                quoted = true
                atFieldStart = false
            case ",":
                endField()
            case "\r":
                guard i + 1 < chars.count, chars[i + 1] == "\n" else { throw Failure(description: "bare CR at \(i)") }
                endField()
                records.append(record)
                record = []
                i += 1
            case "\n":
                throw Failure(description: "bare LF at \(i) (records must end with CRLF)")
            default:
                guard !afterQuote else { throw Failure(description: "text after a closing quote at \(i)") }
                field.unicodeScalars.append(c)
                atFieldStart = false
            }
            i += 1
        }
        guard !quoted else { throw Failure(description: "unterminated quoted field") }
        guard record.isEmpty && field.isEmpty else { throw Failure(description: "last record does not end with CRLF") }
        guard let width = records.first?.count else { throw Failure(description: "no header") }
        for (n, r) in records.enumerated() where r.count != width {
            throw Failure(description: "record \(n) has \(r.count) fields, header has \(width)")
        }
        return records
    }
}

/// Finds GitHub-flavoured Markdown tables and checks their shape: a header row, a delimiter row
/// with the same number of cells, and every body row with that number of cells (escaped pipes
/// do not split cells).
package enum GFMTables {
    package struct Table {
        package var header: [String]
        package var rows: [[String]]
    }
    package struct Failure: Error, CustomStringConvertible { package let description: String }

    /// Cells of a table line, honouring `\|`.
    package static func cells(_ line: String) -> [String] {
        var s = line.trimmingCharacters(in: .whitespaces)
        if s.hasPrefix("|") { s.removeFirst() }
        if s.hasSuffix("|") && !s.hasSuffix("\\|") { s.removeLast() }
        var out = [String]()
        var cell = ""
        var escaped = false
        for ch in s {
            if escaped {
                cell.append(ch)
                escaped = false
                continue
            }
            if ch == "\\" {
                cell.append(ch)
                escaped = true
                continue
            }
            if ch == "|" {
                out.append(cell.trimmingCharacters(in: .whitespaces))
                cell = ""
                continue
            }
            cell.append(ch)
        }
        out.append(cell.trimmingCharacters(in: .whitespaces))
        return out
    }

    package static func isDelimiter(_ cells: [String]) -> Bool {
        cells.allSatisfy { c in
            var body = Substring(c)
            if body.hasPrefix(":") { body = body.dropFirst() }
            if body.hasSuffix(":") { body = body.dropLast() }
            return !body.isEmpty && body.allSatisfy { $0 == "-" }
        }
    }

    /// Every table in `markdown`; throws on a malformed one.
    package static func parse(_ markdown: String) throws -> [Table] {
        let lines = markdown.components(separatedBy: "\n")
        var tables = [Table]()
        var i = 0
        while i < lines.count {
            let line = lines[i]
            guard line.hasPrefix("|") else {
                i += 1
                continue
            }
            guard i + 1 < lines.count, isDelimiter(cells(lines[i + 1])) else {
                throw Failure(description: "line \(i + 1) looks like a table row but no delimiter row follows: \(line)")
            }
            if i > 0 && !lines[i - 1].isEmpty {
                throw Failure(description: "table at line \(i + 1) does not start after a blank line")
            }
            let header = cells(line)
            guard cells(lines[i + 1]).count == header.count else {
                throw Failure(description: "delimiter row at line \(i + 2) has \(cells(lines[i + 1]).count) cells, header \(header.count)")
            }
            var table = Table(header: header, rows: [])
            i += 2
            while i < lines.count, lines[i].hasPrefix("|") {
                let row = cells(lines[i])
                guard row.count == header.count else {
                    throw Failure(description: "row at line \(i + 1) has \(row.count) cells, header \(header.count): \(lines[i])")
                }
                table.rows.append(row)
                i += 1
            }
            tables.append(table)
        }
        return tables
    }
}
