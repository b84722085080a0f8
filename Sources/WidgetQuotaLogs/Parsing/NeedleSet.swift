/// Whether any of a few byte strings (needles) occurs in a text, in one pass over the text: a
/// table of the needles' first two bytes (in every case spelling, when folding) marks where one
/// could start, and only there are the needles compared, their first eight bytes as one word. Far cheaper than one search per needle
/// when messages are long and the needles' first letters common.
///
/// With `foldingCase`, A–Z in the text count as a–z (the needles are then lowercase).
package struct NeedleSet: Sendable {
    private struct Needle: Sendable {
        let bytes: [UInt8]
        /// The first eight bytes (fewer for a shorter needle) as a little-endian word, and the
        /// mask of those bytes.
        let head: UInt64
        let mask: UInt64
    }

    private let needles: [Needle]
    /// One bit per pair of bytes, first byte low: set when a needle starts with it (with either
    /// case of each letter, when folding).
    private let pairs: [UInt64]
    private let foldingCase: Bool
    /// The shortest needle's length: shorter texts hold none.
    private let shortest: Int

    package init(_ needles: [String], foldingCase: Bool = false) {
        var pairs = [UInt64](repeating: 0, count: 65_536 / 64)
        self.needles = needles.map { text in
            let bytes = Array(text.utf8)
            precondition(bytes.count >= 2, "needles have at least two bytes")
            precondition(!foldingCase || !bytes.contains { $0 &- 0x41 < 26 }, "needles for a case-folding search are lowercase")
            for first in NeedleSet.spellings(bytes[0], foldingCase) {
                for second in NeedleSet.spellings(bytes[1], foldingCase) {
                    let pair = Int(first) | Int(second) << 8
                    pairs[pair >> 6] |= 1 &<< UInt64(pair & 63)
                }
            }
            let count = min(bytes.count, 8)
            let head = (0..<count).reduce(UInt64(0)) { $0 | UInt64(bytes[$1]) &<< (8 * UInt64($1)) }
            return Needle(bytes: bytes, head: head, mask: count == 8 ? ~0 : (1 &<< (8 * UInt64(count))) - 1)
        }
        self.pairs = pairs
        self.foldingCase = foldingCase
        shortest = needles.map(\.utf8.count).min() ?? 0
    }

    /// The bytes that read as `c` (a lowercase letter may also be written in capitals).
    private static func spellings(_ c: UInt8, _ foldingCase: Bool) -> [UInt8] {
        foldingCase && c &- 0x61 < 26 ? [c, c & ~0x20] : [c]
    }

    /// `c` with A–Z made lowercase; every other byte unchanged.
    @inline(__always)
    static func folded(_ c: UInt8) -> UInt8 { c &- 0x41 < 26 ? c | 0x20 : c }

    /// Eight bytes with A–Z made lowercase, all at once (no carry crosses a byte: each sum stays
    /// below 0x100).
    @inline(__always)
    static func folded(_ x: UInt64) -> UInt64 {
        let low7 = x & 0x7F7F_7F7F_7F7F_7F7F
        let atLeastA = low7 &+ 0x3F3F_3F3F_3F3F_3F3F  // high bit: byte ≥ 0x41
        let pastZ = low7 &+ 0x2525_2525_2525_2525  // high bit: byte ≥ 0x5B
        let upper = atLeastA & ~pastZ & ~x & 0x8080_8080_8080_8080
        return x | upper >> 2
    }

    /// True when one of the needles occurs in `b`.
    package func occurs(in b: UnsafeBufferPointer<UInt8>) -> Bool {
        let n = b.count
        guard n >= shortest, n >= 2 else { return false }
        let raw = UnsafeRawBufferPointer(b)
        return pairs.withUnsafeBufferPointer { table in
            // Every position's two bytes straight from memory: no case folding and no value
            // carried from one position to the next.
            for i in 0..<(n - 1) {
                let pair = Int(UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt16.self)))
                if table[pair &>> 6] & (1 &<< UInt64(pair & 63)) != 0, starts(at: i, in: b) { return true }
            }
            return false
        }
    }

    /// True when a needle starts at `at`.
    private func starts(at: Int, in b: UnsafeBufferPointer<UInt8>) -> Bool {
        let rest = b.count - at
        var x: UInt64 = 0
        if rest >= 8 {
            x = UInt64(littleEndian: UnsafeRawPointer(b.baseAddress! + at).loadUnaligned(as: UInt64.self))
        } else {
            for k in 0..<rest { x |= UInt64(b[at + k]) &<< (8 * UInt64(k)) }  // zeros past the end match no needle byte
        }
        if foldingCase { x = NeedleSet.folded(x) }
        return needles.withUnsafeBufferPointer { needles in
            needles.contains { needle in
                guard x & needle.mask == needle.head, needle.bytes.count <= rest else { return false }
                if needle.bytes.count <= 8 { return true }
                // Longer needles: the rest byte by byte (folded when asked).
                for k in 8..<needle.bytes.count {
                    let c = b[at + k]
                    if (foldingCase ? NeedleSet.folded(c) : c) != needle.bytes[k] { return false }
                }
                return true
            }
        }
    }
}
