import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// Replaces the report in a folder in one step. The new files are written into a sibling staging
/// folder, the folder's other files (those that are not the report's) are linked into it, and
/// the two folders are swapped by one exchange: a reader, or a run killed at any moment, sees the
/// whole old report or the whole new one, never a mix. A staging folder or temporary file left by
/// a killed run is tidied by the next run; one interrupted by SIGINT, SIGTERM or SIGHUP is removed
/// on the spot (`InterruptCleanup`).
///
/// A folder the swap cannot keep whole — one holding subfolders, a mount point, one owned by
/// another user, or on a file system without hard links or exchange — is written file by file
/// (`AtomicFileWriter.write(files:createDirectory:)`): each file is still whole, the set is not.
struct ReportFolderWriter {
    /// The folder as the user named it (for messages).
    let shown: String
    /// Names of the files this tool writes into a report folder.
    let ownNames: Set<String>
    let cleanup = InterruptCleanup.process

    /// A staging folder's name: beside the report folder, after it and this process.
    static let stagingMarker = ".wq-staging-"
    /// The most files of its own a folder may hold to be swapped (each is linked once).
    static let maxForeignEntries = 10_000

    /// Writes `files` (named inside the folder) as the folder's report, removing the own files
    /// this set does not include.
    func replace(_ files: [StagedFile]) throws {
        let folder = Self.absolute(shown)
        switch FileKind.of(folder) {
        case nil:
            // A dangling link is not replaced by the new folder: it is not this tool's to remove.
            guard !Self.exists(folder) else {
                throw WidgetQuotaError.unwritable(
                    path: shown, problem: "it is a symbolic link to nothing; make its target or name a folder")
            }
            try create(folder, files)
        case .folder:
            let real = Self.realPath(folder)
            removeStaleTemporaries(in: real)
            if let foreign = swappableForeignEntries(real, setNames: Set(files.map(\.name))) {
                try swap(into: real, files, foreign: foreign)
            } else {
                try replaceFileByFile(real, files)
            }
            tidyStaleStagings(beside: real)
        case let kind?:
            throw WidgetQuotaError.unwritable(path: shown, problem: "it is \(kind.phrase), not a folder")
        }
    }

    // MARK: Creating and swapping

    /// A new folder: staged beside it, then renamed into place.
    private func create(_ folder: String, _ files: [StagedFile]) throws {
        let parent = (folder as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        } catch {
            throw WidgetQuotaError.unwritable(path: shown, problem: "cannot create the folder \(parent)")
        }
        let staging = try makeStaging(beside: folder, mode: 0o755)
        do {
            try writeStaged(files, into: staging, throughLinks: [:])
            try cleanup.uninterrupted {
                guard rename(staging, folder) == 0 else {
                    throw WidgetQuotaError.unwritable(path: shown, problem: String(cString: strerror(errno)))
                }
                cleanup.forget(staging)
            }
        } catch {
            removeStaging(staging)
            throw error
        }
        tidyStaleStagings(beside: folder)
    }

    /// An existing folder: the new files and links to `foreign` staged, then exchanged with it.
    private func swap(into folder: String, _ files: [StagedFile], foreign: [String]) throws {
        let throughLinks = try linkedFiles(in: folder, files.map(\.name))
        let staging = try makeStaging(beside: folder, mode: Self.mode(of: folder))
        do {
            try writeStaged(files, into: staging, throughLinks: throughLinks)
            for name in foreign + throughLinks.keys.sorted() {
                guard linkat(AT_FDCWD, folder + "/" + name, AT_FDCWD, staging + "/" + name, 0) == 0 else {
                    throw Fallback()
                }
            }
            try cleanup.uninterrupted {
                try renameThroughLinks(throughLinks, folder: folder)
                guard PathExchange.exchange(staging, folder) else { throw Fallback() }
                cleanup.forget(staging)
                // `staging` now holds the old report: its own files go, anything else moves in.
                tidy(old: staging, into: folder)
            }
        } catch is Fallback {
            removeStaging(staging, throughLinks: throughLinks)
            try replaceFileByFile(folder, files)
        } catch {
            removeStaging(staging, throughLinks: throughLinks)
            throw error
        }
    }

