import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// Writes files so a reader never sees half of one and a failed run never destroys the previous one:
/// each file is written to a temporary sibling, then renamed over the target. What is not a
/// regular file is never replaced (see `write(_:to:)`).
package enum AtomicFileWriter {
    /// Writes `contents` to `path` atomically.
    package static func write(_ contents: String, to path: String) throws {
        try write(Data(contents.utf8), to: path)
    }

    /// Writes `data` to `path` atomically, never replacing what is not a regular file:
    /// - a symbolic link is followed, and its target (or the file it names, if dangling) written
    ///   atomically beside itself, so the link stays;
    /// - a character device (`/dev/null`, a terminal) or a FIFO is written into directly, as a
    ///   shell redirection would (a FIFO that no process reads is refused rather than waited on);
    /// - a folder, a block device or a socket is refused.
    package static func write(_ data: Data, to path: String) throws {
        let target: String
        switch try destination(path) {
        case .file(let file): target = file
        case .special(let fifo): return try writeInto(special: path, data, fifo: fifo)
        }
        let url = URL(fileURLWithPath: target)
        let directory = url.deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw WidgetQuotaError.unwritable(path: path, problem: "the folder \(directory) does not exist")
        }
        let temporary = temporaryPath(for: target)
        let cleanup = InterruptCleanup.process
        cleanup.register(temporary)
        defer { cleanup.forget(temporary) }
        try create(temporary, data, shown: path)
        if rename(temporary, target) != 0 {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw WidgetQuotaError.unwritable(path: path, problem: reason)
        }
    }

    /// Where the bytes for `path` go.
    enum Destination {
        /// A regular file to replace atomically (a link's target, or the file to create).
        case file(String)
        /// A character device or a FIFO (true), written into directly.
        case special(fifo: Bool)
    }

    /// Where `path` leads, links followed; a folder, block device or socket is refused.
    static func destination(_ path: String) throws -> Destination {
        switch FileKind.of(path) {
        case nil: return .file(try danglingTarget(path))
        case .regular:
            // The file itself, so a link to it stays a link.
            guard let real = realpath(path, nil) else { return .file(path) }
            defer { free(real) }
            return .file(String(cString: real))
        case .characterDevice: return .special(fifo: false)
        case .fifo: return .special(fifo: true)
        case .folder: throw WidgetQuotaError.unwritable(path: path, problem: "it is a folder; name a file")
        case let kind?:
            throw WidgetQuotaError.unwritable(path: path, problem: "it is \(kind.phrase), not a regular file, so it is left as it is")
        }
    }

    /// The file to create for a path that leads to nothing yet: the path itself, or what a
    /// dangling symbolic link names (links followed, up to 40 as the kernel does), so the link stays.
    static func danglingTarget(_ path: String) throws -> String {
        var current = path
        for _ in 0..<40 {
            var info = stat()
            guard lstat(current, &info) == 0, info.st_mode & S_IFMT == S_IFLNK,
                let destination = try? FileManager.default.destinationOfSymbolicLink(atPath: current)
            else { return current }
            current =
                destination.hasPrefix("/")
                ? destination
                : (URL(fileURLWithPath: current).deletingLastPathComponent().path as NSString).appendingPathComponent(destination)
        }
        throw WidgetQuotaError.unwritable(path: path, problem: "too many levels of symbolic links")
    }

    /// A sibling of `path` for its new contents, named after this process.
    static func temporaryPath(for path: String) -> String {
        let url = URL(fileURLWithPath: path)
        return url.deletingLastPathComponent().path + "/.\(url.lastPathComponent)\(temporaryMarker)\(getpid())"
    }

    static let temporaryMarker = ".tmp-"

    /// The file and process a temporary's name stands for (`.report.md.tmp-4242` → report.md, 4242).
    static func temporaryName(_ name: String) -> (file: String, pid: pid_t)? {
        guard name.hasPrefix("."), let marker = name.range(of: temporaryMarker, options: .backwards),
            let pid = pid_t(name[marker.upperBound...])
        else { return nil }
        return (String(name[name.index(after: name.startIndex)..<marker.lowerBound]), pid)
    }

    /// Creates `path` (which must not exist) holding `data`, removing it again if writing fails;
    /// errors name `shown` and say why (a full disk says so).
    static func create(_ path: String, _ data: Data, shown: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw unwritable(shown, errno: errno, creating: true) }
        do {
            try writeAll(fd, data, shown: shown)
            if close(fd) != 0 { throw unwritable(shown, errno: errno, creating: false) }
        } catch {
            close(fd)
            unlink(path)
            throw error
        }
    }

    /// Writes `data` into an existing character device or FIFO, which is never replaced.
    static func writeInto(special path: String, _ data: Data, fifo: Bool) throws {
        let shown = path
        // A FIFO is opened without waiting: with no reader, opening fails (ENXIO) instead of
        // blocking forever; then writes wait for the reader as usual.
        let fd = open(path, O_WRONLY | O_CLOEXEC | (fifo ? O_NONBLOCK : 0))
        guard fd >= 0 else {
            if fifo && errno == ENXIO {
                throw WidgetQuotaError.unwritable(path: shown, problem: "it is a FIFO that no process is reading")
            }
            throw unwritable(shown, errno: errno, creating: false)
        }
        defer { close(fd) }
        if fifo { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) }
        try writeAll(fd, data, shown: shown)
    }

    static func writeAll(_ fd: Int32, _ data: Data, shown: String) throws {
        try data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
            guard var pointer = buffer.baseAddress else { return }
            var left = buffer.count
            while left > 0 {
                let n = systemWrite(fd, pointer, left)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw unwritable(shown, errno: errno, creating: false)
                }
                left -= n
                pointer += n
            }
        }
    }

    /// The error for a failed create or write, in words a person can act on.
    static func unwritable(_ path: String, errno code: Int32, creating: Bool) -> WidgetQuotaError {
        switch code {
        case ENOSPC: return .unwritable(path: path, problem: "no space is left on the device (ENOSPC)")
        case EDQUOT: return .unwritable(path: path, problem: "the disk quota is exhausted (EDQUOT)")
        case EACCES, EPERM, EROFS:
            return .unwritable(path: path, problem: creating ? "the folder is not writable" : "it is not writable")
        default: return .unwritable(path: path, problem: String(cString: strerror(code)))
        }
    }

    /// Writes `files` into `directory` as its report: the folder is swapped for one holding the
    /// new files and the folder's files that are not the report's (`ReportFolderWriter`), so the
    /// files named in `ownNames` that this set does not include go — what an earlier run wrote
    /// there (a sweep, a chart) must not sit beside a report it no longer belongs to. Files with
    /// other names are kept.
    package static func replaceSet(files: [StagedFile], in directory: String, ownNames: [String]) throws {
        let named = files.map { StagedFile(URL(fileURLWithPath: $0.name).lastPathComponent, contents: $0.contents) }
        let writer = ReportFolderWriter(shown: directory, ownNames: Set(ownNames + named.map(\.name)))
        try writer.replace(named)
    }

    /// Writes several files; either all are written or, on failure, none of the targets changes
    /// except those already renamed (each one is still whole).
    package static func write(files: [(path: String, contents: String)], createDirectory directory: String?) throws {
        try write(files: files.map { StagedFile($0.path, text: $0.contents) }, createDirectory: directory)
    }

    /// Writes several files (named by their paths), as `write(files:createDirectory:)` with text;
    /// each file's contents are made as it is staged.
    static func write(files: [StagedFile], createDirectory directory: String?) throws {
        let cleanup = InterruptCleanup.process
        if let directory {
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw WidgetQuotaError.unwritable(path: directory, problem: "cannot create the folder")
            }
        }
        // Stage everything first so a failure leaves every previous file untouched. A file of
        // the set that is a link is written through it; one that is a device or FIFO is refused
        // before anything is written (a report's files are regular files).
        var staged = [(temporary: String, path: String)]()
        do {
            for file in files {
                guard case .file(let target) = try destination(file.name) else {
                    throw WidgetQuotaError.unwritable(
                        path: file.name, problem: "it is a device or a FIFO, not a report file, so it is left as it is")
                }
                let temporary = temporaryPath(for: target)
                cleanup.register(temporary)
                try create(temporary, file.contents(), shown: file.name)
                staged.append((temporary, target))
            }
            try cleanup.uninterrupted {
                for item in staged {
                    guard rename(item.temporary, item.path) == 0 else {
                        throw WidgetQuotaError.unwritable(path: item.path, problem: String(cString: strerror(errno)))
                    }
                    cleanup.forget(item.temporary)
                }
            }
        } catch {
            for item in staged {
                unlink(item.temporary)
                cleanup.forget(item.temporary)
            }
            throw error
        }
    }
}

/// POSIX `write(2)` (the enum's own `write` methods hide the name).
private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Darwin)
        return Darwin.write(fd, buffer, count)
    #else
        return Glibc.write(fd, buffer, count)
    #endif
}
