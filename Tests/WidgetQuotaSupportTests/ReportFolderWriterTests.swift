import Foundation
import Testing
import WidgetQuotaSupport
import WidgetQuotaTestSupport

/// A report folder is replaced in one swap: the old report or the new one, never a mix; files that
/// are not the report's stay; what a killed run left is tidied by the next one.
@Suite("Report folder writer")
struct ReportFolderWriterTests {
    /// A process id no system hands out (above every `pid_max`), standing for a run that was killed.
    static let deadPID = "999999999"
    static let own = ["report.md", "summary.csv", "sweep-ttl.csv"]

    static func read(_ path: String) -> String? { try? String(contentsOfFile: path, encoding: .utf8) }
    static func inode(_ path: String) -> UInt64 {
        var info = stat()
        return lstat(path, &info) == 0 ? UInt64(info.st_ino) : 0
    }
    static func names(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }
    static func write(_ folder: String, _ files: [String: String]) throws {
        try AtomicFileWriter.replaceSet(
            files: files.sorted { $0.key < $1.key }.map { StagedFile(folder + "/" + $0.key, text: $0.value) }, in: folder, ownNames: own)
    }

    /// A file's contents are made when it is written, once, in the set's order: a folder of many
    /// large files (a trace of 100,000 devices) never holds them all in memory.
    @Test("contents are made as each file is written, once each, in order")
    func contentsAreMadeOnWrite() throws {
        let tmp = try TemporaryDirectory()
        let folder = tmp.path + "/Reports"
        // Written from the writer's thread and read here: a lock, as macOS 14 has no `Mutex`.
        final class Made: @unchecked Sendable {
            private let lock = NSLock()
            private var names = [String]()
            func add(_ name: String) { lock.withLock { names.append(name) } }
            var all: [String] { lock.withLock { names } }
        }
        let made = Made()
        let files = ["a.md", "b.md", "c.md"].map { name in
            StagedFile(folder + "/" + name) {
                made.add(name)
                return Data(name.utf8)
            }
        }
        #expect(made.all.isEmpty)
        try AtomicFileWriter.replaceSet(files: files, in: folder, ownNames: [])
        #expect(made.all == ["a.md", "b.md", "c.md"])
        #expect(try String(contentsOfFile: folder + "/b.md", encoding: .utf8) == "b.md")
    }

    @Test("the folder is swapped: new report, old own files gone, foreign files and links kept, mode kept, nothing left beside it")
    func swapKeepsForeignFiles() throws {
        let tmp = try TemporaryDirectory()
        let folder = tmp.path + "/Reports"
        try Self.write(folder, ["report.md": "old", "summary.csv": "old", "sweep-ttl.csv": "old"])
        try "mine".write(toFile: folder + "/notes.txt", atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: folder + "/latest", withDestinationPath: "notes.txt")
        chmod(folder, 0o750)
        let before = Self.inode(folder)
        let notes = Self.inode(folder + "/notes.txt")

        try Self.write(folder, ["report.md": "new", "summary.csv": "new"])

        #expect(Self.inode(folder) != before, "replaced by a swap, not file by file")
        #expect(Self.names(folder) == ["latest", "notes.txt", "report.md", "summary.csv"])
        #expect(Self.read(folder + "/report.md") == "new")
        #expect(Self.read(folder + "/notes.txt") == "mine")
        #expect(Self.inode(folder + "/notes.txt") == notes, "the same file, linked, not a copy")
        #expect(Self.read(folder + "/latest") == "mine")
        #expect(ReportFolderWriterTests.mode(folder) == 0o750)
        #expect(Self.names(tmp.path) == ["Reports"], "no staging folder left")
    }

    static func mode(_ path: String) -> mode_t {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o7777 : 0
    }

    @Test("a staging folder a killed run left is tidied: its own files go, a file it alone holds moves in, twins go")
    func staleStagingIsTidied() throws {
        let tmp = try TemporaryDirectory()
        let folder = tmp.path + "/Reports"
        try Self.write(folder, ["report.md": "old"])
        try "mine".write(toFile: folder + "/notes.txt", atomically: false, encoding: .utf8)
        // Killed after the swap: the old report and a link to notes.txt sit in the staging
        // folder, with a file someone dropped in meanwhile.
        let stale = tmp.path + "/.Reports.wq-staging-" + Self.deadPID
        try FileManager.default.createDirectory(atPath: stale, withIntermediateDirectories: false)
        try "older".write(toFile: stale + "/report.md", atomically: false, encoding: .utf8)
        #expect(link(folder + "/notes.txt", stale + "/notes.txt") == 0)
        try "dropped".write(toFile: stale + "/dropped.txt", atomically: false, encoding: .utf8)
        // A staging folder of a running process (pid 1) is left alone.
        let running = tmp.path + "/.Reports.wq-staging-1"
        try FileManager.default.createDirectory(atPath: running, withIntermediateDirectories: false)

        try Self.write(folder, ["report.md": "new"])

        #expect(!FileManager.default.fileExists(atPath: stale))
        #expect(FileManager.default.fileExists(atPath: running))
        #expect(Self.names(folder) == ["dropped.txt", "notes.txt", "report.md"])
        #expect(Self.read(folder + "/report.md") == "new")
        #expect(Self.read(folder + "/dropped.txt") == "dropped")
    }

