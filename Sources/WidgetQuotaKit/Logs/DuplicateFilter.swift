/// Remembers the last lines that carried a timestamp, so an exact repeat — two exports
/// concatenated, a line copied twice — is counted once instead of silently doubling a figure.
/// Memory is bounded: only the most recent `capacity` line hashes are kept.
struct DuplicateFilter {
    static let capacity = 1 << 16
    private var ring = [UInt64](repeating: 0, count: DuplicateFilter.capacity)
    private var seen = Set<UInt64>(minimumCapacity: DuplicateFilter.capacity)
    private var next = 0
    private var filled = false

    /// True when `bytes` repeats a recent line; otherwise remembers it.
    mutating func isRepeat(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes { h = (h ^ UInt64(byte)) &* 0x100_0000_01B3 }
        if seen.contains(h) { return true }
        if filled { seen.remove(ring[next]) }
        ring[next] = h
        seen.insert(h)
        next += 1
        if next == DuplicateFilter.capacity { next = 0; filled = true }
        return false
    }
}
