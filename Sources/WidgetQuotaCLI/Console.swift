import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a command writes: results to `out`, messages to `err`. Tests capture both.
public final class Console: @unchecked Sendable {
    private let writeOut: (String) -> Void
    private let writeErr: (String) -> Void
    private let lock = NSLock()
    /// True when stderr is a terminal (progress bars only then).
    public let stderrIsTerminal: Bool
    /// Environment variables (NO_COLOR and friends).
    public let environment: [String: String]

    public init(out: @escaping (String) -> Void, err: @escaping (String) -> Void,
                stderrIsTerminal: Bool = false, environment: [String: String] = [:]) {
        self.writeOut = out
        self.writeErr = err
        self.stderrIsTerminal = stderrIsTerminal
        self.environment = environment
    }

    /// The process's standard output and error.
    public static var standard: Console {
        Console(out: { FileHandleWriter.write($0, to: STDOUT_FILENO) },
                err: { FileHandleWriter.write($0, to: STDERR_FILENO) },
                stderrIsTerminal: isatty(STDERR_FILENO) == 1,
                environment: ProcessInfo.processInfo.environment)
    }

    public func out(_ text: String) { lock.lock(); writeOut(text); lock.unlock() }
    public func err(_ text: String) { lock.lock(); writeErr(text); lock.unlock() }

    /// True when colour and terminal decoration may be used (a terminal, and NO_COLOR unset).
    public var decorates: Bool { stderrIsTerminal && (environment["NO_COLOR"] ?? "").isEmpty }
}

/// Writes to a file descriptor, ignoring a closed pipe (EPIPE) so `| head` ends quietly.
enum FileHandleWriter {
    static func write(_ text: String, to fd: Int32) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { buffer in
                #if canImport(Glibc)
                Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                #else
                Darwin.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                #endif
            }
            if written < 0 {
                if errno == EINTR { continue }
                return   // EPIPE or another error: the reader is gone
            }
            offset += written
        }
        bytes.removeAll()
    }
}
