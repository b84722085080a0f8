import Foundation

/// Reads an input file whole, and says truly why it cannot (`unreadable`, exit 66): no such file,
/// permission denied, a folder, or a device or socket (which could block or never end). A FIFO
/// is read like a pipe (`--scenario <(…)`), and `-` is standard input.
package enum InputFile {
    /// The path that names standard input.
    package static let standardInput = "-"

    /// The name messages give the input at `path`: `stdin` for `-`, else the path.
    package static func name(_ path: String) -> String { path == standardInput ? "stdin" : path }

    package static func contents(of path: String, shown: String? = nil) throws -> Data {
        let name = shown ?? self.name(path)
        if path == standardInput {
            do {
                return try FileHandle.standardInput.readToEnd() ?? Data()
            } catch {
                throw WidgetQuotaError.unreadable(file: name, problem: "reading failed: \(error.localizedDescription)")
            }
        }
        guard let kind = FileKind.of(path) else { throw WidgetQuotaError.unreadable(file: name, problem: reason(errno)) }
        guard kind == .regular || kind == .fifo else {
            throw WidgetQuotaError.unreadable(file: name, problem: "it is \(kind.phrase), not a file")
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw WidgetQuotaError.unreadable(file: name, problem: access(path, R_OK) == 0 ? "it cannot be opened" : reason(errno))
        }
        defer { try? handle.close() }
        do {
            return try handle.readToEnd() ?? Data()
        } catch {
            throw WidgetQuotaError.unreadable(file: name, problem: "reading failed: \(error.localizedDescription)")
        }
    }

    static func reason(_ code: Int32) -> String {
        switch code {
        case ENOENT, ENOTDIR: return "no such file"
        case EACCES, EPERM: return "permission denied"
        default: return String(cString: strerror(code))
        }
    }
}
