import Foundation
import WidgetQuotaSupport

#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A value found by `JSONObjectScanner`: where it is in the line and what kind it is.
struct JSONValueRef {
    enum Kind { case string, number, literal, object, array }
    let kind: Kind
    /// For strings: the bytes between the quotes; otherwise the value's bytes.
    let range: Range<Int>
    /// True when a string contains a backslash escape.
    let hasEscapes: Bool
}

/// A small byte-level JSON scanner for one object: visits the top-level keys and values without
/// building a dictionary, skipping nested values. Far faster than `JSONSerialization` per line,
/// which matters for exports of a gigabyte.
package enum JSONObjectScanner {
    /// Scans the object that `bytes` holds (leading and trailing white space allowed).
    /// Calls `visit(keyRange, value)` for each top-level member; returns nil when the object is
    /// well formed, otherwise what was expected.
    static func scan(_ bytes: UnsafeBufferPointer<UInt8>, _ visit: (Range<Int>, JSONValueRef) -> Void) -> String? {
        let n = bytes.count
        var i = 0
        @inline(__always) func skipSpace() {
            while i < n, bytes[i] == 0x20 || bytes[i] == 0x09 || bytes[i] == 0x0A || bytes[i] == 0x0D { i += 1 }
        }
        skipSpace()
        guard i < n, bytes[i] == UInt8(ascii: "{") else { return "expected a JSON object starting with {" }
        i += 1
        skipSpace()
        if i < n, bytes[i] == UInt8(ascii: "}") {
            i += 1
            skipSpace()
            return i == n ? nil : "unexpected text after the JSON object"
        }
        while true {
            skipSpace()
            guard i < n, bytes[i] == UInt8(ascii: "\"") else { return "expected a quoted key" }
            guard let keyEnd = stringEnd(bytes, from: i + 1) else { return "unterminated string (the line is cut off)" }
            let key = (i + 1)..<keyEnd
            i = keyEnd + 1
            skipSpace()
            guard i < n, bytes[i] == UInt8(ascii: ":") else { return "expected ':' after a key" }
            i += 1
            skipSpace()
            guard i < n else { return "expected a value (the line is cut off)" }
            let c = bytes[i]
            let value: JSONValueRef
            switch c {
            case UInt8(ascii: "\""):
                guard let (end, escaped) = string(bytes, from: i + 1) else { return "unterminated string (the line is cut off)" }
                value = JSONValueRef(kind: .string, range: (i + 1)..<end, hasEscapes: escaped)
                i = end + 1
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                guard let end = containerEnd(bytes, from: i) else { return "unbalanced brackets (the line is cut off)" }
                value = JSONValueRef(kind: c == UInt8(ascii: "{") ? .object : .array, range: i..<end, hasEscapes: false)
                i = end
            default:
                let start = i
                i = scalarEnd(bytes, from: i)
                guard i > start else { return "expected a value" }
                guard let scalar = scalar(bytes, start..<i) else { return "expected a JSON value" }
                value = scalar
            }
            visit(key, value)
            skipSpace()
            guard i < n else { return "expected ',' or '}' (the line is cut off)" }
            if bytes[i] == UInt8(ascii: ",") {
                i += 1
                continue
            }
            if bytes[i] == UInt8(ascii: "}") {
                i += 1
                skipSpace()
                return i == n ? nil : "unexpected text after the JSON object"
            }
            return "expected ',' or '}'"
        }
    }

    /// The index of the quote closing a string whose content starts at `from`.
    @inline(__always)
    static func stringEnd(_ bytes: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
        string(bytes, from: from)?.end
    }

    /// The index of the quote closing a string whose content starts at `from`, and whether the
    /// content holds a backslash escape; nil when the string is not closed. Eight bytes at a time.
    @inline(__always)
    package static func string(_ bytes: UnsafeBufferPointer<UInt8>, from: Int) -> (end: Int, escaped: Bool)? {
        let n = bytes.count
        let raw = UnsafeRawBufferPointer(bytes)
        var i = from
        var escaped = false
        while true {
            // The next quote or backslash.
            while i + 8 <= n {
                let hits = SWAR.quoteOrBackslash(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)))
                if hits != 0 {
                    i += hits.trailingZeroBitCount >> 3
                    break
                }
                i += 8
            }
            while i < n, bytes[i] != 0x22, bytes[i] != 0x5C { i += 1 }
            guard i < n else { return nil }
            if bytes[i] == 0x22 { return (i, escaped) }
            escaped = true
            i += 2  // the backslash and the byte it escapes
        }
    }

    /// The index just past a number or literal starting at `from`: the first `,`, `}` or white space.
    @inline(__always)
    static func scalarEnd(_ bytes: UnsafeBufferPointer<UInt8>, from: Int) -> Int {
        var i = from
        while i < bytes.count, bytes[i] &- 0x30 < 10 { i += 1 }  // digits end nothing: skip them first
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: ",") || b == UInt8(ascii: "}") || b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 { break }
            i += 1
        }
        return i
    }

    private static let literals: [[UInt8]] = ["true", "false", "null"].map { Array($0.utf8) }

    /// The number or literal at `range` (not empty), or nil when it is neither: a number starts
    /// with `-` or a digit; a literal is exactly `true`, `false` or `null`.
    @inline(__always)
    static func scalar(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> JSONValueRef? {
        let first = bytes[range.lowerBound]
        if first == UInt8(ascii: "-") || (first &- 0x30) < 10 {
            return JSONValueRef(kind: .number, range: range, hasEscapes: false)
        }
        let word = UnsafeBufferPointer(rebasing: bytes[range])
        guard literals.contains(where: { ByteSearch.equal(word, $0) }) else { return nil }
        return JSONValueRef(kind: .literal, range: range, hasEscapes: false)
    }

    /// The index just past the object or array starting at `from`.
    static func containerEnd(_ bytes: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
        var depth = 0
        var i = from
        while i < bytes.count {
            switch bytes[i] {
            case UInt8(ascii: "\""):
                guard let end = stringEnd(bytes, from: i + 1) else { return nil }
                i = end
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth == 0 { return i + 1 }
            default: break
            }
            i += 1
        }
        return nil
    }

    /// True when the key at `range` equals `name` (ASCII key names).
    @inline(__always)
    static func keyEquals(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ name: StaticString) -> Bool {
        guard range.count == name.utf8CodeUnitCount else { return false }
        return ByteSearch.sameBytes(
            UnsafeBufferPointer(rebasing: bytes[range]), UnsafeBufferPointer(start: name.utf8Start, count: range.count))
    }

    /// Decodes a JSON string's content (between the quotes), resolving escapes; nil when an escape is invalid.
    static func decodeString(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, hasEscapes: Bool) -> String? {
        if !hasEscapes { return ByteSearch.string(bytes, range) }
        var out = [UInt8]()
        out.reserveCapacity(range.count)
        var i = range.lowerBound
        let end = range.upperBound
        func hex4(_ at: Int) -> UInt32? {
            guard at + 4 <= end else { return nil }
            var v: UInt32 = 0
            for k in 0..<4 {
                let c = bytes[at + k]
                let d: UInt8
                switch c {
                case 0x30...0x39: d = c - 0x30
                case 0x41...0x46: d = c - 0x41 + 10
                case 0x61...0x66: d = c - 0x61 + 10
                default: return nil
                }
                v = v << 4 | UInt32(d)
            }
            return v
        }
        while i < end {
            let c = bytes[i]
            if c != 0x5C {
                // Copy the run up to the next backslash at once.
                let run =
                    memchr(bytes.baseAddress! + i, 0x5C, end - i).map {
                        bytes.baseAddress!.distance(to: $0.assumingMemoryBound(to: UInt8.self))
                    } ?? end
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[i..<run]))
                i = run
                continue
            }
            guard i + 1 < end else { return nil }
            let e = bytes[i + 1]
            i += 2
            switch e {
            case UInt8(ascii: "\""): out.append(0x22)
            case UInt8(ascii: "\\"): out.append(0x5C)
            case UInt8(ascii: "/"): out.append(0x2F)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                guard var scalar = hex4(i) else { return nil }
                i += 4
                if scalar >= 0xD800 && scalar < 0xDC00 {
                    // A high surrogate must be followed by \uDC00-\uDFFF.
                    if i + 6 <= end, bytes[i] == 0x5C, bytes[i + 1] == UInt8(ascii: "u"), let low = hex4(i + 2), low >= 0xDC00, low < 0xE000
                    {
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        i += 6
                    } else {
                        scalar = 0xFFFD
                    }
                } else if scalar >= 0xDC00 && scalar < 0xE000 {
                    scalar = 0xFFFD
                }
                let u = Unicode.Scalar(scalar) ?? "\u{FFFD}"
                out.append(contentsOf: Array(String(Character(u)).utf8))
            default:
                return nil
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
