import Foundation

/// Writes files so a reader never sees half of one and a failed run never destroys the previous one:
/// each file is written to a temporary sibling, then renamed over the target.
package enum AtomicFileWriter {
    /// Writes `contents` to `path` atomically.
    package static func write(_ contents: String, to path: String) throws {
        try write(Data(contents.utf8), to: path)
    }

    /// Writes `data` to `path` atomically.
    package static func write(_ data: Data, to path: String) throws {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw WidgetQuotaError.unwritable(path: path, problem: "the folder \(directory) does not exist")
        }
        let temporary = directory + "/.\(url.lastPathComponent).tmp-\(ProcessInfo.processInfo.processIdentifier)"
        guard FileManager.default.createFile(atPath: temporary, contents: data) else {
            throw WidgetQuotaError.unwritable(path: path, problem: "the folder is not writable")
        }
        if rename(temporary, path) != 0 {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(atPath: temporary)
            throw WidgetQuotaError.unwritable(path: path, problem: reason)
        }
    }

    /// Writes `files` into `directory` as one set, like `write(files:createDirectory:)`, then
    /// removes the files named in `ownNames` that this set does not include: what an earlier run
    /// wrote there (a sweep, a chart) must not sit beside a report it no longer belongs to.
    /// Files with other names are never touched.
    package static func replaceSet(files: [(path: String, contents: String)], in directory: String, ownNames: [String]) throws {
        try write(files: files, createDirectory: directory)
        let written = Set(files.map { URL(fileURLWithPath: $0.path).lastPathComponent })
        for name in ownNames where !written.contains(name) {
            let path = (directory as NSString).appendingPathComponent(name)
            guard FileManager.default.fileExists(atPath: path) else { continue }
            do {
                try FileManager.default.removeItem(atPath: path)
            } catch {
                throw WidgetQuotaError.unwritable(
                    path: path, problem: "cannot remove this file left by an earlier run, which the new report does not include")
            }
        }
    }

    /// Writes several files; either all are written or, on failure, none of the targets changes
    /// except those already renamed (each one is still whole).
    package static func write(files: [(path: String, contents: String)], createDirectory directory: String?) throws {
        if let directory {
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw WidgetQuotaError.unwritable(path: directory, problem: "cannot create the folder")
            }
        }
        // Stage everything first so a failure leaves every previous file untouched.
        var staged = [(temporary: String, path: String)]()
        do {
            for file in files {
                let url = URL(fileURLWithPath: file.path)
                let temporary =
                    url.deletingLastPathComponent().path + "/.\(url.lastPathComponent).tmp-\(ProcessInfo.processInfo.processIdentifier)"
                guard FileManager.default.createFile(atPath: temporary, contents: Data(file.contents.utf8)) else {
                    throw WidgetQuotaError.unwritable(path: file.path, problem: "the folder is not writable")
                }
                staged.append((temporary, file.path))
            }
            for item in staged where rename(item.temporary, item.path) != 0 {
                throw WidgetQuotaError.unwritable(path: item.path, problem: String(cString: strerror(errno)))
            }
        } catch {
            for item in staged { try? FileManager.default.removeItem(atPath: item.temporary) }
            throw error
        }
    }
}
