import Foundation

#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Byte-level helpers for scanning log lines without building Strings.
package enum ByteSearch {
    /// True when `needle` occurs in `haystack`.
    @inline(__always)
    static func contains(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: [UInt8]) -> Bool {
        index(of: needle, in: haystack) != nil
    }

    /// The index of the first occurrence of `needle` in `haystack`, if any: `memchr` for the first
    /// byte, then the last byte, then `memcmp` (Glibc does not export `memmem` to Swift).
    static func index(of needle: [UInt8], in haystack: UnsafeBufferPointer<UInt8>, from: Int = 0) -> Int? {
        guard needle.count > 0, haystack.count - from >= needle.count, let base = haystack.baseAddress else { return nil }
        return needle.withUnsafeBufferPointer { n -> Int? in
            let first = n[0]
            let lastOffset = n.count - 1
            let last = n[lastOffset]
            var i = from
            let end = haystack.count - n.count
            while i <= end {
                guard let hit = memchr(base + i, Int32(first), end - i + 1) else { return nil }
                let at = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                if base[at + lastOffset] == last && memcmp(base + at, n.baseAddress!, n.count) == 0 { return at }
                i = at + 1
            }
            return nil
        }
    }

    /// True when two byte sequences are equal.
    @inline(__always)
    static func equal(_ a: UnsafeBufferPointer<UInt8>, _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        if a.isEmpty { return true }
        return b.withUnsafeBufferPointer { b in
            a.count <= 32 ? sameBytes(a, b) : memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0
        }
    }

    /// True when `a` and `b`, of the same length, hold the same bytes: whole words where the
    /// length allows (the last one overlapping), bytes below four. For short names, where a
    /// `memcmp` call costs more than the comparison.
    @inline(__always)
    static func sameBytes(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        let n = a.count
        guard n >= 4 else { return a.elementsEqual(b) }
        let x = UnsafeRawBufferPointer(a)
        let y = UnsafeRawBufferPointer(b)
        if n < 8 {
            return x.loadUnaligned(as: UInt32.self) == y.loadUnaligned(as: UInt32.self)
                && x.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self) == y.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self)
        }
        var k = 0
        while k + 8 < n {
            if x.loadUnaligned(fromByteOffset: k, as: UInt64.self) != y.loadUnaligned(fromByteOffset: k, as: UInt64.self) { return false }
            k += 8
        }
        return x.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self) == y.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)
    }

    /// True when `bytes` starts with `prefix` at `at`.
    @inline(__always)
    static func hasPrefix(_ bytes: UnsafeBufferPointer<UInt8>, _ prefix: [UInt8], at: Int = 0) -> Bool {
        guard bytes.count - at >= prefix.count else { return false }
        for k in 0..<prefix.count where bytes[at + k] != prefix[k] { return false }
        return true
    }

    /// A String from bytes, repairing invalid UTF-8 with U+FFFD.
    @inline(__always)
    static func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        String(decoding: bytes, as: UTF8.self)
    }

    /// A String from `bytes[range]`.
    @inline(__always)
    package static func string(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    /// True when no byte is above 0x7F.
    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var any: UInt8 = 0
        for c in bytes { any |= c }
        return any < 0x80
    }

    /// True when every byte is ASCII white space.
    static func isBlank(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
    }
}
