/// Byte tests on eight bytes at once (SIMD within a register), for scanners whose targets are a
/// few bytes apart, where a `memchr` call costs more than it saves.
///
/// Each function returns a word with the high bit of every matching byte set. Only the lowest set
/// bit is exact (a borrow can mark a byte above a match), so callers take `trailingZeroBitCount / 8`
/// as the index of the first match and look again from past it.
enum SWAR {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highs: UInt64 = 0x8080_8080_8080_8080

    /// The high bit of each zero byte of `x` (lowest exact).
    @inline(__always)
    static func zeroBytes(_ x: UInt64) -> UInt64 { (x &- ones) & ~x & highs }

    /// Bytes equal to `byte`.
    @inline(__always)
    static func bytes(_ x: UInt64, equalTo byte: UInt8) -> UInt64 { zeroBytes(x ^ (ones &* UInt64(byte))) }

    /// Bytes that are `"` or `\`.
    @inline(__always)
    static func quoteOrBackslash(_ x: UInt64) -> UInt64 { bytes(x, equalTo: 0x22) | bytes(x, equalTo: 0x5C) }
}
