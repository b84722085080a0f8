import Foundation
import WidgetQuotaSupport

#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Something bytes can be read from in chunks: a file, standard input, or memory (tests).
package protocol ByteSource {
    /// Reads up to `buffer.count` bytes into `buffer`; returns 0 at the end.
    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
}

/// A source whose earlier bytes can be read again by their offset, so the duplicate-line check
/// can confirm a candidate against the input itself instead of keeping a copy of every line.
package protocol RereadableByteSource: ByteSource {
    /// Whether `reread` works for this source (a regular file; not a pipe or a terminal).
    var canReread: Bool { get }
    /// The offset, as `reread` counts, of the next byte `read` returns (a source may be handed
    /// over partly read: standard input that is a file the shell has begun).
    var position: Int { get }
    /// Reads the bytes at `offset` into `buffer`, up to its size or the end of the input;
    /// returns how many it read (fewer on an error).
    func reread(at offset: Int, into buffer: UnsafeMutableRawBufferPointer) -> Int
}

/// Another source's bytes, read once only, as from a pipe: hides that they could be read again
/// (fuzzing and tests use it to take the duplicate check's other path).
package struct ForwardOnlyByteSource<Inner: ByteSource>: ByteSource {
    var inner: Inner

    package init(inner: Inner) { self.inner = inner }

    package mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int { try inner.read(into: buffer) }
}

/// Bytes held in memory.
package struct MemoryByteSource: ByteSource {
    private let bytes: [UInt8]
    private var offset = 0
    /// Reads at most this many bytes per call, to exercise chunk boundaries in tests.
    private let maxRead: Int

    package init(_ bytes: [UInt8], maxRead: Int = .max) {
        self.bytes = bytes
        self.maxRead = max(1, maxRead)
    }

    package init(_ text: String, maxRead: Int = .max) { self.init(Array(text.utf8), maxRead: maxRead) }

    package mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let n = min(buffer.count, bytes.count - offset, maxRead)
        guard n > 0 else { return 0 }
        bytes.withUnsafeBytes { source in
            buffer.baseAddress!.copyMemory(from: source.baseAddress! + offset, byteCount: n)
        }
        offset += n
        return n
    }
}

extension MemoryByteSource: RereadableByteSource {
    package var canReread: Bool { true }
    package var position: Int { offset }

    package func reread(at offset: Int, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        guard offset >= 0, offset < bytes.count, !buffer.isEmpty else { return 0 }
        let n = min(buffer.count, bytes.count - offset)
        bytes.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + offset, byteCount: n) }
        return n
    }
}

/// An open file descriptor read with POSIX `read(2)`; closes it when told to.
package struct FileDescriptorSource: RereadableByteSource {
    package let descriptor: Int32
    /// The name used in messages (`-` reads standard input and is called `stdin`).
    package let name: String

    /// Opens `path` for reading, or standard input for `-`.
    package init(path: String) throws {
        if path == "-" {
            descriptor = STDIN_FILENO
            name = "stdin"
            return
        }
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else {
            let problem = errno == ENOENT ? "no such file" : String(cString: strerror(errno))
            throw WidgetQuotaError.unreadable(file: path, problem: problem)
        }
        descriptor = fd
        name = path
    }

    /// Reads an open descriptor from where it stands.
    package init(descriptor: Int32, name: String) {
        self.descriptor = descriptor
        self.name = name
    }

    package mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        while true {
            #if canImport(Glibc)
                let n = Glibc.read(descriptor, buffer.baseAddress, buffer.count)
            #else
                let n = Darwin.read(descriptor, buffer.baseAddress, buffer.count)
            #endif
            if n >= 0 { return n }
            if errno == EINTR { continue }
            throw WidgetQuotaError.unreadable(file: name, problem: String(cString: strerror(errno)))
        }
    }

    /// True for a regular file (standard input redirected from a file included).
    package var canReread: Bool {
        var status = stat()
        return fstat(descriptor, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
    }

    /// The file offset (0 or more; never reread where it is unknown, as for a pipe).
    package var position: Int { max(Int(lseek(descriptor, 0, SEEK_CUR)), 0) }

    package func reread(at offset: Int, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        var done = 0
        while done < buffer.count {
            let n = pread(descriptor, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done))
            if n > 0 {
                done += n
                continue
            }
            if n < 0 && errno == EINTR { continue }
            break  // the end of the file, or an error
        }
        return done
    }

    /// Closes the file (never standard input).
    package func close() {
        if descriptor != STDIN_FILENO {
            #if canImport(Glibc)
                _ = Glibc.close(descriptor)
            #else
                _ = Darwin.close(descriptor)
            #endif
        }
    }
}
