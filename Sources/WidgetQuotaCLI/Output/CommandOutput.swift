import WidgetQuotaKit
import WidgetQuotaSupport

extension Console {
    /// Writes a command's one output: into the file `path`, atomically (saying "Wrote PATH" on
    /// standard error when `announce`), or to standard output when `path` is nil or `-`.
    func emit(_ text: String, to path: String?, announce: Bool = true) throws {
        guard let path, path != "-" else { return out(text) }
        try AtomicFileWriter.write(text, to: path)
        if announce { err("Wrote \(path)\n") }
    }
}
