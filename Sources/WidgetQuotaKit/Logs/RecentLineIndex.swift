/// Finds remembered lines by hash for `DuplicateFilter`: an open-addressing table (linear
/// probing) of 32-bit slots, each a line's ring index + 1 under 15 bits of its hash.
///
/// Lines are never deleted one by one: a forgotten line's slot was last touched tens of
/// thousands of lines ago, so deleting it would cost a cache miss per line. Its slot stays,
/// stale, until the table holds `limit` slots and is rebuilt from the remembered lines alone.
/// Candidates are therefore only candidates: the caller checks that the index is still
/// remembered and that the line is the same.
struct RecentLineIndex {
    private var slots: [UInt32]
    private let mask: Int
    /// Slots in use, remembered or stale.
    private(set) var occupied = 0
    /// At most this many slots are used (3/8 of the table): then the caller rebuilds.
    let limit: Int

    private static let indexBits: UInt32 = 0x1FFFF   // index + 1: up to 2^17 - 1

    init(slotsLog2: Int) {
        slots = [UInt32](repeating: 0, count: 1 << slotsLog2)
        mask = (1 << slotsLog2) - 1
        limit = (3 << slotsLog2) >> 3
    }

    /// The top 15 bits of `hash` (the slot comes from its low bits), above the index bits.
    @inline(__always)
    private static func tag(_ hash: UInt64) -> UInt32 { UInt32(truncatingIfNeeded: hash >> 32) & ~indexBits }

    /// True when `isLine` holds for the index of a slot whose hash bits match `hash`'s; asks
    /// in table order and stops at the first yes.
    @inline(__always)
    func contains(hash: UInt64, where isLine: (Int) -> Bool) -> Bool {
        let tag = RecentLineIndex.tag(hash)
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
    mutating func insert(hash: UInt64, index: Int) {
        precondition(occupied < limit && index < Int(RecentLineIndex.indexBits), "RecentLineIndex is full")
        let value = RecentLineIndex.tag(hash) | UInt32(index + 1)
        let mask = self.mask
        slots.withUnsafeMutableBufferPointer { s in
            var i = Int(truncatingIfNeeded: hash) & mask
            while s[i] != 0 { i = (i + 1) & mask }
            s[i] = value
        }
        occupied += 1
    }

    /// Empties the table (before adding the remembered lines again).
    mutating func removeAll() {
        slots.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
        occupied = 0
    }
}