    /// Thrown when the swap cannot be done here; the folder is then written file by file.
    private struct Fallback: Error {}

    /// The folder's entries that are not the report's, when every one can be linked into a
    /// staging folder; nil when the folder must be written file by file.
    private func swappableForeignEntries(_ folder: String, setNames: Set<String>) -> [String]? {
        var info = stat()
        var parentInfo = stat()
        let parent = (folder as NSString).deletingLastPathComponent
        guard lstat(folder, &info) == 0, stat(parent, &parentInfo) == 0,
            info.st_dev == parentInfo.st_dev,  // not a mount point
            info.st_uid == geteuid(),  // the swapped-in folder would change hands
            access(parent, W_OK) == 0,
            let entries = try? FileManager.default.contentsOfDirectory(atPath: folder)
        else { return nil }
        var foreign = [String]()
        for name in entries.sorted() where !setNames.contains(name) && !ownNames.contains(name) {
            var entry = stat()
            guard lstat(folder + "/" + name, &entry) == 0 else { return nil }
            let type = entry.st_mode & S_IFMT
            guard type == S_IFREG || type == S_IFLNK else { return nil }
            foreign.append(name)
        }
        return foreign.count <= Self.maxForeignEntries ? foreign : nil
    }

    /// The set's files that are symbolic links in `folder` (name → the file the link leads to):
    /// they are written through the link, which stays. A set file that is a device, FIFO, folder
    /// or socket refuses the whole set before anything is written.
    private func linkedFiles(in folder: String, _ names: [String]) throws -> [String: String] {
        var linked = [String: String]()
        for name in names {
            let path = folder + "/" + name
            var info = stat()
            guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else {
                try refuseSpecial(path, name)
                continue
            }
            guard case .file(let target) = try AtomicFileWriter.destination(path) else {
                throw Self.notAReportFile((shown as NSString).appendingPathComponent(name))
            }
            linked[name] = target
        }
        return linked
    }

    private func refuseSpecial(_ path: String, _ name: String) throws {
        guard let kind = FileKind.of(path), kind != .regular else { return }
        throw Self.notAReportFile((shown as NSString).appendingPathComponent(name))
    }

    static func notAReportFile(_ path: String) -> WidgetQuotaError {
        .unwritable(path: path, problem: "it is a folder, a device or a FIFO, not a report file, so it is left as it is")
    }

    /// Writes the set into `staging`; a file that is a link in the live folder is written as a
    /// temporary beside the file the link leads to instead (renamed in just before the swap).
    private func writeStaged(
        _ files: [StagedFile], into staging: String, throughLinks: [String: String]
    ) throws {
        for file in files {
            if let target = throughLinks[file.name] {
                let temporary = AtomicFileWriter.temporaryPath(for: target)
                cleanup.register(temporary)
                try AtomicFileWriter.create(temporary, file.contents(), shown: (shown as NSString).appendingPathComponent(file.name))
            } else {
                try AtomicFileWriter.create(
                    staging + "/" + file.name, file.contents(), shown: (shown as NSString).appendingPathComponent(file.name))
            }
        }
    }

    private func renameThroughLinks(_ links: [String: String], folder: String) throws {
        for target in links.values.sorted() {
            let temporary = AtomicFileWriter.temporaryPath(for: target)
            guard rename(temporary, target) == 0 else {
                throw WidgetQuotaError.unwritable(path: target, problem: String(cString: strerror(errno)))
            }
            cleanup.forget(temporary)
        }
    }

    /// Creates the staging folder for `folder`, registered for removal if the run is interrupted.
    private func makeStaging(beside folder: String, mode: mode_t) throws -> String {
        let staging = Self.stagingPath(for: folder, pid: getpid())
        try? FileManager.default.removeItem(atPath: staging)
        cleanup.register(staging)
        guard mkdir(staging, 0o700) == 0, chmod(staging, mode) == 0 else {
            cleanup.forget(staging)
            throw AtomicFileWriter.unwritable(shown, errno: errno, creating: true)
        }
        return staging
    }

