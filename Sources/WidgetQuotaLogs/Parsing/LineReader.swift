import Foundation

#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One line handed out by `LineReader`: its bytes (without the line break, CR stripped),
/// valid only during the callback.
package struct LineView {
    /// The line's bytes, without `\n` or `\r\n`.
    package let bytes: UnsafeBufferPointer<UInt8>
    /// 1-based line number in the input.
    package let number: Int
    /// Where `bytes` start in the input, in bytes from its beginning.
    package let offset: Int
    /// True when the line was longer than the reader's buffer: `bytes` is empty and the
    /// line must be counted as malformed.
    package let isOverlong: Bool
    /// True for a last line that ends without a line break (an export that was cut off).
    package let isUnterminated: Bool
}

/// Reads lines from a `ByteSource` in fixed-size chunks, in constant memory.
///
/// The reader owns one buffer of `bufferSize` bytes for its whole life. A line that does not
/// fit into the buffer is reported as overlong (empty bytes) and skipped up to the next line
/// break, so memory never grows with the input, however long a line or a file is.
package struct LineReader {
    /// 1 MiB: the chunk size and the longest line accepted.
    package static let defaultBufferSize = 1 << 20

    package let bufferSize: Int

    package init(bufferSize: Int = LineReader.defaultBufferSize) {
        self.bufferSize = max(16, bufferSize)
    }

    /// Calls `body` with every line of `source`, in order. Returns the number of bytes read.
    @discardableResult
    package func forEachLine<Source: ByteSource>(in source: inout Source, _ body: (LineView) throws -> Void) throws -> Int {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bufferSize, alignment: 16)
        defer { buffer.deallocate() }
        let base = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
        var filled = 0  // bytes in the buffer
        var lineNumber = 0
        var skipping = false  // inside an overlong line: drop bytes up to the next newline
        var total = 0
        var bufferOffset = 0  // where the buffer's first byte is in the input

        func emit(_ start: Int, _ end: Int, unterminated: Bool) throws {
            var e = end
            if e > start && base[e - 1] == 0x0D { e -= 1 }
            lineNumber += 1
            try body(
                LineView(
                    bytes: UnsafeBufferPointer(start: base + start, count: e - start), number: lineNumber,
                    offset: bufferOffset + start, isOverlong: false, isUnterminated: unterminated))
        }

        while true {
            let n = try source.read(into: UnsafeMutableRawBufferPointer(start: base + filled, count: bufferSize - filled))
            total += n
            if n == 0 { break }
            var start = 0
            var scan = filled
            filled += n
            while scan < filled {
                guard let hit = memchr(base + scan, 0x0A, filled - scan) else { break }
                let newline = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                if skipping {
                    skipping = false
                } else {
                    try emit(start, newline, unterminated: false)
                }
                start = newline + 1
                scan = start
            }
            if start > 0 {
                // Move the partial line to the front.
                let rest = filled - start
                if rest > 0 { memmove(base, base + start, rest) }
                filled = rest
                bufferOffset += start
            } else if filled == bufferSize {
                // No line break in a whole buffer: the line is too long.
                if !skipping {
                    lineNumber += 1
                    try body(
                        LineView(
                            bytes: UnsafeBufferPointer(start: base, count: 0), number: lineNumber,
                            offset: bufferOffset, isOverlong: true, isUnterminated: false))
                    skipping = true
                }
                bufferOffset += filled
                filled = 0
            }
            if skipping && filled > 0 && start == 0 {
                bufferOffset += filled
                filled = 0
            }
        }
        if filled > 0 && !skipping {
            try emit(0, filled, unterminated: true)
        }
        return total
    }
}
