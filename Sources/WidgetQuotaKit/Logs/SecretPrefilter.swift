/// The cheap test `SecretRedactor` runs before its regular expressions: does the text contain,
/// ASCII case-folded, one of the words every rule needs? One pass over the bytes with a table of
/// the words' first two letters, eight bytes compared at once to confirm, and no allocation,
/// because every kept message goes through it.
struct SecretPrefilter: Sendable {
    /// Lowercase words one of which appears in any text a rule can match (each at most 8 bytes).
    static let words = ["key", "token", "auth", "bearer", "aiza", "sk-", "eyj", "secret", "password", "sig"]

    /// One bit per pair of folded bytes (first byte low): set when a word starts with that pair.
    private let pairs: [UInt64]
    /// Each word as a little-endian word of bytes, with the mask of its length.
    private let packed: [(word: UInt64, mask: UInt64)]

    init() {
        var pairs = [UInt64](repeating: 0, count: 65_536 / 64)
        var packed: [(UInt64, UInt64)] = []
        for w in SecretPrefilter.words {
            let bytes = Array(w.utf8)
            precondition(bytes.count >= 2 && bytes.count <= 8)
            let pair = Int(bytes[0]) | Int(bytes[1]) << 8
            pairs[pair >> 6] |= 1 &<< UInt64(pair & 63)
            var word: UInt64 = 0
            for (k, c) in bytes.enumerated() { word |= UInt64(c) &<< (8 * UInt64(k)) }
            packed.append((word, bytes.count == 8 ? ~0 : (1 &<< (8 * UInt64(bytes.count))) - 1))
        }
        self.pairs = pairs
        self.packed = packed
    }

    /// `c` with A–Z made lowercase; every other byte unchanged.
    @inline(__always)
    static func folded(_ c: UInt8) -> UInt8 { c &- 0x41 < 26 ? c | 0x20 : c }

    /// Eight bytes with A–Z made lowercase, all at once (no carry crosses a byte: each sum stays
    /// below 0x100).
    @inline(__always)
    static func folded(_ x: UInt64) -> UInt64 {
        let low7 = x & 0x7F7F_7F7F_7F7F_7F7F
        let atLeastA = low7 &+ 0x3F3F_3F3F_3F3F_3F3F    // high bit: byte ≥ 0x41
        let pastZ = low7 &+ 0x2525_2525_2525_2525       // high bit: byte ≥ 0x5B
        let upper = atLeastA & ~pastZ & ~x & 0x8080_8080_8080_8080
        return x | upper >> 2
    }

    /// True when the folded bytes contain one of `words`.
    func matches(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        let n = b.count
        guard n >= 3, let base = b.baseAddress else { return false }   // the shortest word has three letters
        return pairs.withUnsafeBufferPointer { table in
            var previous = Int(SecretPrefilter.folded(base[0]))
            for i in 1..<n {
                let current = Int(SecretPrefilter.folded(base[i]))
                let pair = previous | current &<< 8
                if table[pair &>> 6] & (1 &<< UInt64(pair & 63)) != 0, wordStarts(at: i - 1, in: b) { return true }
                previous = current
            }
            return false
        }
    }

    /// True when one of `words` starts at `at` (folded).
    private func wordStarts(at: Int, in b: UnsafeBufferPointer<UInt8>) -> Bool {
        var x: UInt64 = 0
        if at + 8 <= b.count {
            x = UInt64(littleEndian: UnsafeRawPointer(b.baseAddress! + at).loadUnaligned(as: UInt64.self))
        } else {
            for k in 0..<(b.count - at) { x |= UInt64(b[at + k]) &<< (8 * UInt64(k)) }   // zeros past the end match no letter
        }
        let folded = SecretPrefilter.folded(x)
        return packed.withUnsafeBufferPointer { words in words.contains { folded & $0.mask == $0.word } }
    }
}
