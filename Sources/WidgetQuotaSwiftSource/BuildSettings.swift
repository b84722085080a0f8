import Foundation

/// Build settings read from `.xcconfig` files: `KEY = value` lines, `//` comments, and
/// `#include "other.xcconfig"` / `#include? "…"` (relative to the including file), the last
/// assignment winning. A setting with a condition (`KEY[sdk=iphoneos*] = …`) counts only where
/// the plain key is not set. `$(inherited)` is dropped; other references are kept as written.
package struct BuildSettings: Sendable, Equatable {
    package private(set) var values: [String: String] = [:]

    /// The settings of the file at `path` (a tree path), with `text(path)` giving each file's
    /// text (nil when the tree does not hold it: an include of it is skipped).
    package init(path: String, text: (String) -> String?) {
        // Assignments overwrite and `$(inherited)` is dropped, so what a file does to the settings
        // is one map of its last assignments, includes applied where they stand. Each file's map
        // is made once: a file included from many places (or many times) is read once.
        typealias Effect = (values: [String: String], conditional: [String: String])
        var memo = [String: Effect]()
        var visiting = Set<String>()
        func effect(_ path: String, depth: Int) -> Effect {
            if let known = memo[path] { return known }
            guard depth < 16, visiting.insert(path).inserted, let body = text(path) else { return ([:], [:]) }
            defer { visiting.remove(path) }
            var result: Effect = ([:], [:])
            let folder = (path as NSString).deletingLastPathComponent
            for raw in body.split(whereSeparator: \.isNewline) {
                var line = Substring(raw)
                if let comment = line.range(of: "//") { line = line[..<comment.lowerBound] }
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.hasPrefix("#include") {
                    guard let open = trimmed.firstIndex(of: "\""), let close = trimmed.lastIndex(of: "\""), open < close else { continue }
                    let name = String(trimmed[trimmed.index(after: open)..<close])
                    let included = name.hasPrefix("/") ? String(name.dropFirst()) : (folder.isEmpty ? name : folder + "/" + name)
                    let inner = effect(Self.normalised(included), depth: depth + 1)
                    result.values.merge(inner.values) { _, new in new }
                    result.conditional.merge(inner.conditional) { _, new in new }
                    continue
                }
                // The `=` after a condition's `]` (`KEY[sdk=iphoneos*] = value`).
                let conditionEnd = trimmed.firstIndex(of: "[").flatMap { open in trimmed[open...].firstIndex(of: "]") }
                guard let equals = trimmed[(conditionEnd ?? trimmed.startIndex)...].firstIndex(of: "=") else { continue }
                var key = trimmed[..<equals].trimmingCharacters(in: .whitespaces)
                let value = trimmed[trimmed.index(after: equals)...].replacingOccurrences(of: "$(inherited)", with: "")
                    .trimmingCharacters(in: .whitespaces)
                if let bracket = key.firstIndex(of: "[") {
                    key = String(key[..<bracket])
                    result.conditional[key] = value
                } else {
                    result.values[key] = value
                }
            }
            // Remembered even when a cycle or the depth bound cut it short (trees Xcode refuses):
            // reading each file once keeps the work linear in the files, whatever includes them.
            memo[path] = result
            return result
        }
        let top = effect(path, depth: 0)
        values = top.values
        for (key, value) in top.conditional where values[key] == nil { values[key] = value }
    }

    /// A relative path with `.` and `..` resolved textually (`Config/App/../Shared.xcconfig` →
    /// `Config/Shared.xcconfig`), as the tree's paths are written; a `..` above the top is kept.
    static func normalised(_ path: String) -> String {
        var parts = [Substring]()
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == "..", let last = parts.last, last != ".." {
                parts.removeLast()
            } else {
                parts.append(part)
            }
        }
        return parts.joined(separator: "/")
    }

    package subscript(_ key: String) -> String? { values[key].flatMap { $0.isEmpty ? nil : $0 } }

    /// A path setting as the project reads it: `$(SRCROOT)/` and `$(PROJECT_DIR)/` removed,
    /// `$(TARGET_NAME)` replaced by `target`.
    package static func path(_ value: String, target: String) -> String {
        var v = value.replacingOccurrences(of: "$(TARGET_NAME)", with: target).replacingOccurrences(of: "${TARGET_NAME}", with: target)
        for prefix in ["$(SRCROOT)/", "${SRCROOT}/", "$(PROJECT_DIR)/", "${PROJECT_DIR}/"] where v.hasPrefix(prefix) {
            v = String(v.dropFirst(prefix.count))
        }
        if v.hasPrefix("\""), v.hasSuffix("\""), v.count >= 2 { v = String(v.dropFirst().dropLast()) }
        return v
    }
}
