import Foundation
import Testing
import WidgetQuotaCLI
import WidgetQuotaKit
import WidgetQuotaLogs
import WidgetQuotaLogsTestSupport
import WidgetQuotaModel
import WidgetQuotaSupport
import WidgetQuotaTestSupport

@Suite("analyze command")
struct AnalyzeCommandTests {
    @Test("strict stops at the first malformed line") func strictStopsAtTheFirstMalformedLine() {
        let r = LogTestSupport.run(["analyze", "--strict", LogTestSupport.fixture("apple-syslog.log")])
        #expect(r.code == .dataError)
        #expect(r.err.contains("apple-syslog.log:8: expected \"process[pid]:\" after the host name"))
        #expect(r.out.isEmpty)
    }

    @Test("without strict malformed lines are reported") func withoutStrictMalformedLinesAreReported() throws {
        let r = LogTestSupport.run(["analyze", "--format", "json", LogTestSupport.fixture("apple-syslog.log")])
        #expect(r.code == .success)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
        #expect(json["malformedLines"] as? Int == 1)
        let examples = try #require(json["malformedExamples"] as? [String])
        #expect(examples.count == 1 && examples[0].contains("apple-syslog.log:8:"))
    }

    @Test("a named design grades the extension's requests; the baseline is no claim")
    func designNamedGradesWidgetNetworkFindings() throws {
        let log = LogTestSupport.fixture("checklist/widget-network.log")
        func severities(_ extra: [String]) throws -> [String] {
            let r = LogTestSupport.run(["analyze", "--format", "json"] + extra + [log])
            #expect(r.code == .success, "\(r.err)")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
            let findings = try #require(json["findings"] as? [[String: Any]])
            return findings.filter { $0["rule"] as? String == "widget-network-call" }.compactMap { $0["severity"] as? String }
        }
        #expect(try severities([]) == ["note"])
        #expect(try severities(["--design", "cache-bgtask"]) == ["error"])
        #expect(try severities(["--design", "direct"]) == ["warning"])
        #expect(try severities(["--design", "none"]) == ["note"])
    }

    @Test("empty file is no input") func emptyFileIsNoInput() {
        let r = LogTestSupport.run(["analyze", LogTestSupport.fixture("empty.log")])
        #expect(r.code == .noInput)
        #expect(r.err.contains("empty.log: the file is empty"))
    }

    @Test("missing file is no input") func missingFileIsNoInput() {
        let r = LogTestSupport.run(["analyze", LogTestSupport.fixture("missing.log")])
        #expect(r.code == .noInput)
        #expect(r.err.contains("missing.log: cannot read: no such file"))
    }

