#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The bytes of the lines `DuplicateFilter` remembers: a ring addressed by positions that only
/// grow (a position's byte is at `position % size`). It starts at 1 MiB and doubles, up to
/// `limit`, when the caller asks, so memory follows what is remembered rather than what was read.
struct LineArena {
    private var storage: [UInt8]
    /// The most the ring may grow to.
    let limit: Int

    init(limit: Int) {
        self.limit = limit
        storage = LineArena.uninitialized(min(1 << 20, limit))
    }

    /// The ring's current size: bytes older than this many are overwritten.
    var size: Int { storage.count }

    /// True when `raw` equals the `raw.count` bytes at `position` (written and not overwritten).
    func holds(_ raw: UnsafeRawBufferPointer, at position: Int) -> Bool {
        if raw.isEmpty { return true }
        let at = position % size
        let first = min(raw.count, size - at)
        return storage.withUnsafeBytes { a in
            memcmp(a.baseAddress! + at, raw.baseAddress!, first) == 0
                && (first == raw.count || memcmp(a.baseAddress!, raw.baseAddress! + first, raw.count - first) == 0)
        }
    }

    /// Writes `raw` at `position`, wrapping at the ring's end.
    mutating func write(_ raw: UnsafeRawBufferPointer, at position: Int) {
        var from = 0
        while from < raw.count {
            let p = (position + from) % size
            let part = min(raw.count - from, size - p)
            storage.withUnsafeMutableBytes { a in (a.baseAddress! + p).copyMemory(from: raw.baseAddress! + from, byteCount: part) }
            from += part
        }
    }

    /// Doubles the ring (up to `limit`), moving the bytes at positions `live` to their new places.
    mutating func grow(keeping live: Range<Int>) {
        let old = self
        storage = LineArena.uninitialized(min(old.size * 2, limit))
        old.storage.withUnsafeBytes { o in
            var v = live.lowerBound
            while v < live.upperBound {
                let at = v % old.size
                let part = min(live.upperBound - v, old.size - at)
                write(UnsafeRawBufferPointer(rebasing: o[at..<(at + part)]), at: v)
                v += part
            }
        }
    }

    /// `count` bytes, not zeroed: only bytes written since are ever read.
    private static func uninitialized(_ count: Int) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count) { _, initialized in initialized = count }
    }
}
