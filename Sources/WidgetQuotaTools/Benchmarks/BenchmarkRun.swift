import Foundation
import WidgetQuotaKit
import WidgetQuotaModel
import WidgetQuotaSimulation
import WidgetQuotaStudies
import WidgetQuotaSupport

/// The job behind `bench`: performance figures for this machine, part by part.
package struct BenchmarkRun: Sendable {
    /// A part of the benchmark, run alone with `--only`.
    package enum Part: String, Sendable, CaseIterable {
        case engine, memory, simulate, parse, lint, commands
    }

    /// The one part to run (nil: every part).
    package var only: Part?
    /// Threads for the multi-threaded figures.
    package var threads = Parallel.defaultThreads
    /// Users per design in the engine benchmark.
    package var engineUsers = 4_000
    /// The size of each generated export for the parser benchmark.
    package var parseBytes = 200 << 20

    package init(only: Part? = nil) { self.only = only }

    /// The figures, as `bench --json` writes them.
    package struct Report: Codable, Sendable {
        var cores: Int
        var engine: [EngineBenchmark.Figure] = []
        var simulateSeconds: Double?
        /// The process's peak resident memory after the simulate part: its own only with `--only simulate`.
        var simulatePeakMemoryMiB: Double?
        /// True when parts that ran before it (parsing) may have set `simulatePeakMemoryMiB`.
        var simulatePeakMemoryIncludesEarlierParts: Bool?
        var simulateCPUSeconds: Double?
        /// The commands' times (`CommandBenchmark`).
        var commands: [CommandBenchmark.Figure] = []
        var parse: [ParserBenchmark.Figure] = []
        /// Times each format was parsed (its figure is its fastest).
        var parseRounds: Int?
        /// Peak memory of the same job at growing numbers of users simulated event by event.
        var memory: [MemoryBenchmark.Figure] = []
        /// This process's peak memory (its image's, Linux only) when it started the memory jobs:
        /// on Linux no reading of theirs can be below it.
        var memoryLauncherPeakMiB: Double?
        /// Reading a generated Swift tree for `lint`.
        var lint: LintBenchmark.Figure?
    }

    package func measure() throws -> Report {
        var report = Report(cores: Parallel.defaultThreads)
        // The memory jobs first: each runs as a child process of this very program, so each peak
        // is its own, except that Linux starts a child's peak reading at the high-water mark of
        // its parent's memory image (the child runs in that image until exec). This process is
        // still as small as a starting child here.
        if only == nil || only == .memory {
            guard let executable = Bundle.main.executablePath else {
                throw WidgetQuotaError.childProcessFailed(
                    command: "widget-quota",
                    problem:
                        "cannot find this program's own path to run the memory jobs; run the others with --only engine, simulate or parse")
            }
            report.memoryLauncherPeakMiB = ResourceUsage.imageHighWaterBytes().map { Double($0) / 1_048_576 }
            report.memory = try MemoryBenchmark().measure(executable: executable, threads: threads)
        }
        // Parsing next, so its peak memory is measured before the engine allocates anything.
        if only == nil || only == .parse {
            let bench = ParserBenchmark(targetBytes: parseBytes)
            report.parse = try bench.measure(styles: TraceGenerator.Style.allCases, directory: FileManager.default.temporaryDirectory.path)
            report.parseRounds = bench.rounds
        }
        if only == nil || only == .lint {
            report.lint = try LintBenchmark().measure(
                directory: FileManager.default.temporaryDirectory.path, executable: Bundle.main.executablePath)
        }
        if only == nil || only == .engine {
            let bench = EngineBenchmark(users: engineUsers)
            _ = bench.measure(threads: threads)  // warm caches and page in the code
            report.engine = [bench.measure(threads: 1), bench.measure(threads: threads)]
        }
        if only == nil || only == .simulate {
            let cpuBefore = ResourceUsage.cpuSeconds()
            let (_, seconds) = ResourceUsage.time { MonteCarloEngine(scenario: Scenario(), threads: threads).run() }
            report.simulateSeconds = seconds
            report.simulateCPUSeconds = ResourceUsage.cpuSeconds() - cpuBefore
            report.simulatePeakMemoryMiB = Double(ResourceUsage.peakResidentBytes()) / 1_048_576
            report.simulatePeakMemoryIncludesEarlierParts = only == nil
        }
        if only == nil || only == .commands {
            let logs = FileManager.default.fileExists(atPath: "SampleLogs") ? "SampleLogs" : nil
            report.commands = try CommandBenchmark(logs: logs, threads: threads).measure()
        }
        return report
    }

    /// Measures and renders the figures: as text, or as JSON with `json`.
    package func output(json: Bool) throws -> JobOutput {
        let report = try measure()
        if json { return .standardOutput(try JSONOutput.encode(report)) }
        return .standardOutput("widget-quota bench — \(report.cores) cores\n\n" + Self.sections(report).joined(separator: "\n"))
    }

    /// The figures as text, one section per part measured (each ends with a newline).

    private static func sections(_ report: Report) -> [String] {
        var sections = [String]()
        if !report.parse.isEmpty {
            var t = MarkdownTable(["Format", "MiB", "Lines", "MB/s", "Lines/s", "Newline count MB/s (ceiling)", "Peak memory MiB"])
            for f in report.parse {
                t.append([
                    f.style, NumberText.human(Double(f.bytes) / 1_048_576), NumberText.human(Double(f.lines)),
                    NumberText.human(f.megabytesPerSecond), NumberText.human(f.linesPerSecond),
                    NumberText.human(f.newlineCountMegabytesPerSecond), NumberText.human(f.peakMemoryMiB),
                ])
            }
            sections.append(
                "Parsing with `analyze`, one core (MB = MiB; every format parsed \(report.parseRounds ?? 1) times, "
                    + "interleaved, and its fastest kept):\n\n" + t.markdown)
        }
        if let f = report.lint {
            sections.append(
                "Reading an app's source for `lint`, one core (fastest of \(f.roundSeconds.count) rounds): "
                    + "\(NumberText.human(Double(f.lines))) lines in \(f.files) Swift files "
                    + "(\(NumberText.human(Double(f.bytes) / 1_048_576)) MiB, \(NumberText.human(Double(f.tokens))) tokens, "
                    + "\(NumberText.human(Double(f.calls))) calls) in \(NumberText.fixed(f.seconds, digits: 3)) s, "
                    + "\(NumberText.human(f.linesPerSecond)) lines/s; the whole lint run (rules and design included, "
                    + "\(NumberText.human(Double(f.findings))) findings) in \(NumberText.fixed(f.runSeconds, digits: 3)) s"
                    + (f.processSeconds.map { s in
                        "; `widget-quota lint` as a process of its own in \(NumberText.fixed(s, digits: 3)) s, peak memory "
                            + "\(NumberText.human(Double(f.processPeakBytes ?? 0) / 1_048_576)) MiB"
                    } ?? "") + " (target: under 10 s and 300 MiB on two cores)\n")
        }
        if !report.engine.isEmpty {
            var text = "Engine (all \(DesignPresets.all.count) presets, per-minute aggregation on):\n"
            for f in report.engine {
                text +=
                    "  \(f.threads) thread\(f.threads == 1 ? " " : "s"): \(NumberText.human(f.userDaysPerSecond)) user-days/s "
                    + "(\(NumberText.human(Double(f.userDays))) user-days in \(NumberText.fixed(f.seconds, digits: 2)) s; "
                    + "\(NumberText.human(f.userDaysPerCPUSecond)) per CPU-second)\n"
            }
            if report.engine.count == 2 {
                text +=
                    "  scaling: \(NumberText.fixed(report.engine[1].userDaysPerSecond / report.engine[0].userDaysPerSecond, digits: 2))× "
                    + "with \(report.engine[1].threads) threads\n"
            }
            sections.append(text)
        }
        if let first = report.memory.first, let last = report.memory.last {
            let bench = MemoryBenchmark()
            var text =
                "Memory (`simulate --designs \(bench.design)`, \(bench.runs) runs, every user simulated event by event, "
                + "each job a process of its own):\n"
            for f in report.memory {
                text +=
                    "  \(NumberText.human(Double(f.users))) users: peak \(NumberText.human(f.peakMemoryMiB)) MiB "
                    + "(\(NumberText.human(Double(f.userDays))) user-days in \(NumberText.fixed(f.seconds, digits: 2)) s)\n"
            }
            if report.memory.count > 1 {
                text +=
                    "  growth: \(NumberText.fixed(last.peakMemoryMiB / first.peakMemoryMiB, digits: 2))× the memory for "
                    + "\(NumberText.human(Double(last.users) / Double(first.users)))× the users\n"
            }
            if let floor = report.memoryLauncherPeakMiB {
                text +=
                    "  (no reading can be below \(NumberText.human(floor)) MiB: on Linux a child starts from this process's peak at launch)\n"
            }
            sections.append(text)
        }
        if let seconds = report.simulateSeconds, let memory = report.simulatePeakMemoryMiB {
            sections.append(
                "Default simulate (all presets, 1 to 1,000,000 users): \(NumberText.fixed(seconds, digits: 2)) s"
                    + " (\(NumberText.fixed(report.simulateCPUSeconds ?? 0, digits: 2)) CPU-seconds), "
                    + (report.simulatePeakMemoryIncludesEarlierParts == true
                        ? "peak memory of the whole benchmark \(NumberText.human(memory)) MiB (`--only simulate` for its own)\n"
                        : "peak memory \(NumberText.human(memory)) MiB\n"))
        }
        if !report.commands.isEmpty {
            var t = MarkdownTable(["Command", "Fastest s", "Median s", "CPU-s (fastest)", "Rounds s"])
            for f in report.commands {
                t.append([
                    "`\(f.command)`", NumberText.fixed(f.minSeconds, digits: 2), NumberText.fixed(f.medianSeconds, digits: 2),
                    NumberText.fixed(f.cpuSecondsOfFastest, digits: 2),
                    f.roundSeconds.map { NumberText.fixed($0, digits: 2) }.joined(separator: ", "),
                ])
            }
            sections.append("Commands (their jobs in this process, files not written; rounds interleaved):\n\n" + t.markdown)
        }
        return sections
    }
}
