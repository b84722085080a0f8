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
        // Eight bytes per step, then the tail; SplitMix's finaliser spreads the bits.
        var h: UInt64 = 0xCBF2_9CE4_8422_2325 ^ UInt64(bytes.count)
        let raw = UnsafeRawBufferPointer(bytes)
        var i = 0
        while i + 8 <= raw.count {
            h = RandomStream.mix(h ^ raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            i += 8
        }
        var tail: UInt64 = 0
        while i < raw.count { tail = tail << 8 | UInt64(raw[i]); i += 1 }
        h = RandomStream.mix(h ^ tail)
        if seen.contains(h) { return true }
        if filled { seen.remove(ring[next]) }
        ring[next] = h
        seen.insert(h)
        next += 1
        if next == DuplicateFilter.capacity { next = 0; filled = true }
        return false
    }
}
