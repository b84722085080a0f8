import Foundation
import Testing
import WidgetQuotaCLI
import WidgetQuotaSupport
import WidgetQuotaTestSupport

/// Errors are consistent: a wrong flag value is a usage error naming the flag, an error about a
/// file names the file, and each says what to do.
@Suite("Error messages")
struct ErrorMessageTests {
    @Test(
        "a flag value naming an unknown design is a usage error that names the flag",
        arguments: [
            (
                ["simulate", "--designs", "direct,cache-bg-task"],
                "--designs: unknown design \"cache-bg-task\"; did you mean \"cache-bgtask\"?"
            ),
            (["sweep", "--design", "cache-bg-task"], "--design: unknown design \"cache-bg-task\""),
            (["trace", "--design", "drect"], "--design: unknown design \"drect\"; did you mean \"direct\"?"),
            (["analyze", "SampleLogs", "--design", "drect"], "--design: unknown design \"drect\""),
        ])
    func unknownDesignFlagIsAUsageError(args: [String], message: String) {
        let (code, out, err) = TestSupport.cli(args)
        #expect(code == .usage, "\(err)")
        #expect(err.contains(message), "\(err)")
        #expect(err.contains("Try: widget-quota \(args[0]) --help"))
        #expect(out.isEmpty)
    }

    @Test("-v and -V suggest --version, at the top and in a command", arguments: [["-v"], ["-V"], ["simulate", "-v"]])
    func shortVersionFlagsSuggestVersion(args: [String]) {
        let (code, _, err) = TestSupport.cli(args)
        #expect(code == .usage)
        #expect(err.contains("did you mean --version?"), "\(err)")
    }

    @Test("trace --days 1 says how many days it needs")
    func traceSaysHowManyDaysItNeeds() {
        let (code, _, err) = TestSupport.cli(["trace", "--design", "direct", "--days", "1"])
        #expect(code == .usage)
        #expect(err.contains("--days: 1 day holds no complete quota day"), "\(err)")
        #expect(err.contains("use at least 2 days"), "\(err)")
    }

    @Test("an invalid value in a scenario file names the file and the field")
    func invalidScenarioFileNamesTheFile() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let path = try tmp.file(#"{"horizon": {"runs": 0}}"#)
        let (code, _, err) = TestSupport.cli(["simulate", "--scenario", path])
        #expect(code == .dataError)
        #expect(err.contains("\(path): not a valid scenario: horizon.runs: must be between 1 and 100000, got 0"), "\(err)")
    }

    @Test("a JSON syntax error in any input file gives its line and column", arguments: ["scenario", "diff", "rules"])
    func jsonSyntaxErrorsGiveLineAndColumn(command: String) throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let path = try tmp.file("{\n  \"a\": [1, 2,],\n}\n", name: "input.json")
        let args: [String]
        switch command {
        case "scenario": args = ["scenario", "--check", path]
        case "diff": args = ["diff", path, path]
        default: args = ["analyze", "SampleLogs", "--rules", path]
        }
        let (code, _, err) = TestSupport.cli(args)
        #expect(code == .dataError)
        #expect(err.contains("\(path):2:14: not valid JSON: expected a value, found ']' (a trailing comma?)"), "\(err)")
    }
}

/// Help is asked for where an option may stand, as swift-argument-parser reads it.
@Suite("help requests") struct HelpRequestTests {
    static let simulateOptions = CLI.commands.first { $0.spec.name == "simulate" }!.spec.options

    @Test("help for an unknown command is a usage error that suggests the nearest command")
    func helpForAnUnknownCommand() {
        let (code, out, err) = TestSupport.cli(["help", "simulat"])
        #expect(code == .usage)
        #expect(out.isEmpty)
        #expect(err.contains("no command \"simulat\" to show help for (did you mean \"simulate\"?)"), "\(err)")
        #expect(err.contains("Usage: widget-quota <command>"), "a usage line follows")
    }

    @Test(
        "help for a known command prints its help",
        arguments: [["help", "lint"], ["--help", "lint"], ["lint", "--help"], ["lint", "-h"]])
    func helpForAKnownCommand(args: [String]) {
        let (code, out, _) = TestSupport.cli(args)
        #expect(code == .success)
        #expect(out.hasPrefix("Usage: widget-quota lint"), "\(out.prefix(80))")
    }

    @Test("after --, --help is an operand; as an option's value it is a value")
    func helpAfterTheEndOfOptions() {
        let operand = TestSupport.cli(["analyze", "--", "--help"])
        #expect(operand.code == .noInput, "a log path named --help: \(operand.err)")
        #expect(operand.err.contains("--help"), "\(operand.err)")
        #expect(!operand.out.contains("Usage:"))
        #expect(ParsedArguments.asksForHelp(["--out", "--help"], options: Self.simulateOptions) == false)
        #expect(ParsedArguments.asksForHelp(["--out=x", "--help"], options: Self.simulateOptions))
        #expect(ParsedArguments.asksForHelp(["--no-sensitivity", "-h"], options: Self.simulateOptions))
    }
}

/// `--out -` is standard output wherever one file is written, and never a file named `-`.
@Suite("--out -") struct OutDashTests {
    @Test("lint and analyze write their one file to standard output for --out -")
    func singleFileOutputsGoToStandardOutput() throws {
        let app = Fixtures.path("apps/broken-app")
        let lint = TestSupport.cli(["lint", app, "--out", "-", "--fail-on", "never", "--quiet"])
        #expect(lint.code == .success, "\(lint.err)")
        #expect(lint.out.hasPrefix("# Widget pre-release checklist"), "\(lint.out.prefix(80))")
        let log = Fixtures.path("logs/apple-default.log")
        let analyze = TestSupport.cli(["analyze", log, "--format", "json", "--out", "-"])
        #expect(analyze.code == .success, "\(analyze.err)")
        #expect(analyze.out.hasPrefix("{"), "\(analyze.out.prefix(80))")
        #expect(!analyze.err.contains("Wrote"))
        #expect(!FileManager.default.fileExists(atPath: "-"), "a file named - was written")
    }

    @Test("a folder output refuses --out - as a usage error", arguments: ["simulate", "report"])
    func folderOutputsRefuseDash(command: String) {
        let (code, _, err) = TestSupport.cli([command, "--out", "-"])
        #expect(code == .usage)
        #expect(err.contains("--out"), "\(err)")
    }
}
