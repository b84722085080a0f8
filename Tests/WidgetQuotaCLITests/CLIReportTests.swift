import Foundation
import Testing
import WidgetQuotaCLI
import WidgetQuotaSupport
import WidgetQuotaTestSupport

@Suite("CLI report") struct CLIReportTests {
    static let small = ["--designs", "direct,cache-bgtask", "--runs", "2", "--sample-users", "30", "--users", "1,30", "--quiet"]

    @Test("failed threshold exits one after writing every file") func failedThresholdExitsOneAfterWritingEveryFile() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let dir = tmp.path + "/out"
        let run = TestSupport.cli(
            ["simulate"] + Self.small + [
                "--no-sensitivity", "--out", dir,
                "--fail-if", "requestsPerUserMonth.mean{design=direct} > 10",
                "--warn-if", "staleShare > 100%",
            ])
        #expect(run.code == .thresholdFailed)
        #expect(run.err.contains("threshold FAILED: requestsPerUserMonth.mean{design=direct} > 10"))
        let files = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        #expect(
            files == [
                "busiest-day-by-users.svg", "cost-by-users.svg", "metrics.csv", "report.html", "report.json", "report.md",
                "requests-by-users.svg", "summary.csv",
                "tradeoff.svg", "typical-day.svg",
            ])
        let md = try String(contentsOfFile: dir + "/report.md", encoding: .utf8)
        #expect(md.contains("**FAILED**") && md.contains("![Requests per month"))
    }

    @Test("warnings and passes exit zero") func warningsAndPassesExitZero() {
        let run = TestSupport.cli(
            ["simulate"] + Self.small + [
                "--no-sensitivity", "--format", "json",
                "--warn-if", "requestsPerUserMonth.mean{design=direct} > 10",
                "--fail-if", "quotaExceedProbability{tier=tier3} > 0.5",
            ])
        #expect(run.code == .success)
        #expect(run.err.contains("threshold warning:"))
        #expect(run.out.hasPrefix("{"))
    }

    @Test(
        "bad thresholds are data errors and write nothing",
        arguments: [
            ("requestsPerUserMonth.p95 >", ExitCode.dataError), ("nosuchMetric > 1", .dataError),
            ("requestsPerUserMonth.p95{design=nope} > 1", .dataError),
        ])
    func badThresholdsAreDataErrorsAndWriteNothing(expression: String, code: ExitCode) throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let dir = tmp.path + "/out"
        let run = TestSupport.cli(["simulate"] + Self.small + ["--no-sensitivity", "--out", dir, "--fail-if", expression])
        #expect(run.code == code)
        #expect(run.err.contains("threshold '\(expression)'"))
        #expect(!FileManager.default.fileExists(atPath: dir))
    }

    @Test("diff of a report with itself shows no change") func diffOfAReportWithItselfShowsNoChange() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let run = TestSupport.cli(["simulate"] + Self.small + ["--no-sensitivity", "--format", "json"])
        let path = try tmp.file(run.out, name: "report.json")
        let diff = TestSupport.cli(["diff", path, path])
        #expect(diff.code == .success)
        #expect(diff.out.contains("**No change**"))
        #expect(!diff.out.contains("Assumptions that changed"))
        #expect(!diff.out.contains("### Changed rows"))
        // Every row is in the folded table, and each says it is unchanged.
        let tables = try GFMTables.parse(diff.out)
        #expect(tables.count == 1 && tables[0].rows.count == 4)
        #expect(tables[0].rows.allSatisfy { $0.last == "unchanged" })
    }

    /// Both reports share seed, runs and sample, so a change is real when the whole spread moves:
    /// HEAD moves the mean and both percentiles of cache-bgtask at 1,000 users.
    @Test("diff shows changes tiers and changed assumptions") func diffShowsChangesTiersAndChangedAssumptions() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let base = try Fixtures.report("tiny-report.json")
        let head = base.replacingOccurrences(
            of: "\"mean\": 91000, \"p5\": 85000, \"p95\": 97000", with: "\"mean\": 120000, \"p5\": 110000, \"p95\": 130000"
        )
        .replacingOccurrences(of: "\"max\": 0.4", with: "\"max\": 0.6")
        .replacingOccurrences(
            of: "{ \"tier\": \"tier1\", \"exceedProbability\": 0.04 }", with: "{ \"tier\": \"tier1\", \"exceedProbability\": 0.5 }")
        let basePath = try tmp.file(base, name: "base.json")
        let headPath = try tmp.file(head, name: "head.json")
        let diff = TestSupport.cli(["diff", basePath, headPath, "--fail-if", "requestsPerMonth{design=cache-bgtask,users=1000} > 100000"])
        #expect(diff.code == .thresholdFailed)
        #expect(
            diff.out.contains(
                "| cache-bgtask | 1,000 | 91,000 → 120,000 (▲ 32%, **worse**) | $9.60 | tier1 → above tier1 (more expensive tier, **worse**) |"
            ), "\(diff.out)")
        #expect(diff.out.contains("- `population.smartStackShare.max`: 0.4 → 0.6\n"))
        #expect(diff.out.contains("| Design | Users | Requests a month | Cost a month | Tier |"))
        #expect(diff.out.contains("**Worse**: more requests and a more expensive tier, nothing gained"))
        _ = try GFMTables.parse(diff.out)
    }

    /// A price change moves cost, not requests: the headline says so, and the prices are listed
    /// with the assumptions that changed, to six significant digits however small. The cost's
    /// whole spread doubles, as a price change does.
    @Test("diff of a price change names the cost and the prices") func diffOfAPriceChangeNamesTheCostAndThePrices() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let base = try Fixtures.report("tiny-report.json")
            .replacingOccurrences(of: "\"cost\": { \"model\": \"m\",", with: "\"cost\": { \"model\": \"m\", \"inputCostPerToken\": 3e-07,")
        let head = base.replacingOccurrences(of: "\"inputCostPerToken\": 3e-07", with: "\"inputCostPerToken\": 6e-07")
            .replacingOccurrences(of: "\"mean\": 9.5, \"p5\": 9, \"p95\": 10", with: "\"mean\": 19, \"p5\": 18, \"p95\": 20")
        let basePath = try tmp.file(base, name: "base.json")
        let headPath = try tmp.file(head, name: "head.json")
        let diff = TestSupport.cli(["diff", basePath, headPath])
        #expect(diff.code == .success, "\(diff.err)")
        #expect(
            diff.out.contains("**direct** at 100 users: requests a month 90,000 (same) · cost a month $9.50 → $19.00 (▲ 100%, **worse**)"),
            "\(diff.out.prefix(600))")
        #expect(diff.out.contains("**Worse**: higher cost, nothing gained; changed at 1 of 2 user counts."))
        #expect(diff.out.contains("1 assumption changed (listed below)."))
        #expect(diff.out.contains("`prices.inputCostPerToken`: 0.0000003 → 0.0000006"))
    }

    /// Dropping a design from a report is one changed list of designs and rows removed in head,
    /// not a change at every later position, nor "changed" rows.
    @Test("diff of a dropped design says what was removed") func diffOfADroppedDesignSaysWhatWasRemoved() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let common = ["--runs", "2", "--sample-users", "30", "--users", "1,30", "--quiet", "--no-sensitivity", "--format", "json"]
        let base = TestSupport.cli(["simulate", "--designs", "direct,cache-on-open,cache-bgtask"] + common)
        let head = TestSupport.cli(["simulate", "--designs", "direct,cache-bgtask"] + common)
        let basePath = try tmp.file(base.out, name: "base.json")
        let headPath = try tmp.file(head.out, name: "head.json")
        let diff = TestSupport.cli(["diff", basePath, headPath])
        #expect(diff.code == .success, "\(diff.err)")
        #expect(diff.out.contains("`method.designs`: direct, cache-on-open, cache-bgtask → direct, cache-bgtask"), "\(diff.out)")
        #expect(!diff.out.contains("designs[1]"))
        #expect(diff.out.contains("**cache-on-open**: 2 rows removed in head."), "\(diff.out.prefix(600))")
        #expect(diff.out.contains("| cache-on-open (removed in head) | 30 | "))
    }

    @Test("diff reports missing and invalid inputs") func diffReportsMissingAndInvalidInputs() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        #expect(TestSupport.cli(["diff", "/nonexistent/a.json", "/nonexistent/b.json"]).code == .noInput)
        let notReport = try tmp.file("{\"hello\": 1}", name: "x.json")
        #expect(TestSupport.cli(["diff", notReport, notReport]).code == .dataError)
        #expect(TestSupport.cli(["diff", notReport]).code == .usage)
    }

    @Test("every command has help with examples and exit codes", arguments: ["simulate", "diff", "scenario", "designs"])
    func everyCommandHasHelpWithExamplesAndExitCodes(command: String) {
        let run = TestSupport.cli([command, "--help"])
        #expect(run.code == .success)
        #expect(run.out.contains("Usage: widget-quota \(command)"))
        #expect(run.out.contains("Examples:"))
        #expect(run.out.contains("Exit codes:") && run.out.contains("64  usage error"))
    }

    /// Exit code 1 is listed by exactly the commands that take `--fail-if`; the others reject it.
    @Test(
        "exit code one is listed only where thresholds are taken",
        arguments: [
            ("simulate", true), ("diff", true), ("report", true), ("scenario", false), ("designs", false),
            ("sweep", false), ("analyze", true), ("trace", false), ("bench", false),
        ])
    func exitCodeOneIsListedOnlyWhereThresholdsAreTaken(command: String, takesThresholds: Bool) {
        let help = TestSupport.cli([command, "--help"])
        #expect(help.out.contains("a --fail-if threshold failed") == takesThresholds, "\(command) --help")
        if !takesThresholds {
            let run = TestSupport.cli([command, "--fail-if", "requestsPerMonth > 1"])
            #expect(run.code == .usage, "\(command) --fail-if: \(run.err)")
        }
    }

    @Test("version and tidy CSV on standard output") func versionAndTidyCSVOnStandardOutput() throws {
        #expect(TestSupport.cli(["--version"]).out == "widget-quota \(WidgetQuotaVersion.current)\n")
        let run = TestSupport.cli(["simulate"] + Self.small + ["--no-sensitivity", "--format", "csv-long"])
        #expect(run.code == .success && run.err.isEmpty)
        #expect(try StrictCSV.parse(run.out)[0] == ["design", "users", "tier", "metric", "statistic", "value"])
    }
}

@Suite("exit code docs") struct ExitCodeDocsTests {
    @Test("README's exit-code table says what ExitCode says, code for code", arguments: ExitCode.allCases)
    func readmeListsEveryExitCode(code: ExitCode) throws {
        let table = try SourceTree.text("README.md").components(separatedBy: "## Exit codes").last ?? ""
        // The README's row with its code spans read as plain text.
        let row = table.split(separator: "\n").first { $0.hasPrefix("| \(code.rawValue) | ") }?.replacingOccurrences(of: "`", with: "")
        #expect(row != nil, "README's exit-code table misses \(code.rawValue)")
        // The README may add detail after the meaning, never say something else.
        #expect(row?.hasPrefix("| \(code.rawValue) | \(code.meaning)") == true, "\(row ?? ""): expected \(code.meaning)")
    }
}
