import Testing
import WidgetQuotaLogs
import WidgetQuotaSupport

/// The duplicate filter compares bytes, so hashes only find candidates: checked against a plain
/// list of the last lines, with hashes made to collide.
@Suite("Duplicate filter")
struct DuplicateFilterTests {
    /// What the filter must answer, whether it keeps copies or reads its input again: the last
    /// `capacity` distinct lines whose bytes add up to at most `arenaBytes`.
    struct Model {
        let capacity: Int
        let arenaBytes: Int
        var lines: [[UInt8]] = []

        mutating func isRepeat(_ line: [UInt8]) -> Bool {
            if lines.contains(line) { return true }
            guard line.count <= arenaBytes else { return false }
            while !lines.isEmpty, lines.count == capacity || lines.reduce(0, { $0 + $1.count }) + line.count > arenaBytes {
                lines.removeFirst()
            }
            lines.append(line)
            return false
        }
    }

    static func check(_ filter: inout DuplicateFilter, _ model: inout Model, _ line: [UInt8]) -> Bool {
        let answer = line.withUnsafeBufferPointer { filter.isRepeat($0, at: 0) }
        return answer == model.isRepeat(line)
    }

    /// An input that grows as lines are checked, read again by a filter in `rereads` mode.
    final class Input: @unchecked Sendable {
        var bytes: [UInt8] = []
        var reads = 0
        /// Appends `line` and its line break; returns the line's offset.
        func append(_ line: [UInt8]) -> Int {
            defer { bytes += line + [0x0A] }
            return bytes.count
        }
        var recall: DuplicateFilter.Recall {
            .rereads { offset, buffer in
                self.reads += 1
                let n = min(buffer.count, self.bytes.count - offset)
                buffer.copyBytes(from: self.bytes[offset..<(offset + n)])
                return n
            }
        }
    }

    @Test("lines whose hashes collide are told apart by their bytes")
    func collidingHashes() {
        var filter = DuplicateFilter(capacity: 8, arenaBytes: 1 << 10, hash: { _ in 42 })
        let a = Array("2026-09-01T07:12:03.120-04:00,a".utf8)
        let b = Array("2026-09-01T07:12:03.120-04:00,b".utf8)
        #expect(!a.withUnsafeBufferPointer { filter.isRepeat($0, at: 0) })
        #expect(!b.withUnsafeBufferPointer { filter.isRepeat($0, at: 0) }, "same hash, other bytes: not a repeat")
        #expect(a.withUnsafeBufferPointer { filter.isRepeat($0, at: 0) })
        #expect(b.withUnsafeBufferPointer { filter.isRepeat($0, at: 0) })
    }

