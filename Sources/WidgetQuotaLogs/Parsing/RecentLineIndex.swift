/// Finds remembered lines by hash for `DuplicateFilter`: an open-addressing table (linear
/// probing) of 32-bit slots, each a line's ring index + 1 under 15 bits of its hash, behind a
/// small Bloom filter.
///
/// The table is larger than the cache, so each visit to it is a cache miss, and nearly every
/// line is new. The filter (a quarter of the table's size, two bits per line in one word) says
/// "not there" for nearly all of them without touching the table; new lines wait in a short list
/// and enter the table a batch at a time, whose misses overlap.
///
/// Lines are never deleted one by one: a forgotten line's slot was last touched tens of
/// thousands of lines ago. It stays, stale, until `limit` lines are in and the caller rebuilds
/// the index from the remembered lines alone. Candidates are therefore only candidates: the
/// caller checks that the index is still remembered and that the line is the same.
package struct RecentLineIndex {
    private var slots: [UInt32]
    private let mask: Int
    private var bloom: [UInt64]
    private let bloomMask: Int
    /// Lines added since the last batch went into `slots`: the first `pendingCount` of these.
    private var pendingHashes: [UInt64]
    private var pendingIndices: [Int]
    private var pendingCount = 0
    private static let batch = 32
    /// Lines in, remembered or stale (pending ones included).
    package private(set) var occupied = 0
    /// At most this many lines are in (3/8 of the table's slots): then the caller rebuilds.
    package let limit: Int

    private static let indexBits: UInt32 = 0x1FFFF  // index + 1: up to 2^17 - 1

    package init(slotsLog2: Int) {
        slots = [UInt32](repeating: 0, count: 1 << slotsLog2)
        mask = (1 << slotsLog2) - 1
        bloom = [UInt64](repeating: 0, count: max(1, (1 << slotsLog2) >> 3))
        bloomMask = bloom.count - 1
        limit = (3 << slotsLog2) >> 3
        pendingHashes = [UInt64](repeating: 0, count: RecentLineIndex.batch)
        pendingIndices = [Int](repeating: 0, count: RecentLineIndex.batch)
    }

    /// The top 15 bits of `hash` (the slot comes from its low bits), above the index bits.
    @inline(__always)
    private static func tag(_ hash: UInt64) -> UInt32 { UInt32(truncatingIfNeeded: hash >> 32) & ~indexBits }

    /// The filter's word for `hash` and its two bits (from bits the slot and tag do not use).
    @inline(__always)
    private func bloomBits(_ hash: UInt64) -> (word: Int, bits: UInt64) {
        (Int(truncatingIfNeeded: hash >> 20) & bloomMask, 1 &<< (hash >> 36 & 63) | 1 &<< (hash >> 42 & 63))
    }

    /// True when `isLine` holds for the index of a line whose hash bits match `hash`'s; stops at
    /// the first yes.
    @inline(__always)
    package func contains(hash: UInt64, where isLine: (Int) -> Bool) -> Bool {
        let (word, bits) = bloomBits(hash)
        if bloom[word] & bits != bits { return false }
        let tag = RecentLineIndex.tag(hash)
        for k in 0..<pendingCount where RecentLineIndex.tag(pendingHashes[k]) == tag && isLine(pendingIndices[k]) { return true }
        let mask = self.mask
        return slots.withUnsafeBufferPointer { s in
            var i = Int(truncatingIfNeeded: hash) & mask
            while true {
                let x = s[i]
                if x == 0 { return false }
                if x & ~RecentLineIndex.indexBits == tag, isLine(Int(x & RecentLineIndex.indexBits) - 1) { return true }
                i = (i + 1) & mask
            }
        }
    }

    /// Adds line `index` (below 2^17 - 1) with `hash`. The caller keeps `occupied` below `limit`.
    package mutating func insert(hash: UInt64, index: Int) {
        precondition(occupied < limit && index < Int(RecentLineIndex.indexBits), "RecentLineIndex is full")
        let (word, bits) = bloomBits(hash)
        bloom[word] |= bits
        pendingHashes[pendingCount] = hash
        pendingIndices[pendingCount] = index
        pendingCount += 1
        occupied += 1
        if pendingCount == RecentLineIndex.batch { flush() }
    }

    /// Moves the pending lines into the table: their probes do not depend on each other, so
    /// their cache misses overlap.
    private mutating func flush() {
        let mask = self.mask
        let count = pendingCount
        pendingHashes.withUnsafeBufferPointer { hashes in
            pendingIndices.withUnsafeBufferPointer { indices in
                slots.withUnsafeMutableBufferPointer { s in
                    for k in 0..<count {
                        var i = Int(truncatingIfNeeded: hashes[k]) & mask
                        while s[i] != 0 { i = (i + 1) & mask }
                        s[i] = RecentLineIndex.tag(hashes[k]) | UInt32(indices[k] + 1)
                    }
                }
            }
        }
        pendingCount = 0
    }

    /// Empties the index (before adding the remembered lines again).
    package mutating func removeAll() {
        slots.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
        bloom.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
        pendingCount = 0
        occupied = 0
    }
}
