import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a command writes: results to `out`, messages to `err`. Tests capture both.
package final class Console: @unchecked Sendable {
    /// Writes text; returns nil, or why the text could not be written.
    private let writeOut: (String) -> String?
    private let writeErr: (String) -> String?
    private let lock = NSLock()
    private var firstOutputFailure: String?
    /// True when stderr is a terminal (progress bars only then).
    package let stderrIsTerminal: Bool
    /// Environment variables (NO_COLOR and friends).
    package let environment: [String: String]

    package init(
        out: @escaping (String) -> Void, err: @escaping (String) -> Void,
        stderrIsTerminal: Bool = false, environment: [String: String] = [:]
    ) {
        self.writeOut = {
            out($0)
            return nil
        }
        self.writeErr = {
            err($0)
            return nil
        }
        self.stderrIsTerminal = stderrIsTerminal
        self.environment = environment
    }

    /// A console whose writers say why a write failed (nil: written, or the reader is gone).
    package init(
        failableOut: @escaping (String) -> String?, failableErr: @escaping (String) -> String?,
        stderrIsTerminal: Bool, environment: [String: String]
    ) {
        self.writeOut = failableOut
        self.writeErr = failableErr
        self.stderrIsTerminal = stderrIsTerminal
        self.environment = environment
    }

    /// The process's standard output and error.
    package static var standard: Console {
        Console(
            failableOut: { FileHandleWriter.write($0, to: STDOUT_FILENO) },
            failableErr: { FileHandleWriter.write($0, to: STDERR_FILENO) },
            stderrIsTerminal: isatty(STDERR_FILENO) == 1,
            environment: ProcessInfo.processInfo.environment)
    }

    package func out(_ text: String) {
        lock.lock()
        if let failure = writeOut(text), firstOutputFailure == nil { firstOutputFailure = failure }
        lock.unlock()
    }

    package func err(_ text: String) {
        lock.lock()
        _ = writeErr(text)
        lock.unlock()
    }

    /// Why standard output could not be written (a full disk, a closed file), if it could not;
    /// a reader that went away (`| head`) is not a failure.
    package var outputFailure: String? {
        lock.lock()
        defer { lock.unlock() }
        return firstOutputFailure
    }

    /// True when colour and terminal decoration may be used (a terminal, and NO_COLOR unset).
    package var decorates: Bool { stderrIsTerminal && (environment["NO_COLOR"] ?? "").isEmpty }
}

/// Writes to a file descriptor, ignoring a closed pipe (EPIPE) so `| head` ends quietly.
package enum FileHandleWriter {
    /// Writes all of `text`; returns nil, or the system's reason when it could not (not for EPIPE).
    package static func write(_ text: String, to fd: Int32) -> String? {
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
                let code = errno
                if code == EINTR { continue }
                if code == EPIPE { return nil }  // the reader is gone: end quietly
                return String(cString: strerror(code))
            }
            offset += written
        }
        return nil
    }
}
