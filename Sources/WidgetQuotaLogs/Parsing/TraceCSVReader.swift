import WidgetQuotaSupport

#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads WidgetQuota trace CSV lines: the header names the columns, each later line sets the
/// fields of one record.
///
/// A line without a quote (nearly every line the writer produces) is split while it is read:
/// each cell is found with an eight-bytes-at-a-time comma search and set at once. A line with
/// quotes, or one that could be a repeated header, is split into cells first (`CSVLine`). Both
/// set every cell through `set(_:index:_:)`, so they cannot disagree.
package struct TraceCSVReader {
    /// What one line is.
    package enum Line {
        /// The header (the first line, or the same header again where files were joined).
        case header
        /// A record, whose fields are set.
        case record
        case malformed(LineProblem)
    }

    let redactor: SecretRedactor
    private var columns: [String]?
    /// The field each column sets.
    private var fields: [TraceFields.Field] = []
    /// The first column's name as bytes: a first cell with these bytes may start a header again.
    private var firstColumn: [UInt8] = []
    /// Cells of the current line, for the general path (kept to reuse its storage).
    private var cells: [CSVLine.Cell] = []
    /// Per column, the last text cell's bytes and the (redacted) value they gave.
    private var recent: [RepeatedValue<String?>] = []

    package init(redactor: SecretRedactor) { self.redactor = redactor }

    static let unbalanced = LineProblem("unbalanced quotes; expected RFC 4180 CSV on one line")

    /// Reads one line; a record's fields go to `f` (a fresh `TraceFields`).
    package mutating func read(_ b: UnsafeBufferPointer<UInt8>, into f: inout TraceFields) -> Line {
        guard let columns else { return readHeader(b) }
        if let line = readUnquoted(b, columnCount: columns.count, into: &f) { return line }
        f = TraceFields()
        return readCells(b, columns: columns, into: &f)
    }

    private mutating func readHeader(_ b: UnsafeBufferPointer<UInt8>) -> Line {
        guard let cells = CSVLine.split(b) else { return .malformed(TraceCSVReader.unbalanced) }
        guard cells.first == "schemaVersion" else {
            return .malformed(LineProblem("expected the header line \(TraceFormat.csvHeader)"))
        }
        columns = cells
        fields = cells.map(TraceFields.Field.init(name:))
        firstColumn = Array(cells[0].utf8)
        recent = Array(repeating: RepeatedValue(), count: cells.count)
        return .header
    }

    /// The fast path: a line without quotes whose first cell cannot start a header; nil hands the
    /// line to `readCells`.
    private mutating func readUnquoted(_ b: UnsafeBufferPointer<UInt8>, columnCount: Int, into f: inout TraceFields) -> Line? {
        let n = b.count
        guard n > 0, let base = b.baseAddress, memchr(base, 0x22, n) == nil else { return nil }
        let raw = UnsafeRawBufferPointer(b)
        var start = 0
        var index = 0
        while true {
            // The end of this cell: the next comma, eight bytes at a time, then byte by byte.
            var end = start
            while end + 8 <= n {
                let commas = SWAR.bytes(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: end, as: UInt64.self)), equalTo: 0x2C)
                if commas != 0 {
                    end += commas.trailingZeroBitCount >> 3
                    break
                }
                end += 8
            }
            while end < n, b[end] != 0x2C { end += 1 }
            let cell = UnsafeBufferPointer(rebasing: b[start..<end])
            if index == 0, ByteSearch.equal(cell, firstColumn) || !ByteSearch.isASCII(cell) { return nil }  // maybe a header
            if index < columnCount { set(&f, index: index, cell) }
            index += 1
            if end >= n { break }
            start = end + 1
        }
        guard index == columnCount else {
            return .malformed(LineProblem("expected \(columnCount) columns like the header, found \(index)"))
        }
        return .record
    }

    /// The general path: cells first, then fields.
    private mutating func readCells(_ b: UnsafeBufferPointer<UInt8>, columns: [String], into f: inout TraceFields) -> Line {
        var cells = self.cells
        self.cells = []
        defer { self.cells = cells }
        guard CSVLine.cells(b, into: &cells) else { return .malformed(TraceCSVReader.unbalanced) }
        // A repeated header (files joined with cat). Only a first cell that could equal the first
        // column name (its bytes, quoted or not ASCII) needs the exact String comparison.
        if cells.count == columns.count, let first = cells.first,
            first.quoted || ByteSearch.equal(UnsafeBufferPointer(rebasing: b[first.start..<first.end]), firstColumn)
                || !ByteSearch.isASCII(UnsafeBufferPointer(rebasing: b[first.start..<first.end]))
        {
            if let strings = CSVLine.split(b), strings == columns { return .header }
        }
        guard cells.count == columns.count else {
            return .malformed(LineProblem("expected \(columns.count) columns like the header, found \(cells.count)"))
        }
        for index in 0..<cells.count {
            let cell = cells[index]
            if cell.doubled {
                if fields[index] != .unknown, cell.start != cell.end {
                    f.set(columns[index], CSVLine.unprotected(CSVLine.string(b, cell)), redactor: redactor)
                }
            } else {
                set(&f, index: index, UnsafeBufferPointer(rebasing: b[cell.start..<cell.end]))
            }
        }
        return .record
    }

    /// Sets column `index` from the bytes `v` of its cell (quotes removed, none doubled).
    @inline(__always)
    private mutating func set(_ f: inout TraceFields, index: Int, _ v: UnsafeBufferPointer<UInt8>) {
        let field = fields[index]
        if field == .unknown || v.isEmpty { return }  // empty: TraceFields.set ignores it
        if field.isText {
            // Same bytes, same String: redacted once per distinct value of the column.
            let redactor = self.redactor
            let value = recent[index].value(for: v) { v in
                let text = CSVLine.unprotected(ByteSearch.string(v))
                return text.isEmpty ? nil : redactor.redact(text)
            }
            if let value { f.setText(field, value) }
            return
        }
        // Typed fields: the common spellings from bytes; anything else (a protected apostrophe,
        // signs, fractions, bad values) goes through the String path, unchanged.
        if v[0] == 0x27 || !f.setFast(field, v) {
            f.set(columns![index], CSVLine.unprotected(ByteSearch.string(v)), redactor: redactor)
        }
    }
}