    @Test(
        "agrees with a list of the last lines under collisions, eviction and wrap-around, kept or read again",
        arguments: [(4, 64), (16, 200), (64, 1 << 10)], [false, true])
    func matchesModel(window: (capacity: Int, arenaBytes: Int), rereads: Bool) {
        let (capacity, arenaBytes) = window
        var rng = SplitMix(seed: UInt64(capacity * 31 + arenaBytes))
        let input = Input()
        // Two bits of hash: most lines share a hash with several others.
        var filter = DuplicateFilter(
            capacity: capacity, arenaBytes: arenaBytes, recall: rereads ? input.recall : .copies,
            hash: { LineHash.hash($0) & 3 })
        var model = Model(capacity: capacity, arenaBytes: arenaBytes)
        for step in 0..<20_000 {
            // Few distinct short lines (so repeats are common), some longer than the arena.
            let length = rng.next() % 50 == 0 ? arenaBytes + Int(rng.next() % 8) : Int(rng.next() % 24)
            let symbol = UInt8(truncatingIfNeeded: rng.next() % 3)
            let line =
                (0..<length).map { UInt8(truncatingIfNeeded: $0 % 2 == 0 ? Int(symbol) : $0 % 7) }
                + [UInt8(truncatingIfNeeded: rng.next() % (capacity + 3))]
            let offset = input.append(line)
            let answer = line.withUnsafeBufferPointer { filter.isRepeat($0, at: offset) }
            #expect(answer == model.isRepeat(line), "step \(step)")
        }
        if rereads { #expect(input.reads > 0) }
    }

    @Test("a run of repeats is confirmed from blocks read again, not one read per line")
    func pastedExportReadsBlocks() {
        let input = Input()
        var filter = DuplicateFilter(recall: input.recall)
        let lines = (0..<5_000).map { Array("2026-09-01T07:12:03.120-04:00 line \($0) of an export".utf8) }
        for line in lines + lines {
            let offset = input.append(line)
            _ = line.withUnsafeBufferPointer { filter.isRepeat($0, at: offset) }
        }
        let size = lines.reduce(0) { $0 + $1.count + 1 }
        // 5,000 repeats; the originals fill this many blocks.
        #expect(input.reads <= size / DuplicateFilter.rereadBlock + 1, "\(input.reads) reads")
        let repeats = lines.map { line in line.withUnsafeBufferPointer { filter.isRepeat($0, at: 0) } }
        #expect(repeats.allSatisfy { $0 })
    }

    @Test("a remembered line that cannot be read again is not a repeat")
    func unreadableInputIsNoRepeat() {
        var filter = DuplicateFilter(capacity: 8, recall: .rereads { _, _ in 0 })
        let a = Array("2026-09-01T07:12:03.120-04:00,a".utf8)
        #expect(!a.withUnsafeBufferPointer { filter.isRepeat($0, at: 0) })
        #expect(!a.withUnsafeBufferPointer { filter.isRepeat($0, at: 32) }, "the input changed under the reader: counted, not dropped")
    }

    @Test("growing the arena keeps the remembered bytes")
    func growthKeepsBytes() {
        // Lines of 300 KB: the arena starts at 1 MiB and must grow to 4 MiB to hold 13 of them.
        var filter = DuplicateFilter(capacity: 64, arenaBytes: 4 << 20)
        var model = Model(capacity: 64, arenaBytes: 4 << 20)
        let lines = (0..<20).map { i in (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* (i + 3) >> 5) } }
        for line in lines { #expect(Self.check(&filter, &model, line)) }
        for line in lines.reversed() { #expect(Self.check(&filter, &model, line)) }
    }

    @Test("RecentLineIndex offers every inserted index for its hash, in any clustering, until emptied")
    func indexFindsInserted() {
        var index = RecentLineIndex(slotsLog2: 8)
        var inserted: [(hash: UInt64, index: Int)] = []
        for i in 0..<index.limit {
            // Hashes that share slots and tags, so probe runs wrap around the table.
            let hash = UInt64(i % 7) << 61 | UInt64(250 + i % 9)
            index.insert(hash: hash, index: i)
            inserted.append((hash, i))
        }
        for (hash, i) in inserted {
            #expect(index.contains(hash: hash) { $0 == i }, "index \(i)")
            #expect(!index.contains(hash: hash ^ 1 << 62) { $0 == i }, "index \(i) under another tag")
        }
        index.removeAll()
        #expect(index.occupied == 0)
        #expect(!inserted.contains { entry in index.contains(hash: entry.hash) { _ in true } })
    }

    @Test("LineHash depends on every byte and the length")
    func hashCoversEveryByte() {
        for length in 0..<80 {
            let base = [UInt8](repeating: 0x61, count: length)
            let h = base.withUnsafeBytes { LineHash.hash($0) }
            #expect((base + [0]).withUnsafeBytes { LineHash.hash($0) } != h)
            for i in 0..<length {
                var changed = base
                changed[i] ^= 1
                #expect(changed.withUnsafeBytes { LineHash.hash($0) } != h, "length \(length), byte \(i)")
            }
        }
    }

    /// A small deterministic generator, so a failure replays.
    struct SplitMix {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            return Int(truncatingIfNeeded: RandomStream.mix(state) >> 1)
        }
    }
}
