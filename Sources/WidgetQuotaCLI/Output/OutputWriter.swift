import WidgetQuotaKit
import WidgetQuotaSupport

/// The command line's one writer: a job's outputs to their files and standard output, then its
/// notes, announcements and threshold messages on standard error, and the exit code they give.
enum OutputWriter {
    /// Writes `output` in order; a failed write throws before any note is printed. `quiet` drops
    /// the notes, the announcements and the lines of thresholds that passed.
    static func write(_ output: JobOutput, console: Console, quiet: Bool) throws -> ExitCode {
        var messages: [String] = []
        for item in output.items {
            switch item {
            case .text(let text, .standardOutput, _):
                console.out(text)
            case .text(let text, .file(let path), let announce):
                try AtomicFileWriter.write(text, to: path)
                if announce { messages.append("Wrote \(path)\n") }
            case .streamed(let make, .standardOutput, _):
                make { console.out($0) }
            case .streamed(let make, .file(let path), let announce):
                var text = ""
                make { text += $0 }
                try AtomicFileWriter.write(text, to: path)
                if announce { messages.append("Wrote \(path)\n") }
            case .folder(let files):
                try files.write()
                let names = files.names
                let listed = names.count <= 12 ? names.joined(separator: ", ") : "\(names[0]), \(names[1]), … \(names[names.count - 1])"
                messages.append("Wrote \(names.count) files into \(files.directory): \(listed)\n")
            case .files(let files, let directory, let announcement):
                try AtomicFileWriter.write(files: files, createDirectory: directory)
                messages.append(announcement)
            case .note(let text):
                messages.append(text)
            }
        }
        if !quiet { messages.forEach(console.err) }
        ThresholdMessages.report(output.thresholds, console: console, quiet: quiet)
        ThresholdMessages.report(output.changeGates, console: console, quiet: quiet)
        return output.finalExitCode
    }
}
