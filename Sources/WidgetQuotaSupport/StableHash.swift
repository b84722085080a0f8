/// A hash that is the same on every platform and every run (unlike `Hasher`), for seeds and
/// fingerprints that must not change between runs.
package enum StableHash {
    /// FNV-1a (64-bit) over the UTF-8 of `text`.
    package static func fnv1a(_ text: String) -> UInt64 {
        fnv1a(text.utf8)
    }

    /// The FNV-1a offset basis: the hash of no bytes, where a hash of pieces starts.
    package static let fnv1aStart: UInt64 = 0xCBF2_9CE4_8422_2325

    /// FNV-1a (64-bit) over `bytes`, continuing from `hash` (a file hashed chunk by chunk).
    package static func fnv1a<Bytes: Sequence>(_ bytes: Bytes, continuing hash: UInt64 = fnv1aStart) -> UInt64
    where Bytes.Element == UInt8 {
        var h = hash
        for byte in bytes {
            h ^= UInt64(byte)
            h = h &* 0x100_0000_01B3
        }
        return h
    }
}
