#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Remembers the last lines that carried a timestamp, so an exact repeat — two exports
/// concatenated, a line copied twice — is counted once instead of silently doubling a figure.
///
/// A line repeats when its bytes equal a remembered line's: hashes only find the candidates,
/// and every candidate is compared byte for byte, so two different lines are never taken for
/// one. Memory is bounded: the most recent `capacity` distinct lines are remembered, as long as
/// their bytes add up to at most `arenaBytes` (older lines are forgotten first). With the
/// defaults that is 65,536 lines of up to 1 KiB on average. Where a candidate's bytes come from
/// is the `Recall`, which changes the cost, never the answer:
/// - `rereads` (a regular file): the input is read again at the remembered line's offset, a block
///   at a time, so a run of repeats (an export pasted twice) costs one read per block. Nothing is
///   copied: a new line costs its hash and an index entry.
/// - `copies` (a pipe): every line is copied into an arena.
package struct DuplicateFilter {
    static let defaultCapacity = 1 << 16
    static let defaultArenaBytes = 64 << 20

    /// One remembered line: where its bytes are in the arena (a position that only grows) and
    /// its hash.
    private struct Entry {
        var start = 0
        var count = 0
        var hash: UInt64 = 0
    }

    /// Where a remembered line's bytes are found again.
    package enum Recall {
        /// Copies in an arena.
        case copies
        /// The input, read again at the line's offset: fills the buffer from the offset, up to
        /// its size or the end of the input, and returns how many bytes it read
        /// (`RereadableByteSource.reread`).
        case rereads((_ offset: Int, _ buffer: UnsafeMutableRawBufferPointer) -> Int)
    }

    /// Bytes read again at once (`rereads`): a candidate's line and those after it.
    package static let rereadBlock = 256 << 10

    private let capacity: Int
    private let arenaBytes: Int
    /// Set for `rereads`: reads the input at an offset.
    private let reread: ((Int, UnsafeMutableRawBufferPointer) -> Int)?
    /// The last block read again (`rereads`): `blockCount` bytes of the input from `blockStart`.
    private var block: [UInt8] = []
    private var blockStart = 0
    private var blockCount = 0
    /// Bytes of the remembered lines (`rereads`; the arena's ring tracks them for `copies`).
    private var rememberedBytes = 0
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

    /// `capacity` (a power of two, at most 2^16) lines, recalled by `recall` (copies within
    /// `arenaBytes` of bytes); `hash` is replaceable so tests can force collisions.
    package init(
        capacity: Int = DuplicateFilter.defaultCapacity, arenaBytes: Int = DuplicateFilter.defaultArenaBytes,
        recall: Recall = .copies, hash: @escaping (UnsafeRawBufferPointer) -> UInt64 = LineHash.hash
    ) {
        precondition(capacity > 0 && capacity <= 1 << 16 && capacity & (capacity - 1) == 0, "capacity must be a power of two ≤ 2^16")
        self.capacity = capacity
        self.arenaBytes = arenaBytes
        self.hash = hash
        if case .rereads(let read) = recall { reread = read } else { reread = nil }
        entries = [Entry](repeating: Entry(), count: capacity)
        // Rereading keeps no bytes: the arena stays at its smallest size, unused.
        arena = LineArena(limit: reread == nil ? arenaBytes : 1)
        // Four slots per line: rebuilt when 3/8 are used, that is after at least half a ring of
        // new lines.
        index = RecentLineIndex(slotsLog2: capacity.trailingZeroBitCount + 2)
    }

    /// True when `bytes`, found at `offset` of the input, repeat a remembered line; otherwise
    /// remembers them. (`offset` serves `rereads` only.)
    package mutating func isRepeat(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> Bool {
        let raw = UnsafeRawBufferPointer(bytes)
        let h = hash(raw)
        var candidates: [Int] = []
        let found = index.contains(hash: h) { i in
            guard isRemembered(i) && entries[i].hash == h && entries[i].count == raw.count else { return false }
            if reread == nil { return arena.holds(raw, at: entries[i].start) }
            candidates.append(i)  // read again below, outside the index's borrow of self
            return false
        }
        if found || candidates.contains(where: { reads(raw, at: entries[$0].start) }) { return true }
        remember(raw, at: offset, hash: h)
        return false
    }

    /// True when the input holds `raw` at `offset` (`rereads`).
    private mutating func reads(_ raw: UnsafeRawBufferPointer, at offset: Int) -> Bool {
        guard let reread else { return false }
        if offset < blockStart || offset + raw.count > blockStart + blockCount {
            // Read from the candidate on: the lines after it are likely the next candidates.
            let size = max(raw.count, DuplicateFilter.rereadBlock)
            if block.count < size { block = [UInt8](repeating: 0, count: size) }
            blockStart = offset
            blockCount = block.withUnsafeMutableBytes { reread(offset, UnsafeMutableRawBufferPointer(rebasing: $0[0..<size])) }
            guard raw.count <= blockCount else {
                blockCount = 0
                return false
            }  // the input changed under us
        }
        if raw.isEmpty { return true }
        return block.withUnsafeBytes { memcmp($0.baseAddress! + (offset - blockStart), raw.baseAddress!, raw.count) == 0 }
    }

    /// True when entry `i` holds a line still remembered.
    @inline(__always)
    private func isRemembered(_ i: Int) -> Bool { (i - oldest) & (capacity - 1) < remembered }

    private mutating func remember(_ raw: UnsafeRawBufferPointer, at offset: Int, hash h: UInt64) {
        let n = raw.count
        guard n <= arenaBytes else { return }  // cannot be kept: such a line is never a repeat
        guard reread == nil else {
            // Nothing to copy; the same window as the arena's: forget the oldest lines while the
            // ring is full or the bytes would not fit.
            while remembered > 0, remembered == capacity || rememberedBytes + n > arenaBytes {
                rememberedBytes -= entries[oldest].count
                oldest = (oldest + 1) & (capacity - 1)
                remembered -= 1
            }
            add(Entry(start: offset, count: n, hash: h))
            rememberedBytes += n
            return
        }
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
        add(Entry(start: written, count: n, hash: h))
        arena.write(raw, at: written)
        written += n
    }

    /// Appends `entry` to the ring (which has room) and the index.
    private mutating func add(_ entry: Entry) {
        if index.occupied == index.limit { rebuildIndex() }
        let i = (oldest + remembered) & (capacity - 1)
        entries[i] = entry
        remembered += 1
        index.insert(hash: entry.hash, index: i)
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