    @Test("temporaries of the report's files that a killed run left are removed; others are not the report's")
    func staleTemporariesAreRemoved() throws {
        let tmp = try TemporaryDirectory()
        let folder = tmp.path + "/Reports"
        try Self.write(folder, ["report.md": "old"])
        for name in [".report.md.tmp-" + Self.deadPID, ".notes.txt.tmp-" + Self.deadPID, ".summary.csv.tmp-1"] {
            try "x".write(toFile: folder + "/" + name, atomically: false, encoding: .utf8)
        }
        try Self.write(folder, ["report.md": "new"])
        #expect(Self.names(folder) == [".notes.txt.tmp-" + Self.deadPID, ".summary.csv.tmp-1", "report.md"])
    }

    @Test("a folder holding a subfolder is written file by file: the subfolder and the folder stay")
    func subfolderMeansFileByFile() throws {
        let tmp = try TemporaryDirectory()
        let folder = tmp.path + "/Reports"
        try Self.write(folder, ["report.md": "old", "sweep-ttl.csv": "old"])
        try FileManager.default.createDirectory(atPath: folder + "/archive", withIntermediateDirectories: false)
        let before = Self.inode(folder)
        try Self.write(folder, ["report.md": "new"])
        #expect(Self.inode(folder) == before)
        #expect(Self.names(folder) == ["archive", "report.md"])
        #expect(Self.read(folder + "/report.md") == "new")
    }

    @Test("a new folder is created whole, parents too; a folder named by a link is swapped behind the link")
    func newFolderAndLinkedFolder() throws {
        let tmp = try TemporaryDirectory()
        let nested = tmp.path + "/a/b/Reports"
        try Self.write(nested, ["report.md": "first"])
        #expect(Self.read(nested + "/report.md") == "first")
        #expect(Self.names(tmp.path + "/a/b") == ["Reports"])

        let link = tmp.path + "/current"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "a/b/Reports")
        try Self.write(link, ["report.md": "second"])
        var info = stat()
        #expect(lstat(link, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK)
        #expect(Self.read(nested + "/report.md") == "second")
        #expect(Self.names(tmp.path + "/a/b") == ["Reports"])
    }

    @Test("a report file that is a link is written through it; one that is a FIFO refuses the set and changes nothing")
    func linksAndFIFOsInTheSet() throws {
        let tmp = try TemporaryDirectory()
        let folder = tmp.path + "/Reports"
        try Self.write(folder, ["summary.csv": "old"])
        let outside = try tmp.file("kept", name: "elsewhere.md")
        try FileManager.default.createSymbolicLink(atPath: folder + "/report.md", withDestinationPath: outside)
        try Self.write(folder, ["report.md": "through", "summary.csv": "new"])
        var info = stat()
        #expect(lstat(folder + "/report.md", &info) == 0 && info.st_mode & S_IFMT == S_IFLNK)
        #expect(Self.read(outside) == "through")

        #expect(mkfifo(folder + "/sweep-ttl.csv", 0o644) == 0)
        #expect(throws: WidgetQuotaError.self) { try Self.write(folder, ["summary.csv": "newer", "sweep-ttl.csv": "x"]) }
        #expect(Self.read(folder + "/summary.csv") == "new")
        #expect(Self.names(tmp.path).filter { $0.hasPrefix(".") }.isEmpty)
    }

    @Test("a path that is a file, not a folder, is refused; so is a link to nothing, which stays")
    func fileIsNotAFolder() throws {
        let tmp = try TemporaryDirectory()
        let file = try tmp.file("x", name: "Reports")
        #expect(throws: WidgetQuotaError.self) { try Self.write(file, ["report.md": "new"]) }
        #expect(Self.read(file) == "x")
        let dangling = tmp.path + "/Dangling"
        try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: "nowhere")
        #expect(throws: WidgetQuotaError.self) { try Self.write(dangling, ["report.md": "new"]) }
        var info = stat()
        #expect(lstat(dangling, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK)
    }
}