    /// Removes a staging folder that was not swapped in, and the temporaries beside the files
    /// the set's links lead to (those not yet renamed into place).
    private func removeStaging(_ staging: String, throughLinks: [String: String] = [:]) {
        try? FileManager.default.removeItem(atPath: staging)
        cleanup.forget(staging)
        for target in throughLinks.values {
            let temporary = AtomicFileWriter.temporaryPath(for: target)
            unlink(temporary)
            cleanup.forget(temporary)
        }
    }

    static func stagingPath(for folder: String, pid: pid_t) -> String {
        let url = URL(fileURLWithPath: folder)
        return url.deletingLastPathComponent().path + "/." + url.lastPathComponent + stagingMarker + String(pid)
    }

    // MARK: Tidying

    /// Empties a folder that held a report (the old one after a swap, or a staging folder a
    /// killed run left) into the live `folder`: its own files and the links the live folder
    /// shares are removed, anything else is moved in where its name is free, and the emptied
    /// folder goes. What cannot be moved stays where it is, for a person to look at.
    func tidy(old: String, into folder: String) {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: old)) ?? [] {
            let path = old + "/" + name
            let live = folder + "/" + name
            if ownNames.contains(name) || Self.sameFile(path, live) {
                unlink(path)
            } else if !Self.exists(live) {
                rename(path, live)
            }
        }
        rmdir(old)
    }

    /// Staging folders beside `folder` whose process is gone.
    private func tidyStaleStagings(beside folder: String) {
        let url = URL(fileURLWithPath: folder)
        let prefix = "." + url.lastPathComponent + Self.stagingMarker
        let parent = url.deletingLastPathComponent().path
        for name in (try? FileManager.default.contentsOfDirectory(atPath: parent)) ?? [] where name.hasPrefix(prefix) {
            // One an interrupted run was removing (`InterruptCleanup`) holds nothing to keep.
            let removing = name.hasSuffix(InterruptCleanup.removingSuffix)
            let digits = name.dropFirst(prefix.count).dropLast(removing ? InterruptCleanup.removingSuffix.count : 0)
            guard let pid = pid_t(digits), !Self.isRunning(pid) else { continue }
            if removing {
                try? FileManager.default.removeItem(atPath: parent + "/" + name)
            } else {
                tidy(old: parent + "/" + name, into: folder)
            }
        }
    }

    /// Temporary files of own names inside `folder` whose process is gone.
    private func removeStaleTemporaries(in folder: String) {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
            let base = name.hasSuffix(InterruptCleanup.removingSuffix) ? String(name.dropLast(InterruptCleanup.removingSuffix.count)) : name
            guard let (file, pid) = AtomicFileWriter.temporaryName(base), ownNames.contains(file), !Self.isRunning(pid) else {
                continue
            }
            unlink(folder + "/" + name)
        }
    }

    /// The folder written file by file, as when the swap cannot be done.
    private func replaceFileByFile(_ folder: String, _ files: [StagedFile]) throws {
        try AtomicFileWriter.write(files: files.map { StagedFile(folder + "/" + $0.name, contents: $0.contents) }, createDirectory: folder)
        let written = Set(files.map(\.name))
        for name in ownNames.sorted() where !written.contains(name) {
            let path = folder + "/" + name
            guard Self.exists(path) else { continue }
            guard unlink(path) == 0 else {
                throw WidgetQuotaError.unwritable(
                    path: (shown as NSString).appendingPathComponent(name),
                    problem: "cannot remove this file left by an earlier run, which the new report does not include")
            }
        }
    }

    // MARK: Paths

    static func absolute(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        return URL(fileURLWithPath: absolute).standardizedFileURL.path
    }

    static func realPath(_ path: String) -> String {
        guard let real = realpath(path, nil) else { return path }
        defer { free(real) }
        return String(cString: real)
    }

    static func mode(of path: String) -> mode_t {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o7777 : 0o755
    }

    static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    static func sameFile(_ first: String, _ second: String) -> Bool {
        var a = stat()
        var b = stat()
        return lstat(first, &a) == 0 && lstat(second, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino
    }

    static func isRunning(_ pid: pid_t) -> Bool {
        kill(pid, 0) == 0 || errno == EPERM
    }
}
