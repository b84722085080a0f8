import Foundation
import Testing
import WidgetQuotaCLI
import WidgetQuotaTestSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What reaches standard output: a reader that goes away (`| head`) ends the run quietly, while
/// output that cannot be written (a full disk) makes the run fail with exit 74.
@Suite("standard output") struct StandardOutputTests {
    @Test("a closed pipe is not a failure") func aClosedPipeIsNotAFailure() throws {
        signal(SIGPIPE, SIG_IGN)  // as the program does, so the write fails with EPIPE instead
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        close(fds[0])
        defer { close(fds[1]) }
        #expect(FileHandleWriter.write(String(repeating: "row\n", count: 100_000), to: fds[1]) == nil)
    }

    #if os(Linux)
        @Test("a full disk is a failure") func aFullDiskIsAFailure() throws {
            let fd = open("/dev/full", O_WRONLY)
            try #require(fd >= 0)
            defer { close(fd) }
            let failure = FileHandleWriter.write("report\n", to: fd)
            #expect(failure != nil && failure!.lowercased().contains("space"), "\(failure ?? "nil")")
        }
    #endif

    @Test("a run whose output cannot be written exits 74") func aRunWhoseOutputCannotBeWrittenExits74() {
        var err = ""
        let console = Console(
            failableOut: { _ in "No space left on device" },
            failableErr: {
                err += $0
                return nil
            },
            stderrIsTerminal: false, environment: [:])
        let code = CLI.run(["designs"], console: console)
        #expect(code == .ioError)
        #expect(err.contains("cannot write to standard output: No space left on device"), "\(err)")
    }

    /// lint's findings exit 1, but a report that never reached its reader is the worse news.
    @Test("a lint run with findings whose output cannot be written exits 74") func lintWithFindingsExits74() {
        let console = Console(
            failableOut: { _ in "No space left on device" }, failableErr: { _ in nil }, stderrIsTerminal: false, environment: [:])
        let app = Fixtures.path("apps/broken-app")
        #expect(
            CLI.run(
                ["lint", app],
                console: Console(failableOut: { _ in nil }, failableErr: { _ in nil }, stderrIsTerminal: false, environment: [:]))
                == .thresholdFailed)
        #expect(CLI.run(["lint", app], console: console) == .ioError)
    }

    @Test("a run whose output is written succeeds") func aRunWhoseOutputIsWrittenSucceeds() {
        let console = Console(failableOut: { _ in nil }, failableErr: { _ in nil }, stderrIsTerminal: false, environment: [:])
        #expect(CLI.run(["designs"], console: console) == .success)
        #expect(console.outputFailure == nil)
    }
}

/// The counter line's time left reads as a person would say it.
@Suite("progress") struct ProgressTests {
    @Test(
        "time left in seconds, minutes, then hours and minutes",
        arguments: [(0.2, "1 s"), (45, "45 s"), (200, "3 min"), (7_800, "2 h 10 min")])
    func timeLeft(seconds: Double, text: String) {
        #expect(TimeLeft.text(seconds) == text)
    }
}
