import Foundation

/// Names files relative to a repository's root, however the user named the folder they are in
/// (`MyApp`, `./MyApp/`, `../App`, an absolute path): what code scanning and annotations need.
package struct RepositoryPath: Sendable, Equatable {
    /// The root, symbolic links resolved.
    package let root: String
    /// The folder finding paths are relative to, symbolic links resolved.
    package let base: String

    /// Paths under `base` (as typed), relative to `root` when given, else to the git top level
    /// above `base` (the nearest folder holding `.git`), else to the current folder.
    package init(base: String, root: String? = nil) {
        let resolvedBase = Self.resolved(base)
        self.base = resolvedBase
        self.root = root.map(Self.resolved) ?? Self.gitTopLevel(above: resolvedBase) ?? Self.resolved(".")
    }

    /// `file` (relative to `base`, or absolute) relative to the root; nil when it lies outside.
    package func relative(_ file: String) -> String? {
        let absolute = Self.standardized(file.hasPrefix("/") ? file : base + "/" + file)
        if absolute == root { return "." }
        let prefix = root == "/" ? "/" : root + "/"
        return absolute.hasPrefix(prefix) ? String(absolute.dropFirst(prefix.count)) : nil
    }

    /// `file` as an absolute, standardized path.
    package func absolute(_ file: String) -> String {
        Self.standardized(file.hasPrefix("/") ? file : base + "/" + file)
    }

    /// The nearest folder at or above `folder` that holds `.git` (a folder, or a file in a
    /// worktree or submodule).
    package static func gitTopLevel(above folder: String) -> String? {
        var current = folder
        while true {
            if FileManager.default.fileExists(atPath: current + "/.git") { return current }
            let parent = (current as NSString).deletingLastPathComponent
            if parent == current || parent.isEmpty { return nil }
            current = parent
        }
    }

    /// `path` made absolute with symbolic links resolved (as far as it exists).
    static func resolved(_ path: String) -> String {
        let absolute = standardized(path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path)
        guard let real = realpath(absolute, nil) else { return absolute }
        defer { free(real) }
        return String(cString: real)
    }

    /// `.` and `..` removed, slashes collapsed, without touching the file system.
    static func standardized(_ path: String) -> String {
        var parts = [Substring]()
        for part in path.split(separator: "/") {
            switch part {
            case ".": continue
            case "..": if !parts.isEmpty { parts.removeLast() }
            default: parts.append(part)
            }
        }
        return "/" + parts.joined(separator: "/")
    }
}
