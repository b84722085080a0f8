import Foundation
import WidgetQuotaSupport

/// Expands the inputs of `analyze` into files: files as given, folders recursively (sorted by
/// path, hidden files and Markdown skipped) and `-` for standard input.
package enum LogInputs {
    /// One file to read, and whether it came from a folder (then a file that is not a log is
    /// skipped with a note instead of stopping the run).
    package struct Item: Sendable, Equatable {
        package let path: String
        package let fromFolder: Bool
        /// Why the file is not read (it is not a regular file), for the note that says so.
        package var skipped: String? = nil
    }

    /// Why `path` is not read as a log, or nil to read it. Inside a folder only regular files
    /// are read: a FIFO would wait for a writer forever and a device (`/dev/zero`) never ends.
    /// Named on the command line, a FIFO is read like standard input (`analyze <(zcat log.gz)`),
    /// but a device or socket is still refused.
    static func notReadable(_ path: String, fromFolder: Bool) -> String? {
        // Leading to nothing: the open that follows says why.
        guard let kind = FileKind.of(path), kind != .regular, kind != .folder, fromFolder || kind != .fifo else { return nil }
        return "it is \(kind.phrase), not a regular file"
    }

    /// File name endings skipped inside folders: documentation, not logs.
    static let skippedEndings = [".md", ".markdown", ".png", ".jpg", ".gz", ".zip"]

    package static func expand(_ paths: [String]) throws -> [Item] {
        var items = [Item]()
        let fm = FileManager.default
        for path in paths {
            if path == "-" {
                items.append(Item(path: "-", fromFolder: false))
                continue
            }
            var isDirectory: ObjCBool = false
            guard fm.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw WidgetQuotaError.unreadable(file: path, problem: "no such file or folder")
            }
            guard isDirectory.boolValue else {
                if let reason = notReadable(path, fromFolder: false) {
                    throw WidgetQuotaError.unreadable(file: path, problem: reason)
                }
                items.append(Item(path: path, fromFolder: false))
                continue
            }
            guard let enumerator = fm.enumerator(atPath: path) else {
                throw WidgetQuotaError.unreadable(file: path, problem: "cannot list the folder")
            }
            var found = [String]()
            while let relative = enumerator.nextObject() as? String {
                let name = (relative as NSString).lastPathComponent
                if relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }) { continue }
                if skippedEndings.contains(where: { name.lowercased().hasSuffix($0) }) { continue }
                let full = path.hasSuffix("/") ? path + relative : path + "/" + relative
                var dir: ObjCBool = false
                if fm.fileExists(atPath: full, isDirectory: &dir), !dir.boolValue { found.append(full) }
            }
            guard !found.isEmpty else { throw WidgetQuotaError.unreadable(file: path, problem: "the folder holds no log files") }
            items += found.sorted().map { Item(path: $0, fromFolder: true, skipped: notReadable($0, fromFolder: true)) }
        }
        return items
    }
}
