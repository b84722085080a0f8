/// Reads the fields of WidgetQuota trace NDJSON lines.
///
/// Lines in the exact key order `TraceFormat.ndjsonLine` writes, without white space, take a
/// fast path that checks each expected key's bytes in turn instead of scanning and comparing
/// keys; anything else (another order, unknown keys, white space, nested values) is read again
/// by the general `JSONObjectScanner`. Both hand each member to the same `visit`, so a line
/// gives the same fields whichever path reads it.
package struct TraceNDJSONReader {
    let redactor: SecretRedactor
    /// Devices, widget kinds and families repeat line after line: redacted and made into
    /// Strings once per run.
    private var device = RepeatedValue<String>(), widgetKind = RepeatedValue<String>(), widgetFamily = RepeatedValue<String>()

    package init(redactor: SecretRedactor) { self.redactor = redactor }

    /// Reads one line into `f` (a fresh `TraceFields`); returns what is wrong with its JSON, if anything.
    package mutating func read(_ b: UnsafeBufferPointer<UInt8>, into f: inout TraceFields) -> LineProblem? {
        var line = Line()
        if !readCanonical(b, into: &f, &line) {
            f = TraceFields()
            line = Line()
            if let problem = JSONObjectScanner.scan(b, { key, value in visit(b, key: key, value: value, into: &f, &line) }) {
                return LineProblem(problem)
            }
        }
        if let r = line.deviceRange { f.draft.device = device.value(for: UnsafeBufferPointer(rebasing: b[r]), make: redacted) }
        return nil
    }

    /// What one line has given besides its fields.
    private struct Line {
        /// A plain (unescaped) device string: made into a String once per run of equal names.
        var deviceRange: Range<Int>?
    }

    // MARK: The writer's key order

    /// `"name":` of one field, as its first and last eight bytes (every such key has 8–16 bytes),
    /// so checking for it is two word compares.
    private struct Key {
        let field: TraceFields.Field
        let count: Int
        let head: UInt64
        let tail: UInt64

        init(_ name: String) {
            let bytes = Array("\"\(name)\":".utf8)
            precondition(bytes.count >= 8 && bytes.count <= 16, "trace keys are 8–16 bytes with quotes and colon")
            field = TraceFields.Field(name: name)
            count = bytes.count
            head = Key.word(bytes, 0)
            tail = Key.word(bytes, bytes.count - 8)
        }

        static func word(_ bytes: [UInt8], _ at: Int) -> UInt64 {
            (0..<8).reduce(0) { $0 | UInt64(bytes[at + $1]) << (8 * UInt64($1)) }
        }

        /// True when `b` holds this key at `at`.
        @inline(__always)
        func isAt(_ at: Int, in b: UnsafeRawBufferPointer) -> Bool {
            at + count <= b.count
                && UInt64(littleEndian: b.loadUnaligned(fromByteOffset: at, as: UInt64.self)) == head
                && UInt64(littleEndian: b.loadUnaligned(fromByteOffset: at + count - 8, as: UInt64.self)) == tail
        }
    }

    /// Every field's key, in the order `TraceFormat.ndjsonLine` writes them.
    private static let canonical = TraceFormat.columns.map(Key.init)

    /// Reads `b` when its keys come in `canonical` order (any may be missing) with no white
    /// space and no nested values; false, with `line` to be discarded, for anything else.
    private mutating func readCanonical(_ b: UnsafeBufferPointer<UInt8>, into f: inout TraceFields, _ line: inout Line) -> Bool {
        let n = b.count
        guard n > 2, b[0] == 0x7B else { return false }  // {
        let raw = UnsafeRawBufferPointer(b)
        var i = 1
        var next = 0
        return TraceNDJSONReader.canonical.withUnsafeBufferPointer { keys in
            while true {
                var k = next
                while k < keys.count, !keys[k].isAt(i, in: raw) { k += 1 }
                guard k < keys.count else { return false }
                next = k + 1
                i += keys[k].count
                guard i < n else { return false }
                let value: JSONValueRef
                if b[i] == 0x22 {
                    guard let (end, escaped) = JSONObjectScanner.string(b, from: i + 1) else { return false }
                    value = JSONValueRef(kind: .string, range: (i + 1)..<end, hasEscapes: escaped)
                    i = end + 1
                } else {
                    let start = i
                    i = JSONObjectScanner.scalarEnd(b, from: i)
                    guard i > start, let scalar = JSONObjectScanner.scalar(b, start..<i) else { return false }
                    value = scalar
                }
                visit(b, field: keys[k].field, value: value, into: &f, &line)
                guard i < n else { return false }
                if b[i] == 0x2C {
                    i += 1
                    continue
                }  // ,
                return b[i] == 0x7D && i + 1 == n  // } ends the line
            }
        }
    }

    // MARK: Members

    /// One member found by the general scanner: its key named by bytes.
    private mutating func visit(
        _ b: UnsafeBufferPointer<UInt8>, key: Range<Int>, value: JSONValueRef, into f: inout TraceFields, _ line: inout Line
    ) {
        let keyBytes = UnsafeBufferPointer(rebasing: b[key])
        if ByteSearch.isASCII(keyBytes) {
            visit(b, field: TraceFields.Field(ascii: keyBytes), value: value, into: &f, &line)
        } else {
            // Only String comparison can tell whether such a key names a field (U+212A KELVIN
            // SIGN is canonically equivalent to K), as it always has.
            f.set(ByteSearch.string(keyBytes), text(b, value), redactor: redactor)
        }
    }

    /// One member whose key names `field`.
    private mutating func visit(
        _ b: UnsafeBufferPointer<UInt8>, field: TraceFields.Field, value: JSONValueRef, into f: inout TraceFields, _ line: inout Line
    ) {
        let v = UnsafeBufferPointer(rebasing: b[value.range])
        switch field {
        case .unknown:
            return  // unknown fields are allowed (newer writers)
        case .timestamp:
            f.timestampText = true
            guard value.kind == .string else { return }
            if let (ts, end) = LogTimestamp.parse(v), end == v.count { f.timestamp = ts }
        case .event:
            f.eventPresent = true
            if value.kind == .string { f.event = LogEventKind.matching(v) }
        case .device where value.kind == .string && !value.hasEscapes:
            line.deviceRange = value.range
        case .lowPowerMode, .smartStack:
            let isLowPower = field == .lowPowerMode
            let isTrue = ByteSearch.equal(v, TraceFields.trueBytes)
            if value.kind == .literal, isTrue || ByteSearch.equal(v, TraceFields.falseBytes) {
                if isLowPower { f.lowPowerMode = isTrue } else { f.draft.smartStack = isTrue }
            } else if f.problem == nil {
                f.problem = "\(isLowPower ? "lowPowerMode" : "smartStack"): expected true or false"
            }
        default:
            if !setFast(field, value, v, into: &f) {
                f.set(field.name, text(b, value), redactor: redactor)
            }
        }
    }

    /// Fields that repeat on most lines, set from bytes without building Strings; false leaves
    /// the value to `TraceFields.set` and its full rules and messages.
    private mutating func setFast(
        _ field: TraceFields.Field, _ value: JSONValueRef, _ v: UnsafeBufferPointer<UInt8>,
        into f: inout TraceFields
    ) -> Bool {
        switch field {
        case .origin, .actor, .outcome:
            return value.kind == .string && f.setFast(field, v)
        case .instance, .tokens, .durationMs, .schemaVersion:
            // Plain digits below 10^15, as the writer spells them.
            return value.kind == .number && v.count < 16 && f.setFast(field, v)
        case .widgetKind, .widgetFamily:
            guard value.kind == .string, !value.hasEscapes else { return false }
            if field == .widgetKind {
                f.draft.widgetKind = widgetKind.value(for: v, make: redacted)
            } else {
                f.draft.widgetFamily = widgetFamily.value(for: v, make: redacted)
            }
            return true
        default:
            return false
        }
    }

    /// Plain bytes as redacted text.
    private func redacted(_ v: UnsafeBufferPointer<UInt8>) -> String { redactor.redact(ByteSearch.string(v)) }

    /// The text `TraceFields.set` is given: a string's decoded content, otherwise the bytes.
    private func text(_ b: UnsafeBufferPointer<UInt8>, _ value: JSONValueRef) -> String {
        value.kind == .string
            ? JSONObjectScanner.decodeString(b, value.range, hasEscapes: value.hasEscapes) ?? ""
            : ByteSearch.string(b, value.range)
    }
}
