import Foundation
import WidgetQuotaKit
import WidgetQuotaModel
import WidgetQuotaSimulation
import WidgetQuotaStudies
import WidgetQuotaSupport
import WidgetQuotaTools

/// `widget-quota bench`: performance figures for this machine (targets live here, not in tests).
struct BenchCommand: Command {
    static let only = Option.valued(
        "only", "PART", "run one part only: \(ParsedArguments.orList(BenchmarkRun.Part.allCases.map(\.rawValue))) (default: every part)"
    ).choosing(BenchmarkRun.Part.allCases.map(\.rawValue))
    static let users = Option.valued("users", "N", "users per design in the engine benchmark (default 4000)")
    static let parseMiB = Option.valued("parse-mb", "N", "size of each generated export in MiB (default 200)")
    static let threads = Option.valued("threads", "N", "threads for the multi-threaded figure (default: all cores)")
    static let json = Option.flag("json", "machine-readable figures")

    static let spec = CommandSpec(
        name: "bench",
        summary: "Measure engine and parser speed and memory on this machine",
        discussion: """
            Prints, for this machine (build with -c release first):
              engine     simulated user-days per second, 1 thread and all threads, per-minute aggregation on
              memory     peak memory of `simulate` at 10,000 and 1,000,000 users simulated event by event,
                         each run as a child process (memory must not grow with the users simulated)
              simulate   wall time of the default `simulate` and peak memory (1,000,000 users projected)
              commands   the time of `report`, the default `simulate`, `simulate --designs cache-bgtask
                         --users 1000` and `sweep` (their jobs, files not written), in 3 interleaved
                         rounds: fastest and median (`report` analyses SampleLogs when it is here)
              parse      MB/s and lines/s of `analyze` for each log format on a generated export of at
                         least 200 MB streamed in bounded memory, against counting newlines (`wc -l`);
                         the formats are parsed in 3 interleaved rounds and each keeps its fastest
                         (meanwhile the exports take up to \(NumberText.human(Double(ParserBenchmark.temporaryMiB(200 << 20)))) MiB of temporary space)
              lint       time to read a generated 250,000-line Swift app tree for `lint` (list, read, lex and
                         index every file, read its property lists, assign targets), and to lint it (reading,
                         every rule, directives, the design read from the code), fastest of 3 rounds each
            """,
        options: [only, users, parseMiB, threads, json],
        examples: [
            "swift run -c release widget-quota bench",
            "swift run -c release widget-quota bench --only engine --users 10000",
        ])

    let job: BenchmarkRun
    let asJSON: Bool

    init(_ a: ParsedArguments) throws {
        try a.expectNoPositionals()
        var job = BenchmarkRun(only: a.has(Self.only) ? try a.choice(Self.only, default: BenchmarkRun.Part.engine) : nil)
        job.threads = try a.int(Self.threads, min: 1, max: 1_024) ?? Parallel.defaultThreads
        job.engineUsers = try a.int(Self.users, min: 10, max: 10_000_000) ?? 4_000
        job.parseBytes = (try a.int(Self.parseMiB, min: 1, max: 100_000) ?? 200) << 20
        self.job = job
        asJSON = a.flag(Self.json)
    }

    func run(console: Console) throws -> JobOutput { try job.output(json: asJSON) }
}
