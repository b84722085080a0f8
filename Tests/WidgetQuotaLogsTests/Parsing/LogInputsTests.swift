import Foundation
import Testing
import WidgetQuotaLogs
import WidgetQuotaSupport
import WidgetQuotaTestSupport

/// What `analyze` reads of its inputs: inside a folder regular files only, so a FIFO or a device
/// never makes it wait forever or read without end.
@Suite("Log inputs")
struct LogInputsTests {
    @Test("a FIFO and a device inside a folder are skipped with the reason; the logs beside them are read")
    func specialFilesInAFolderAreSkipped() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let folder = try tmp.subfolder()
        let log = try String(contentsOfFile: Fixtures.path("logs/trace.ndjson"), encoding: .utf8)
        try log.write(toFile: folder + "/a.ndjson", atomically: true, encoding: .utf8)
        #expect(mkfifo(folder + "/pipe", 0o644) == 0)
        try FileManager.default.createSymbolicLink(atPath: folder + "/zero.log", withDestinationPath: "/dev/zero")
        var analyzer = LogAnalyzer()
        try analyzer.read(path: folder)
        let a = analyzer.analysis()
        #expect(a.files.count == 1)
        #expect(a.notes.contains("Skipped \(folder)/pipe: it is a FIFO, not a regular file."), "\(a.notes)")
        #expect(a.notes.contains("Skipped \(folder)/zero.log: it is a character device, not a regular file."), "\(a.notes)")
    }

    @Test("a device named on the command line is refused, not read without end")
    func aDeviceIsRefused() throws {
        var analyzer = LogAnalyzer()
        do {
            try analyzer.read(path: "/dev/zero")
            Issue.record("expected an error")
        } catch let error as WidgetQuotaError {
            #expect(error.description.contains("character device"))
        }
    }
}
