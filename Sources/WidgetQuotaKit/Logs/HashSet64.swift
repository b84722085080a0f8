/// A set of already well-mixed 64-bit hashes in a fixed table (open addressing, linear probing,
/// deletion by backward shift): no per-lookup hashing and no allocation, unlike `Set<UInt64>`.
/// Kept at most half full (`DuplicateFilter` keeps 2^16 in 2^17: 1 MiB, near the cache).
///
/// The slot of a value is its low bits, so a caller may keep other data in the high bits and
/// find every value sharing the low bits with `containsInRun(of:where:)`.
struct HashSet64 {
    private var slots: [UInt64]
    /// Zero marks an empty slot, so the value zero is kept aside.
    private var hasZero = false
    private let mask: Int
    private(set) var count = 0

    init(slotsLog2: Int) {
        slots = [UInt64](repeating: 0, count: 1 << slotsLog2)
        mask = (1 << slotsLog2) - 1
    }

    @inline(__always) private func home(_ v: UInt64) -> Int { Int(truncatingIfNeeded: v) & mask }

    func contains(_ v: UInt64) -> Bool {
        if v == 0 { return hasZero }
        return slots.withUnsafeBufferPointer { s in
            var i = home(v)
            while true {
                let x = s[i]
                if x == v { return true }
                if x == 0 { return false }
                i = (i + 1) & mask
            }
        }
    }

    /// True when `predicate` holds for a value in the probe run `v` would be found in (every
    /// value whose slot bits equal `v`'s is in that run, with others). Never sees zero.
    func containsInRun(of v: UInt64, where predicate: (UInt64) -> Bool) -> Bool {
        slots.withUnsafeBufferPointer { s in
            var i = home(v)
            while true {
                let x = s[i]
                if x == 0 { return false }
                if predicate(x) { return true }
                i = (i + 1) & mask
            }
        }
    }

    /// Adds `v` (no effect when present). The caller keeps the set well below full.
    mutating func insert(_ v: UInt64) {
        if v == 0 { if !hasZero { hasZero = true; count += 1 }; return }
        precondition(count < mask, "HashSet64 is full")
        let mask = self.mask
        let start = home(v)
        let added: Bool = slots.withUnsafeMutableBufferPointer { s in
            var i = start
            while true {
                if s[i] == v { return false }
                if s[i] == 0 { s[i] = v; return true }
                i = (i + 1) & mask
            }
        }
        if added { count += 1 }
    }

    /// Removes `v` when present.
    mutating func remove(_ v: UInt64) {
        if v == 0 { if hasZero { hasZero = false; count -= 1 }; return }
        let mask = self.mask
        let start = home(v)
        let removed: Bool = slots.withUnsafeMutableBufferPointer { s in
            var i = start
            while s[i] != v {
                if s[i] == 0 { return false }
                i = (i + 1) & mask
            }
            // Backward shift: move later entries of the run into the hole when their home
            // position does not lie cyclically in (hole, j].
            var hole = i
            var j = i
            while true {
                j = (j + 1) & mask
                let x = s[j]
                if x == 0 { break }
                let h = Int(truncatingIfNeeded: x) & mask
                let inRange = hole <= j ? (h > hole && h <= j) : (h > hole || h <= j)
                if !inRange {
                    s[hole] = x
                    hole = j
                }
            }
            s[hole] = 0
            return true
        }
        if removed { count -= 1 }
    }
}
