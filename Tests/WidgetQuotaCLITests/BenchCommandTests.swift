import Foundation
import Testing
import WidgetQuotaLogs
import WidgetQuotaStudies
import WidgetQuotaSupport
import WidgetQuotaTestSupport
import WidgetQuotaTools

/// `bench` prints figures, never judges them (targets are not timed tests); these check its
/// contract: the parts asked for, in a JSON shape scripts can read, and a clear usage error.
@Suite("bench command") struct BenchCommandTests {
    @Test("engine figures are machine readable") func engineFiguresAreMachineReadable() throws {
        let run = TestSupport.cli(["bench", "--only", "engine", "--users", "10", "--threads", "2", "--json"])
        #expect(run.code == .success, "\(run.err)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
        let engine = try #require(json["engine"] as? [[String: Any]])
        #expect(engine.map { $0["threads"] as? Int } == [1, 2])
        for figure in engine {
            let userDays = try #require(figure["userDays"] as? Int)
            // 8 presets × 2 runs × 10 users × the simulated days of each (padding, warm-up, 30, tail).
            #expect(userDays == 8 * 2 * 10 * 33)
            #expect((figure["userDaysPerSecond"] as? Double ?? 0) > 0)
        }
        #expect(json["parse"] as? [Any] == nil || (json["parse"] as? [Any])?.isEmpty == true)
        #expect(json["simulateSeconds"] == nil)
    }

    /// Each style is parsed from its own export, every round: styles that share a file name
    /// ending (trace and `log show` NDJSON, the three text styles) must not read each other's.
    @Test("parse figures come from each styles own export") func parseFiguresComeFromEachStylesOwnExport() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let styles: [TraceGenerator.Style] = [.trace, .traceCSV, .ndjson, .default, .compact]
        let bench = ParserBenchmark(targetBytes: 64 << 10, rounds: 2, daysPerDevice: 3)
        let figures = try bench.measure(styles: styles, directory: tmp.path)
        #expect(figures.map(\.style) == styles.map(\.rawValue))
        // Each figure counts the lines of its own style's export, generated again here alone.
        for (style, figure) in zip(styles, figures) {
            let path = try tmp.file("", name: "alone.\(style.fileExtension)")
            let bytes = try bench.generate(style: style, path: path)
            var source = try FileDescriptorSource(path: path)
            defer { source.close() }
            let newlines = try ParserBenchmark.countNewlines(in: &source)
            #expect(figure.bytes == bytes, "\(style)")
            // The analyzer also counts a last line without a newline (the Apple styles' footer has one).
            #expect(figure.lines == newlines, "\(style): \(figure.lines) lines read, \(newlines) in the file")
        }
        for f in figures {
            #expect(f.bytes >= 64 << 10 && f.lines > 0, "\(f.style)")
            #expect(f.roundSeconds.count == 2 && f.seconds == f.roundSeconds.min(), "\(f.style)")
            #expect(f.megabytesPerSecond > 0 && f.newlineCountMegabytesPerSecond > 0, "\(f.style)")
        }
    }

    /// The memory part runs `simulate` in child processes: its command line must stay valid.
    @Test("memory job is a valid simulate command") func memoryJobIsAValidSimulateCommand() throws {
        let bench = MemoryBenchmark(users: [60])
        let run = TestSupport.cli(bench.arguments(users: 60, threads: 1))
        #expect(run.code == .success, "\(run.err)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
        let rows = try #require(json["results"] as? [[String: Any]])
        #expect(rows.map { $0["design"] as? String } == [bench.design])
        #expect(rows.map { $0["method"] as? String } == ["exact"])
    }

    @Test("child process reports its exit and usage") func childProcessReportsItsExitAndUsage() throws {
        let usage = try ChildProcess.run("/bin/sh", ["-c", "exit 0"])
        #expect(usage.peakResidentBytes > 0 && usage.seconds >= 0)
        #if os(Linux)
            // Read from /proc (VmHWM, tab-separated): a plausible size for this test process. It is not
            // compared with getrusage's peak, which reflects the resident size at another moment and
            // may be lower while other tests free memory.
            let image = try #require(ResourceUsage.imageHighWaterBytes())
            #expect(image > 1 << 20 && UInt64(image) < ProcessInfo.processInfo.physicalMemory)
        #endif
        #expect(throws: WidgetQuotaError.self) { try ChildProcess.run("/bin/sh", ["-c", "exit 3"]) }
        do {
            _ = try ChildProcess.run("/nonexistent/widget-quota", [])
            Issue.record("a missing program must not run")
        } catch let error as WidgetQuotaError {
            #expect(error.exitCode == .internalError)
            #expect(error.description.contains("/nonexistent/widget-quota"))
        }
    }

    @Test("unknown part is a usage error") func unknownPartIsAUsageError() {
        let run = TestSupport.cli(["bench", "--only", "everything"])
        #expect(run.code == .usage)
        #expect(run.err.contains("--only expects engine, memory, simulate, parse, lint or commands"))
    }
}
