import Foundation

/// Files of the package's own tree, found from this source file's location.
package enum SourceTree {
    /// The package root.
    package static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A file's text, by its path from the package root.
    package static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// Every `.swift` file under `folder` (a path from the package root), keyed by its path from that folder.
    package static func swiftFiles(under folder: String) throws -> [String: String] {
        let base = root.appendingPathComponent(folder)
        guard let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) else { return [:] }
        var files = [String: String]()
        for case let url as URL in walker where url.pathExtension == "swift" {
            let relative = String(url.standardizedFileURL.path.dropFirst(base.standardizedFileURL.path.count + 1))
            files[relative] = try String(contentsOf: url, encoding: .utf8)
        }
        return files
    }
}