    /// Root reads anything, so this runs (and can fail) only for other users; it shows as skipped under root.
    @Test("unreadable file is no input", .enabled(if: getuid() != 0, "root can read a file without permissions"))
    func unreadableFileIsNoInput() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let folder = try tmp.subfolder()
        let path = folder + "/locked.log"
        _ = FileManager.default.createFile(atPath: path, contents: Data("2026-09-14 11:18:19.799 Df a[1:2] x\n".utf8))
        chmod(path, 0)
        defer { chmod(path, 0o644) }
        let r = LogTestSupport.run(["analyze", path])
        #expect(r.code == .noInput)
        #expect(r.err.contains("locked.log: cannot read"))
    }

    @Test("unknown format is data error") func unknownFormatIsDataError() {
        let r = LogTestSupport.run(["analyze", LogTestSupport.fixture("not-a-log.txt")])
        #expect(r.code == .dataError)
        #expect(r.err.contains("not a log in a known format"))
    }

    @Test("folder reads every log sorted and skips the rest") func folderReadsEveryLogSortedAndSkipsTheRest() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let fixtures = Fixtures.path("logs")
        // empty.log is skipped with a note, like any file in a folder that is not a log; with
        // --strict it stops the run.
        let r = LogTestSupport.run(["analyze", "--format", "json", fixtures])
        #expect(r.code == .success, "\(r.err)")
        #expect(r.out.contains("empty.log: the file is empty"))
        let strictFolder = try tmp.subfolder()
        for name in ["trace.ndjson", "empty.log"] {
            try FileManager.default.copyItem(atPath: LogTestSupport.fixture(name), toPath: strictFolder + "/" + name)
        }
        let strict = LogTestSupport.run(["analyze", "--strict", "--format", "json", strictFolder])
        #expect(strict.code == .noInput && strict.err.contains("empty.log: the file is empty"), "\(strict.err)")
        let folder = try tmp.subfolder()
        for name in ["trace.ndjson", "apple-compact.log", "not-a-log.txt"] {
            try FileManager.default.copyItem(atPath: LogTestSupport.fixture(name), toPath: folder + "/" + name)
        }
        let ok = LogTestSupport.run(["analyze", "--format", "json", folder])
        #expect(ok.code == .success)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(ok.out.utf8)) as? [String: Any])
        let files = try #require(json["files"] as? [[String: Any]])
        #expect(
            files.compactMap { ($0["path"] as? String).map { ($0 as NSString).lastPathComponent } } == [
                "apple-compact.log", "trace.ndjson",
            ])
        #expect((json["notes"] as? [String])?.contains { $0.contains("not-a-log.txt") } == true)
    }

    @Test("json keys for CI") func jsonKeysForCI() throws {
        let r = LogTestSupport.run(["analyze", "--format", "json", LogTestSupport.fixture("trace.ndjson")])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
        #expect(json["schemaVersion"] as? Int == 1)
        for key in ["devices", "deviceDays", "linesRead", "malformedLines"] { #expect(json[key] is Int, "\(key)") }
        let perDay = try #require(json["perDeviceDay"] as? [String: Any])
        for figure in ["getTimeline", "apiRequests", "bgTaskLaunches"] {
            let stats = try #require(perDay[figure] as? [String: Any], "\(figure)")
            #expect(Set(stats.keys).isSuperset(of: ["mean", "p50", "p95", "max"]))
        }
    }

    @Test("output is byte-identical run to run", arguments: ["markdown", "csv", "json"])
    func deterministic(format: String) {
        let args = ["analyze", "--format", format, LogTestSupport.fixture("apple.ndjson"), LogTestSupport.fixture("trace.ndjson")]
        let a = LogTestSupport.run(args)
        let b = LogTestSupport.run(args)
        #expect(a.code == .success)
        #expect(a.out == b.out)
        #expect(!a.out.isEmpty)
    }

    @Test("out is written and emit scenario is accepted by simulate") func outIsWrittenAndEmitScenarioIsAcceptedBySimulate() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let folder = try tmp.subfolder()
        let r = LogTestSupport.run([
            "analyze", LogTestSupport.fixture("trace.ndjson"), "--out", folder + "/report.md",
            "--emit-scenario", folder + "/measured.json",
        ])
        #expect(r.code == .success)
        #expect(r.out.isEmpty)
        #expect(FileManager.default.fileExists(atPath: folder + "/report.md"))
        let scenario = try ScenarioLoader.load(path: folder + "/measured.json")
        #expect(scenario.calibration?.fields.contains("platform.systemReloadsPerDay") == true)
        let sim = LogTestSupport.run([
            "simulate", "--scenario", folder + "/measured.json", "--runs", "2", "--users", "10",
            "--designs", "direct", "--format", "json",
        ])
        #expect(sim.code == .success, "\(sim.err)")
    }

    @Test("emit scenario corrects the rate under the baseline by default") func emitScenarioCorrectsTheRateUnderTheBaselineByDefault()
        throws
    {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let folder = try tmp.subfolder()
        let trace = LogTestSupport.run([
            "trace", "--design", "cache-bgtask", "--devices", "20", "--days", "5", "--out", folder + "/t.ndjson",
        ])
        #expect(trace.code == .success, "\(trace.err)")
        let r = LogTestSupport.run([
            "analyze", folder + "/t.ndjson", "--out", folder + "/report.md", "--emit-scenario", folder + "/measured.json",
        ])
        #expect(r.code == .success, "\(r.err)")
        let scenario = try ScenarioLoader.load(path: folder + "/measured.json")
        #expect(scenario.calibration?.design == Scenario().baseline)
        #expect(scenario.calibration?.getTimelineLoggedShare != nil)
        #expect(r.err.contains("beside \(Scenario().baseline)'s own reloads"), "\(r.err)")
    }

    @Test("trace --out DIR replaces its earlier device files: a smaller run leaves none of a larger one's, and others' files stay")
    func traceFolderHoldsOneRun() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let folder = try tmp.subfolder() + "/logs"
        let args = ["trace", "--design", "direct", "--days", "2", "--style", "compact", "--out", folder]
        #expect(LogTestSupport.run(args + ["--devices", "5"]).code == .success)
        try "mine".write(toFile: folder + "/notes.txt", atomically: true, encoding: .utf8)
        try "mine".write(toFile: folder + "/direct-extra.log", atomically: true, encoding: .utf8)
        let second = LogTestSupport.run(args + ["--devices", "2"])
        #expect(second.code == .success, "\(second.err)")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(names == ["direct-001.log", "direct-002.log", "direct-extra.log", "notes.txt"], "\(names)")
        // A design named with a dot, beside a file of its name with no dot after the dash: no trap,
        // and only `NAME-NNN.ext` names are the trace's.
        try "x".write(toFile: folder + "/v1.2-old", atomically: true, encoding: .utf8)
        try "x".write(toFile: folder + "/v1.2-004.log", atomically: true, encoding: .utf8)
        #expect(TraceJob.deviceFiles(in: folder, design: "v1.2") == ["v1.2-004.log"])
        // The folder reads as the second run alone.
        let analysis = LogTestSupport.run(["analyze", "--format", "json", folder + "/direct-001.log", folder + "/direct-002.log"])
        #expect(analysis.code == .success)
    }

    /// One extreme device (a task relaunched 100 times a day) must not cost the whole calibration:
    /// the value is capped at what the model accepts, with a note, and the scenario is written.
    @Test("an extreme measurement is capped with a note") func anExtremeMeasurementIsCappedWithANote() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let folder = try tmp.subfolder()
        let lines = (0..<100).map { i in
            #"{"schemaVersion":1,"timestamp":"2026-09-01T\#(String(format: "%02d:%02d", i / 60, i % 60)):00Z","device":"d","event":"bgTaskLaunch"}"#
        }
        try (lines.joined(separator: "\n") + "\n").write(toFile: folder + "/bg.ndjson", atomically: true, encoding: .utf8)
        let r = LogTestSupport.run(["analyze", folder + "/bg.ndjson", "--design", "none", "--emit-scenario", folder + "/measured.json"])
        #expect(r.code == .success, "\(r.err)")
        let scenario = try ScenarioLoader.load(path: folder + "/measured.json")
        #expect(scenario.platform.backgroundRunsPerDay.central == 96)
        #expect(scenario.calibration?.notes.contains { $0.contains("backgroundRunsPerDay measured 100, capped at 96") } == true)
    }

    @Test("design names the logged apps design") func designNamesTheLoggedAppsDesign() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let folder = try tmp.subfolder()
        let wrong = LogTestSupport.run([
            "analyze", LogTestSupport.fixture("trace.ndjson"), "--design", "drect", "--out", folder + "/r.md",
            "--emit-scenario", folder + "/wrong.json",
        ])
        // A flag's value is a usage error that names the flag.
        #expect(wrong.code == .usage)
        #expect(wrong.err.contains("--design: unknown design \"drect\"; did you mean \"direct\"?"), "\(wrong.err)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/wrong.json"))
        let none = LogTestSupport.run([
            "analyze", LogTestSupport.fixture("trace.ndjson"), "--design", "none", "--out", folder + "/r.md",
            "--emit-scenario", folder + "/none.json",
        ])
        #expect(none.code == .success, "\(none.err)")
        let scenario = try ScenarioLoader.load(path: folder + "/none.json")
        #expect(scenario.calibration?.design == nil && scenario.calibration?.getTimelineLoggedShare == nil)
    }
}

