import Foundation
import Testing
import WidgetQuotaCLI
import WidgetQuotaSupport
import WidgetQuotaTestSupport

/// The verdict on standard error after `simulate --out` (and `report`), before the files written.
@Suite("Verdict on the terminal") struct VerdictTerminalTests {
    static let small = [
        "--designs", "direct,cache-bgtask", "--runs", "2", "--sample-users", "30", "--users", "1,30,1000", "--no-sensitivity",
    ]

    func temporaryDirectory() throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("wq-verdict-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test("simulate --out prints the verdict, a few lines per design and no table, before the files written")
    func verdictBeforeTheFilesWritten() throws {
        let dir = try temporaryDirectory() + "/out"
        let run = TestSupport.cli(["simulate"] + Self.small + ["--out", dir])
        #expect(run.code == .success)
        let verdict = try #require(run.err.range(of: "Verdict for 1,000 users (every population is in report.md):"))
        let wrote = try #require(run.err.range(of: "Wrote "))
        #expect(verdict.lowerBound < wrote.lowerBound)
        let text = String(run.err[verdict.lowerBound..<wrote.lowerBound])
        #expect(!text.contains("|"), "no tables")
        for design in ["direct", "cache-bgtask (the baseline)"] { #expect(text.contains("\n\(design): users see content older than")) }
        #expect(text.contains("  1,000 users: ") && !text.contains("  30 users: "), "the focus population, which is the largest here")
        let lines = text.split(separator: "\n")
        #expect(lines.count <= 1 + 4 * 2, "a few lines per design")
        // The same words as the report's verdict.
        let md = try String(contentsOfFile: dir + "/report.md", encoding: .utf8)
        let json = try JSONValue.parse(Data(try String(contentsOfFile: dir + "/report.json", encoding: .utf8).utf8), file: "report.json")
        for v in try #require(json["verdicts"]?.array) where v["users"]?.number == 1_000 {
            let reason = try #require(v["reason"]?.string)
            #expect(text.contains(reason) && md.contains(reason))
        }
    }

    @Test("--quiet silences the verdict")
    func quietSilencesIt() throws {
        let dir = try temporaryDirectory() + "/out"
        let run = TestSupport.cli(["simulate"] + Self.small + ["--out", dir, "--quiet"])
        #expect(run.code == .success)
        #expect(!run.err.contains("Verdict"))
    }

    @Test("simulate without --out prints no verdict on standard error (the report on standard output has it)")
    func noVerdictOnStandardErrorWithoutOut() {
        let run = TestSupport.cli(["simulate"] + Self.small + ["--quiet"])
        #expect(!run.err.contains("Verdict"))
        #expect(run.out.contains("## Verdict"))
    }
}
