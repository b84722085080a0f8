/// Remembers the last lines that carried a timestamp, so an exact repeat — two exports
/// concatenated, a line copied twice — is counted once instead of silently doubling a figure.
///
/// A line repeats when its bytes equal a remembered line's: hashes only find the candidates,
/// and every candidate is compared byte for byte, so two different lines are never taken for
/// one. Memory is bounded: the most recent `capacity` distinct lines are remembered, as long
/// as their bytes fit in `arenaBytes` (older lines are forgotten first). With the defaults that
/// is 65,536 lines of up to 1 KiB on average.
struct DuplicateFilter {
    static let defaultCapacity = 1 << 16
    static let defaultArenaBytes = 64 << 20

    /// One remembered line: where its bytes are in the arena (a position that only grows) and
    /// its hash.
    private struct Entry {
        var start = 0
        var count = 0
        var hash: UInt64 = 0
    }

    private let capacity: Int
    private let arenaBytes: Int
    private let hash: (UnsafeRawBufferPointer) -> UInt64
    /// Remembered lines in arrival order: a ring of `capacity` entries from `oldest`.
    private var entries: [Entry]
    private var oldest = 0
    private var remembered = 0
    /// The lines' bytes, grown (up to `arenaBytes`) only while the remembered lines need room.
    private var arena: LineArena
    /// Bytes ever written to the arena: the position of the next line.
    private var written = 0
    /// Entry indices by hash, including some of lines already forgotten.
    private var index: RecentLineIndex

    /// `capacity` (a power of two, at most 2^16) lines within `arenaBytes` of bytes; `hash` is
    /// replaceable so tests can force collisions.
    init(capacity: Int = DuplicateFilter.defaultCapacity, arenaBytes: Int = DuplicateFilter.defaultArenaBytes,
         hash: @escaping (UnsafeRawBufferPointer) -> UInt64 = LineHash.hash) {
        precondition(capacity > 0 && capacity <= 1 << 16 && capacity & (capacity - 1) == 0, "capacity must be a power of two ≤ 2^16")
        self.capacity = capacity
        self.arenaBytes = arenaBytes
        self.hash = hash
        entries = [Entry](repeating: Entry(), count: capacity)
        arena = LineArena(limit: arenaBytes)
        // Four slots per line: rebuilt when 3/8 are used, that is after at least half a ring of
        // new lines.
        index = RecentLineIndex(slotsLog2: capacity.trailingZeroBitCount + 2)
    }

    /// True when `bytes` repeats a remembered line; otherwise remembers it.
    mutating func isRepeat(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let raw = UnsafeRawBufferPointer(bytes)
        let h = hash(raw)
        let found = index.contains(hash: h) { i in
            isRemembered(i) && entries[i].hash == h && entries[i].count == raw.count && arena.holds(raw, at: entries[i].start)
        }
        if found { return true }
        remember(raw, hash: h)
        return false
    }

    /// True when entry `i` holds a line still remembered.
    @inline(__always)
    private func isRemembered(_ i: Int) -> Bool { (i - oldest) & (capacity - 1) < remembered }

    private mutating func remember(_ raw: UnsafeRawBufferPointer, hash h: UInt64) {
        let n = raw.count
        guard n <= arenaBytes else { return }   // cannot be kept: such a line is never a repeat
        // Make room: a full ring of entries forgets its oldest line; bytes about to be overwritten
        // first grow the arena, then, at its limit, forget the oldest lines.
        while remembered > 0, remembered == capacity || entries[oldest].start < written + n - arena.size {
            if remembered < capacity && arena.size < arenaBytes {
                arena.grow(keeping: entries[oldest].start..<written)
                continue
            }
            oldest = (oldest + 1) & (capacity - 1)
            remembered -= 1
        }
        while n > arena.size { arena.grow(keeping: written..<written) }
        if index.occupied == index.limit { rebuildIndex() }
        let i = (oldest + remembered) & (capacity - 1)
        entries[i] = Entry(start: written, count: n, hash: h)
        remembered += 1
        index.insert(hash: h, index: i)
        arena.write(raw, at: written)
        written += n
    }

    /// Drops the forgotten lines' slots: the index again holds the remembered lines only.
    private mutating func rebuildIndex() {
        index.removeAll()
        for k in 0..<remembered {
            let i = (oldest + k) & (capacity - 1)
            index.insert(hash: entries[i].hash, index: i)
        }
    }
}
