/// A fast 64-bit hash of a line's bytes for `DuplicateFilter` (in the style of wyhash: one
/// 64×64→128-bit multiply folds 16 bytes, in two independent lanes so the multiplies overlap).
///
/// Not cryptographic and not needed to be: equal hashes are confirmed byte for byte, so a
/// collision only costs a comparison. The bits are well spread, which the hash table needs.
package enum LineHash {
    private static let k0: UInt64 = 0xA076_1D64_78BD_642F
    private static let k1: UInt64 = 0xE703_7ED1_A0B4_28DB
    private static let k2: UInt64 = 0x8EBC_6AF0_9C88_C6E3
    private static let k3: UInt64 = 0x5899_65CC_7537_4CC3

    /// Multiplies to 128 bits and folds the halves together.
    @inline(__always)
    private static func fold(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let (high, low) = a.multipliedFullWidth(by: b)
        return high ^ low
    }

    /// The hash of `bytes`.
    package static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        let n = bytes.count
        @inline(__always) func word(_ at: Int) -> UInt64 {
            UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: at, as: UInt64.self))
        }
        var a = k0 ^ UInt64(truncatingIfNeeded: n)
        var b = k1
        var i = 0
        while i + 32 <= n {
            a = fold(word(i) ^ k2, word(i + 8) ^ a)
            b = fold(word(i + 16) ^ k3, word(i + 24) ^ b)
            i += 32
        }
        if i + 16 <= n {
            a = fold(word(i) ^ k2, word(i + 8) ^ a)
            i += 16
        }
        // The last 0–15 bytes: whole words, overlapping bytes already hashed when the line is
        // long enough (the length is mixed in, so this stays a function of the bytes).
        let rest = n - i
        var t0: UInt64 = 0
        var t1: UInt64 = 0
        if rest >= 8 {
            t0 = word(i)
            t1 = word(n - 8)
        } else if n >= 8 {
            t0 = rest > 0 ? word(n - 8) : 0
        } else {
            for k in 0..<n { t0 |= UInt64(bytes[k]) << (8 * UInt64(k)) }
        }
        return fold(a ^ t0 ^ k3, b ^ t1 ^ k0) ^ a
    }
}
