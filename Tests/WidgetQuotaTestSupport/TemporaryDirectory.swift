import Foundation

/// A fresh folder under the system's temporary directory, for a test that writes files.
/// Remove it when done (`defer { tmp.remove() }`); it is also removed when the last reference
/// goes, so a test that stops early leaves nothing behind either.
package final class TemporaryDirectory: @unchecked Sendable {
    package let url: URL
    package var path: String { url.path }

    package init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("widget-quota-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { remove() }

    /// A new empty folder inside this one, for a test that needs several.
    package func subfolder() throws -> String {
        let folder = url.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.path
    }

    /// Writes `text` to a file called `name`, alone in a new subfolder, and returns its path:
    /// two files of the same name never overwrite each other.
    @discardableResult
    package func file(_ text: String, name: String = "scenario.json") throws -> String {
        let path = try subfolder() + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// A copy of the fixture app `name` (under `Fixtures/apps`) inside this folder, for a test
    /// that changes it; returns the copy's path.
    package func copyOfApp(_ name: String) throws -> String {
        let copy = url.appendingPathComponent("app-" + name).path
        try FileManager.default.copyItem(atPath: Fixtures.path("apps/\(name)"), toPath: copy)
        return copy
    }

    package func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
