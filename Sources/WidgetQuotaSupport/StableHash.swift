/// A hash that is the same on every platform and every run (unlike `Hasher`), for seeds and
/// fingerprints that must not change between runs.
package enum StableHash {
    /// FNV-1a (64-bit) over the UTF-8 of `text`.
    package static func fnv1a(_ text: String) -> UInt64 {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 {
            h ^= UInt64(byte)
            h = h &* 0x100_0000_01B3
        }
        return h
    }
}