@Suite("Rules file")
struct LogRulesTests {
    static let line = "2026-09-14 11:18:19.799 Df GeminiApp[401:1a2b] [com.example.app:power] Battery saver engaged\n"

    @Test("rule maps an app line") func ruleMapsAnAppLine() throws {
        let rules = try LogRules.parse(
            Data(
                """
                {"rules": [{"name": "power", "process": "^GeminiApp$", "category": "power", "message": "saver engaged", "event": "lowPowerMode", "state": "on"}]}
                """.utf8), file: "rules.json")
        var options = LogAnalyzer.Options()
        options.rules = rules
        let a = try LogTestSupport.analyze(Self.line, options: options)
        #expect(a.lowPowerMode?.days == 1)
        let without = try LogTestSupport.analyze(Self.line)
        #expect(without.lowPowerMode == nil)
    }

    @Test(
        "bad rules name the rule and what was expected",
        arguments: [
            (
                #"{"rules": [{"name": "broken", "message": "([", "event": "fetchError"}]}"#,
                "rule \"broken\" (rules[0]): invalid message pattern"
            ),
            (#"{"rules": [{"name": "x", "message": "a", "event": "teleport"}]}"#, "rule \"x\" (rules[0]): unknown event \"teleport\""),
            (#"{"rules": [{"name": "y", "mesage": "a", "event": "fetchError"}]}"#, "did you mean \"message\"?"),
            (#"{"rules": [{"name": "z", "event": "fetchError"}]}"#, "expected at least one of"),
            (#"{"nope": []}"#, "expected an object with a \"rules\" array"),
        ])
    func invalid(json: String, expected: String) {
        do {
            _ = try LogRules.parse(Data(json.utf8), file: "rules.json")
            Issue.record("expected an error")
        } catch let error as WidgetQuotaError {
            #expect(error.exitCode == .dataError)
            #expect(error.description.hasPrefix("rules.json: "))
            #expect(error.description.contains(expected), "\(error)")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test("invalid regex exits with 65") func invalidRegexExitsWith65() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let folder = try tmp.subfolder()
        try #"{"rules": [{"name": "broken", "message": "([", "event": "fetchError"}]}"#.write(
            toFile: folder + "/rules.json", atomically: true, encoding: .utf8)
        let r = LogTestSupport.run(["analyze", "--rules", folder + "/rules.json", LogTestSupport.fixture("apple.ndjson")])
        #expect(r.code == .dataError)
        #expect(r.err.contains("rule \"broken\""))
    }
}

@Suite("Scenario files with other distribution forms")
struct DistributionFormTests {
    @Test("a distribution may change its form") func aDistributionMayChangeItsForm() throws {
        // The default lowPowerDayShare is uniform; a calibrated one is normal. Both must load.
        let json = #"{"population": {"lowPowerDayShare": {"distribution": "normal", "mean": 0.1, "sd": 0.01, "min": 0, "max": 1}}}"#
        let s = try ScenarioLoader.decode(Data(json.utf8))
        #expect(s.population.lowPowerDayShare == .normal(mean: 0.1, sd: 0.01, min: 0, max: 1))
        #expect(throws: WidgetQuotaError.self) {
            try ScenarioLoader.decode(Data(#"{"population": {"lowPowerDayShare": {"distribution": "normal", "mena": 0.1}}}"#.utf8))
        }
    }
}
