import WidgetQuotaSupport

/// Splits one RFC 4180 CSV line into cells.
package enum CSVLine {
    /// Where one cell is in a line: for a quoted cell the bytes between the quotes.
    package struct Cell {
        var start: Int
        var end: Int
        var quoted: Bool
        /// True when a quoted cell contains a doubled quote (its text needs unescaping).
        var doubled: Bool
    }

    /// The cells of `b` as byte ranges, with exactly `split`'s rules; false when a quoted cell
    /// is not closed on this line (or text follows its closing quote).
    package static func cells(_ b: UnsafeBufferPointer<UInt8>, into cells: inout [Cell]) -> Bool {
        cells.removeAll(keepingCapacity: true)
        var i = 0
        let n = b.count
        while true {
            if i < n, b[i] == 0x22 {
                i += 1
                let start = i
                var doubled = false
                var closed = false
                while i < n {
                    if b[i] == 0x22 {
                        if i + 1 < n, b[i + 1] == 0x22 {
                            doubled = true
                            i += 2
                            continue
                        }
                        closed = true
                        break
                    }
                    i += 1
                }
                guard closed else { return false }
                let end = i
                i += 1
                guard i == n || b[i] == 0x2C else { return false }
                cells.append(Cell(start: start, end: end, quoted: true, doubled: doubled))
            } else {
                let start = i
                while i < n, b[i] != 0x2C { i += 1 }
                cells.append(Cell(start: start, end: i, quoted: false, doubled: false))
            }
            if i >= n { break }
            i += 1  // the comma
            if i == n {
                cells.append(Cell(start: n, end: n, quoted: false, doubled: false))
                break
            }
        }
        return true
    }

    /// The text of `cell` (doubled quotes made single), as `split` gives it.
    package static func string(_ b: UnsafeBufferPointer<UInt8>, _ cell: Cell) -> String {
        guard cell.doubled else { return ByteSearch.string(b, cell.start..<cell.end) }
        var bytes = [UInt8]()
        bytes.reserveCapacity(cell.end - cell.start)
        var i = cell.start
        while i < cell.end {
            bytes.append(b[i])
            i += b[i] == 0x22 ? 2 : 1
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A leading apostrophe protects text from spreadsheets (CSVWriter); it is not data.
    static func unprotected(_ cell: String) -> String {
        cell.hasPrefix("'") ? String(cell.dropFirst()) : cell
    }

    /// The cells, or nil when a quoted cell is not closed on this line.
    package static func split(_ b: UnsafeBufferPointer<UInt8>) -> [String]? {
        var cells = [String]()
        var i = 0
        let n = b.count
        while true {
            if i < n, b[i] == 0x22 {
                var bytes = [UInt8]()
                i += 1
                var closed = false
                while i < n {
                    if b[i] == 0x22 {
                        if i + 1 < n, b[i + 1] == 0x22 {
                            bytes.append(0x22)
                            i += 2
                            continue
                        }
                        closed = true
                        i += 1
                        break
                    }
                    bytes.append(b[i])
                    i += 1
                }
                guard closed, i == n || b[i] == 0x2C else { return nil }
                cells.append(String(decoding: bytes, as: UTF8.self))
            } else {
                let start = i
                while i < n, b[i] != 0x2C { i += 1 }
                cells.append(ByteSearch.string(b, start..<i))
            }
            if i >= n { break }
            i += 1  // the comma
            if i == n {
                cells.append("")
                break
            }
        }
        return cells
    }
}
