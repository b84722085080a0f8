import Foundation
import Testing
import WidgetQuotaSupport
import WidgetQuotaTestSupport

/// An output path is written, never replaced by something else: a link stays a link, a FIFO a
/// FIFO, and what is not a file is refused.
@Suite("Atomic file writer")
struct AtomicFileWriterTests {
    static func kind(_ path: String) -> mode_t? {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : nil
    }

    @Test("a symbolic link stays, and the file it names is written")
    func symlinkIsFollowed() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let real = try tmp.file("old", name: "real.md")
        let folder = (real as NSString).deletingLastPathComponent
        let link = folder + "/link.md"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "real.md")
        try AtomicFileWriter.write("new", to: link)
        #expect(Self.kind(link) == S_IFLNK)
        #expect(try String(contentsOfFile: real, encoding: .utf8) == "new")
        // A dangling link: the file it names is created, the link kept.
        let dangling = folder + "/dangling.md"
        try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: "missing.md")
        try AtomicFileWriter.write("made", to: dangling)
        #expect(Self.kind(dangling) == S_IFLNK)
        #expect(try String(contentsOfFile: folder + "/missing.md", encoding: .utf8) == "made")
    }

    @Test("a FIFO is written into when read, refused at once when nobody reads it, and never replaced")
    func fifoIsWrittenInto() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let fifo = tmp.path + "/fifo"
        #expect(mkfifo(fifo, 0o644) == 0)
        #expect(throws: WidgetQuotaError.self) { try AtomicFileWriter.write("nobody reads", to: fifo) }
        #expect(Self.kind(fifo) == S_IFIFO)
        let reader = Thread {
            let fd = open(fifo, O_RDONLY)
            var buffer = [UInt8](repeating: 0, count: 64)
            _ = read(fd, &buffer, 64)
            close(fd)
        }
        reader.start()
        // The reader opens the FIFO when its thread runs: retry until it has.
        var written = false
        for _ in 0..<200 where !written {
            written = (try? AtomicFileWriter.write("hello", to: fifo)) != nil
            if !written { usleep(10_000) }
        }
        #expect(written)
        #expect(Self.kind(fifo) == S_IFIFO)
    }

    @Test("a folder is refused, and errors say why in words")
    func folderIsRefused() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let folder = try tmp.subfolder()
        do {
            try AtomicFileWriter.write("x", to: folder)
            Issue.record("expected an error")
        } catch let error as WidgetQuotaError {
            #expect(error.description.contains("it is a folder"))
        }
        #expect(Self.kind(folder) == S_IFDIR)
    }

    @Test("a report folder's files: a link is written through, a FIFO refuses the whole set and changes nothing")
    func folderFiles() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let folder = try tmp.subfolder()
        let outside = try tmp.file("old report", name: "kept.md")
        try FileManager.default.createSymbolicLink(atPath: folder + "/report.md", withDestinationPath: outside)
        try "old csv".write(toFile: folder + "/summary.csv", atomically: true, encoding: .utf8)
        try AtomicFileWriter.write(
            files: [(folder + "/report.md", "new report"), (folder + "/summary.csv", "new csv")], createDirectory: folder)
        #expect(Self.kind(folder + "/report.md") == S_IFLNK)
        #expect(try String(contentsOfFile: outside, encoding: .utf8) == "new report")
        #expect(mkfifo(folder + "/metrics.csv", 0o644) == 0)
        #expect(throws: WidgetQuotaError.self) {
            try AtomicFileWriter.write(
                files: [(folder + "/summary.csv", "newer csv"), (folder + "/metrics.csv", "x")], createDirectory: folder)
        }
        #expect(Self.kind(folder + "/metrics.csv") == S_IFIFO)
        #expect(try String(contentsOfFile: folder + "/summary.csv", encoding: .utf8) == "new csv")
        let left = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix(".") }
        #expect(left.isEmpty, "temporaries left: \(left)")
    }
}
