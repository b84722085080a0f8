import Foundation
import Testing
import WidgetQuotaCLI
import WidgetQuotaKit
import WidgetQuotaModel
import WidgetQuotaSupport
import WidgetQuotaTestSupport

/// Bad input of every kind: each case names the exit code and the message it must produce.
/// Nothing may crash, no number may be silently wrong, no previous report may be destroyed.
@Suite("hostile scenario") struct HostileScenarioTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        /// Scenario file contents (nil: no --scenario).
        let scenario: [UInt8]?
        let args: [String]
        let code: ExitCode
        let message: String
        var testDescription: String { name }

        init(_ name: String, scenario: String? = nil, bytes: [UInt8]? = nil, args: [String] = [], _ code: ExitCode, _ message: String) {
            self.name = name
            self.scenario = bytes ?? scenario.map { Array($0.utf8) }
            self.args = args
            self.code = code
            self.message = message
        }
    }

    static let cases: [Case] = [
        Case("empty file", scenario: "", .noInput, "the file is empty"),
        Case("whitespace only", scenario: " \n\t\n", .noInput, "the file is empty"),
        Case("binary garbage", bytes: [0x00, 0xFF, 0xFE, 0x13, 0x37, 0x00, 0x9C], .dataError, "not valid JSON"),
        Case(
            "invalid UTF-8 in a string", bytes: Array(#"{"baseline": ""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8), .dataError,
            "not valid JSON"),
        Case("array that never closes", scenario: #"{"horizon": {"users": [1, 2, 3"#, .dataError, "not valid JSON"),
        Case("nested too deep", scenario: String(repeating: "[", count: 5_000), .dataError, "not valid JSON"),
        Case("NaN", scenario: #"{"horizon": {"days": NaN}}"#, .dataError, "not valid JSON"),
        Case(
            "Infinity", scenario: #"{"api": {"timeoutSeconds": 1e999}}"#, .dataError, ":1:28: not valid JSON: the number 1e999 is too large"
        ),
        Case("zero users", scenario: #"{"horizon": {"users": [0]}}"#, .dataError, "horizon.users[0]: must be between 1 and"),
        Case(
            "10^12 users", scenario: #"{"horizon": {"users": [1000000000000]}}"#, .dataError,
            "horizon.users[0]: must be between 1 and 1000000000"),
        Case("negative users", scenario: #"{"horizon": {"users": [10, -1]}}"#, .dataError, "horizon.users[1]"),
        Case("days 0", scenario: #"{"horizon": {"days": 0}}"#, .dataError, "horizon.days: must be between 1 and 366, got 0"),
        Case("fractional days", scenario: #"{"horizon": {"days": 2.5}}"#, .dataError, "horizon.days: must be a whole number"),
        Case("runs 0", scenario: #"{"horizon": {"runs": 0}}"#, .dataError, "horizon.runs"),
        Case(
            "negative TTL", scenario: #"{"designs": [{"name": "cache-bgtask", "cacheTTLMinutes": -60}]}"#, .dataError,
            "designs[0].cacheTTLMinutes"),
        Case(
            "entries too close", scenario: #"{"designs": [{"name": "x", "entrySpacingMinutes": 2}]}"#, .dataError,
            "at least 5 minutes apart"),
        Case("unknown key", scenario: #"{"horizon": {"usres": [10]}}"#, .dataError, "unknown key \"usres\"; did you mean \"users\"?"),
        Case("unknown top-level key", scenario: #"{"desings": []}"#, .dataError, "did you mean \"designs\"?"),
        Case("unknown design as baseline", scenario: #"{"baseline": "cache-bgtsk"}"#, .dataError, "did you mean \"cache-bgtask\"?"),
        Case(
            "a 10 MB design name", scenario: #"{"baseline": ""# + String(repeating: "x", count: 10_000_000) + #""}"#, .dataError,
            "unknown design \"xxxxxxxx"),
        Case(
            "uniform min above max", scenario: #"{"population": {"smartStackShare": {"distribution": "uniform", "min": 0.6, "max": 0.1}}}"#,
            .dataError, "must not exceed max"),
        Case(
            "unknown distribution", scenario: #"{"population": {"smartStackShare": {"distribution": "cauchy", "min": 0}}}"#, .dataError,
            "unknown distribution \"cauchy\""),
        Case("share above one", scenario: #"{"population": {"neverOpenShare": 1.2}}"#, .dataError, "population.neverOpenShare"),
        Case(
            "lognormal for a share",
            scenario: #"{"population": {"lowPowerDayShare": {"distribution": "lognormal", "mean": 0.1, "sd": 0.1}}}"#, .dataError,
            "a lognormal is unbounded"),
        Case(
            "time zones without weight", scenario: #"{"population": {"timeZones": [{"utcOffsetHours": 0, "share": 0}]}}"#, .dataError,
            "shares must not all be zero"),
        Case(
            "23 hourly weights", scenario: #"{"population": {"activity": {"app": [1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]}}}"#,
            .dataError, "must have 24 hourly weights, got 23"),
        Case(
            "outage after the horizon",
            scenario:
                #"{"horizon": {"days": 10}, "api": {"outages": [{"day": 40, "startHourUTC": 1, "durationHours": 1, "errorRate": 1}]}}"#,
            .dataError, "api.outages[0].day"),
        Case("design defined twice", scenario: #"{"designs": [{"name": "a"}, {"name": "a"}]}"#, .dataError, "\"a\" is defined twice"),
        Case("wrong type", scenario: #"{"horizon": {"users": "lots"}}"#, .dataError, "horizon.users"),
        Case("a number where an object belongs", scenario: #"{"platform": 3}"#, .dataError, "platform"),
        Case(
            "unknown fetch trigger", scenario: #"{"designs": [{"name": "x", "fetchTriggers": ["getTimelin"]}]}"#, .dataError,
            "designs[0].fetchTriggers[0]: unknown value \"getTimelin\"; expected one of getTimeline, appForeground, backgroundTask, push, widgetPush; did you mean \"getTimeline\"?"
        ),
        Case(
            "unknown reload calls", scenario: #"{"designs": [{"name": "x", "reloadCalls": "sometimes"}]}"#, .dataError,
            "designs[0].reloadCalls: unknown value \"sometimes\"; expected one of onceOnSuccess, everyForeground, everyFetch, never"),
        Case(
            "a key cut short", scenario: #"{"designs": [{"name": "x", "cacheTTL": 60}]}"#, .dataError, "did you mean \"cacheTTLMinutes\"?"),
        Case(
            "unknown reload policy", scenario: #"{"designs": [{"name": "x", "reloadPolicy": "hourly"}]}"#, .dataError,
            "unknown reload policy \"hourly\""),
        Case("missing scenario file", args: ["--scenario", "/nonexistent/widget-quota.json"], .noInput, "no such file"),
        Case("scenario is a folder", args: ["--scenario", "/"], .noInput, "cannot read"),
        Case("unknown flag", args: ["--userz", "10"], .usage, "unknown option --userz; did you mean --users?"),
        Case("flag without value", args: ["--runs"], .usage, "--runs needs a value"),
        Case("threads 0", args: ["--threads", "0"], .usage, "--threads expects a whole number between 1 and 1024"),
        Case("negative seed", args: ["--seed", "-4"], .usage, "--seed expects a non-negative whole number"),
        Case("bad format", args: ["--format", "xml"], .usage, "--format expects markdown, csv, csv-long, json or github, got \"xml\""),
        Case("users not numbers", args: ["--users", "10,lots"], .usage, "--users expects comma-separated whole numbers"),
        Case("unknown design flag", args: ["--designs", "drect"], .usage, "--designs: unknown design \"drect\"; did you mean \"direct\"?"),
        Case(
            "seed past UInt64", scenario: #"{"horizon": {"seed": 18446744073709551616}}"#, .dataError,
            "horizon.seed: must be a whole number between 0 and 18446744073709551615"),
        Case("negative seed in a file", scenario: #"{"horizon": {"seed": -1}}"#, .dataError, "horizon.seed: must be a whole number"),
        Case(
            "no complete quota day", scenario: #"{"horizon": {"days": 1}}"#, .dataError,
            "horizon.days: 1 day holds no complete quota day"),
        Case(
            "the default outage written out, past a shorter horizon",
            scenario:
                #"{"horizon": {"days": 7}, "api": {"outages": [{"day": 12, "startHourUTC": 15, "durationHours": 3, "errorRate": 0.95}]}}"#,
            .dataError, "api.outages[0].day: must be between 1 and horizon.days (7), got 12"),
        Case(
            "no entry spacing", scenario: #"{"platform": {"minEntrySpacingMinutes": 0}}"#, .dataError,
            "platform.minEntrySpacingMinutes: must be between 1 and 1440 minutes"),
        Case("zero users as a flag", args: ["--users", "0"], .usage, "--users: must be between 1 and 1000000000, got 0"),
        Case("zero runs as a flag", args: ["--runs", "0"], .usage, "--runs expects a whole number between 1 and 100000, got \"0\""),
        Case("runs in exponent form", args: ["--runs", "1e9"], .usage, "--runs expects a whole number between 1 and 100000, got \"1e9\""),
        // Accepted limits whose work would run for hours: refused before simulating, with the way out.
        Case(
            "runs that would take hours", args: ["--runs", "100000"], .usage,
            "this run would simulate 26,400,000,000 user-days (100,000 runs × 1,000 users × 33 days × 8 designs)"),
        Case(
            "ten million sample users", args: ["--users", "10000000", "--sample-users", "10000000"], .usage,
            "or pass --allow-long to run it anyway"),
        Case("an empty item in --users", args: ["--users", "1,,2"], .usage, "got an empty item in \"1,,2\""),
        Case(
            "a device as the scenario", args: ["--scenario", "/dev/null"], .noInput,
            "/dev/null: cannot read: it is a character device, not a file"),
        Case("empty design list", args: ["--designs", ","], .usage, "--designs needs at least one design name"),
        Case("a design listed twice", args: ["--designs", "direct,cache-bgtask,direct"], .usage, "--designs names \"direct\" twice"),
        Case("missing price file", args: ["--prices", "/nonexistent/prices.json"], .noInput, "no such file"),
        Case("output under a file", args: ["--users", "5", "--runs", "1", "--out", "/etc/hostname/report"], .ioError, "cannot"),
        // A refused value never reaches a later check that computes with it (each trapped or spun before).
        Case("negative horizon", scenario: #"{"horizon":{"days":-100}}"#, .dataError, "horizon.days: must be between 1 and 366, got -100"),
        Case(
            "horizon of 2^53 + 1 days", scenario: #"{"horizon":{"days":9007199254740993}}"#, .dataError,
            "horizon.days: must be between 1 and 366"),
        Case(
            "quota reset 1e19 hours from UTC", scenario: #"{"quotas":{"resetUTCOffsetHours":1e19}}"#, .dataError,
            "quotas.resetUTCOffsetHours: must be between -12 and 14"),
        // Values that divided a peak or a rate into Infinity or NaN in every output.
        Case(
            "a tier limit of 0", scenario: #"{"quotas":{"tiers":[{"name":"x","readOn":"d","rpm":0}]}}"#, .dataError,
            "quotas.tiers[0].rpm: must be between 0.000001 and 1e15"),
        Case(
            "a denormal tier limit", scenario: #"{"quotas":{"tiers":[{"name":"x","readOn":"d","rpd":5e-324}]}}"#, .dataError,
            "quotas.tiers[0].rpd: must be between 0.000001 and 1e15"),
        Case(
            "a background interval of 0 hours",
            scenario: #"{"designs":[{"name":"b","fetchTriggers":["backgroundTask"],"backgroundIntervalHours":0}]}"#, .dataError,
            "designs[0].backgroundIntervalHours: must be between 1 minute"),
        Case(
            "a platform background interval of 0 hours", scenario: #"{"platform":{"backgroundEarliestBeginHours":0}}"#, .dataError,
            "platform.backgroundEarliestBeginHours: must be between 1 minute"),
    ]

    @Test("the smallest accepted limit and background interval give finite numbers everywhere")
    func smallestAcceptedValuesStayFinite() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let path = try tmp.file(
            #"{"quotas":{"tiers":[{"name":"x","readOn":"d","rpm":0.000001,"tpm":0.000001,"rpd":0.000001}]},"#
                + #""designs":[{"name":"b","fetchTriggers":["backgroundTask"],"backgroundIntervalHours":0.0167}]}"#)
        let (code, out, err) = TestSupport.cli([
            "simulate", "--scenario", path, "--designs", "b,direct", "--users", "10", "--runs", "1", "--sample-users", "10",
            "--format", "json",
        ])
        #expect(code == .success, "\(err.prefix(300))")
        #expect(!out.isEmpty && !out.contains("Infinity") && !out.contains("NaN"))
    }

    @Test("bad input gets a clear error and its exit code", arguments: cases)
    func badInputGetsAClearErrorAndItsExitCode(_ c: Case) throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        var args = ["simulate", "--quiet"] + c.args
        if let bytes = c.scenario {
            let path = try tmp.file("", name: "scenario.json")
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            args += ["--scenario", path]
        }
        let (code, out, err) = TestSupport.cli(args)
        #expect(code == c.code, "\(c.name): exit \(code.rawValue), stderr: \(err.prefix(300))")
        #expect(err.contains(c.message), "\(c.name): \(err.prefix(300))")
        #expect(out.isEmpty, "\(c.name): nothing on stdout after an error")
        #expect(err.count < 4_000, "\(c.name): the message must stay readable")
    }

    /// A scenario whose `path` list holds `n` entries made by `item`.
    static func list(_ path: String, _ n: Int, _ item: (Int) -> String) -> String {
        let parts = path.split(separator: ".").map(String.init)
        let items = "[" + (0..<n).map(item).joined(separator: ",") + "]"
        return parts.reversed().reduce(items) { inner, key in "{\"\(key)\": \(inner)}" }
    }

    static let lists: [(path: String, bound: Int, item: @Sendable (Int) -> String)] = [
        ("horizon.users", ScenarioValidator.ListBounds.userCounts, { "\($0 + 1)" }),
        ("quotas.tiers", ScenarioValidator.ListBounds.tiers, { #"{"name": "t\#($0)", "readOn": "2026-11-29", "rpm": \#($0 + 10)}"# }),
        (
            "api.outages", ScenarioValidator.ListBounds.outages,
            { #"{"day": \#($0 % 30 + 1), "startHourUTC": 1, "durationHours": 1, "errorRate": 0.5}"# }
        ),
        ("calendar.events", ScenarioValidator.ListBounds.events, { #"{"name": "e\#($0)", "day": \#($0 % 30 + 1), "appOpens": 1.1}"# }),
        ("calendar.dayKinds", ScenarioValidator.ListBounds.dayKinds, { #"{"name": "k\#($0)", "weekdays": ["monday"]}"# }),
    ]

    /// Every list the work grows with has a bound: a list at its bound is accepted, one entry
    /// more is refused naming the field and the bound (30,000 events once ran out of memory).
    @Test("each list is accepted at its bound and refused one past it", arguments: lists.map(\.path))
    func listsHaveBounds(path: String) throws {
        let list = try #require(Self.lists.first { $0.path == path })
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let at = try tmp.file(Self.list(path, list.bound, list.item))
        let ok = TestSupport.cli(["scenario", "--check", at])
        #expect(ok.code == .success, "\(path) at \(list.bound): \(ok.err.prefix(300))")
        let past = try tmp.file(Self.list(path, list.bound + 1, list.item))
        let refused = TestSupport.cli(["scenario", "--check", past])
        #expect(refused.code == .dataError)
        #expect(refused.err.contains("\(path): must list at most \(list.bound) "), "\(refused.err.prefix(300))")
    }

    /// Values other commands take that no design can be simulated with: refused, never a trap.
    @Test(
        "sweep values are validated like designs",
        arguments: [
            (
                ["sweep", "--knob", "background", "--values", "4,1e21"], ExitCode.usage,
                "backgroundIntervalHours: must be between 1 minute (0.0167 h) and 168 hours"
            ),
            (["sweep", "--design", "poll-30m-aligned", "--knob", "poll", "--values", "1e21"], .usage, "reloadPolicy"),
            (["sweep", "--knob", "ttl", "--values", "60,50000"], .usage, "cacheTTLMinutes: must be between 0 and 43200"),
        ])
    func sweepValuesAreValidatedLikeDesigns(args: [String], code: ExitCode, message: String) {
        let (actual, out, err) = TestSupport.cli(args + ["--quiet", "--users", "10", "--runs", "1"])
        #expect(actual == code, "exit \(actual.rawValue): \(err.prefix(300))")
        #expect(err.contains(message), "\(err.prefix(300))")
        #expect(out.isEmpty)
    }

    /// A scenario file takes any seed `--seed` takes, up to UInt64.max.
    @Test("a scenario file takes every seed the flag takes") func aScenarioFileTakesEverySeedTheFlagTakes() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let path = try tmp.file(#"{"horizon": {"seed": 18446744073709551615}}"#)
        #expect(try ScenarioLoader.load(path: path).horizon.seed == .max)
    }

    @Test("a failed run never destroys the previous report") func aFailedRunNeverDestroysThePreviousReport() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let old = try tmp.file("previous report\n", name: "report.md")
        let folder = URL(fileURLWithPath: old).deletingLastPathComponent().path
        let bad = try tmp.file(#"{"horizon": {"days": -1}}"#)
        let (code, _, _) = TestSupport.cli(["simulate", "--quiet", "--scenario", bad, "--out", folder])
        #expect(code == .dataError)
        #expect(try String(contentsOfFile: old, encoding: .utf8) == "previous report\n")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.contains(".tmp-") }
        #expect(leftovers.isEmpty)
    }
}

/// Every number a scenario holds, set in turn to a value from the edges of what JSON can say,
/// is either accepted or refused with a message: the validator never traps on a value it already
/// refused, and no accepted value makes the pre-checks of `simulate` trap.
@Suite("hostile scenario numbers") struct HostileScenarioNumberTests {
    /// A scenario with every optional part present: a tier with limits and a plan, an outage, a
    /// design with a backend, a day kind and an event with their windows, a growth plan.
    static let full = #"""
        {"quotas": {"tiers": [{"name": "t", "readOn": "2026-12-01", "rpm": 10, "rpd": 100, "monthlyFee": 5,
          "includedPerMonth": 1000, "overagePerUnit": 0.01}]},
         "api": {"outages": [{"day": 2, "startHourUTC": 3, "durationHours": 2, "errorRate": 0.5}]},
         "designs": [{"name": "b", "cacheTTLMinutes": 30, "backend": {"regenerate": "every(15)",
           "pricePerMillionRequests": 1}}],
         "calendar": {"dayKinds": [{"name": "k", "weekdays": ["monday"], "appOpens": 2, "startHourUTC": 18, "hours": 3}],
           "events": [{"name": "e", "day": 3, "glances": 2, "startHourUTC": 19, "hours": 3}]},
         "horizon": {"days": 7, "users": [100], "runs": 2, "sampleUsers": 20}}
        """#

    static let extremes: [String] = [
        "-1e308", "-100", "-1", "0", "1e-320", "0.5", "23.999", "24", "100", "2000", "1e19", "9007199254740993", "1e308",
    ]

    /// Dotted paths (with [index]) of every number in `tree`.
    static func numberPaths(_ tree: Any, _ path: [Any] = []) -> [[Any]] {
        switch tree {
        case let object as [String: Any]: return object.keys.sorted().flatMap { numberPaths(object[$0]!, path + [$0]) }
        case let array as [Any]: return array.indices.flatMap { numberPaths(array[$0], path + [$0]) }
        // A boolean is an NSNumber of type char (`c`) on both platforms.
        case let n as NSNumber where String(cString: n.objCType) != "c": return [path]
        default: return []
        }
    }

    static func setting(_ tree: Any, _ path: ArraySlice<Any>, to value: Any) -> Any {
        guard let key = path.first else { return value }
        if var object = tree as? [String: Any], let k = key as? String {
            object[k] = setting(object[k] as Any, path.dropFirst(), to: value)
            return object
        }
        if var array = tree as? [Any], let i = key as? Int {
            array[i] = setting(array[i], path.dropFirst(), to: value)
            return array
        }
        return tree
    }

    @Test("every number of a full scenario at every extreme: accepted or refused, never a trap")
    func everyNumberAtEveryExtreme() throws {
        // The full scenario, every default filled in, so every field of the shape is reached.
        let base = try ScenarioLoader.decode(Data(Self.full.utf8))
        let tree = try JSONSerialization.jsonObject(with: Data(ScenarioLoader.encode(base).utf8))
        let paths = Self.numberPaths(tree)
        #expect(paths.count > 150, "\(paths.count) numbers reached")
        var refused = 0
        for path in paths {
            for text in Self.extremes {
                let value = try JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed)
                let mutated = Self.setting(tree, path[...], to: value)
                let data = try JSONSerialization.data(withJSONObject: mutated)
                do {
                    let scenario = try ScenarioLoader.decode(data)
                    _ = try? SimulationJob(scenario: scenario, prices: .bundled)
                } catch let error as WidgetQuotaError {
                    refused += 1
                    #expect(error.exitCode == .dataError, "\(path) = \(text): \(error)")
                }
            }
        }
        #expect(refused > paths.count, "most extremes are refused somewhere")
    }
}

/// Names reach reports, pull-request comments, annotations and terminals: each is one line of
/// printable text, wherever a scenario gives one.
@Suite("hostile scenario names") struct HostileScenarioNameTests {
    static let fields = [
        (#"{"designs": [{"name": "NAME"}]}"#, "designs[0].name"),
        (#"{"quotas": {"tiers": [{"name": "NAME", "readOn": "2026-12-01"}]}}"#, "quotas.tiers[0].name"),
        (#"{"calendar": {"events": [{"name": "NAME", "day": 2}]}}"#, "calendar.events[0].name"),
        (#"{"calendar": {"dayKinds": [{"name": "NAME", "weekdays": ["monday"]}]}}"#, "calendar.dayKinds[0].name"),
        (#"{"name": "NAME"}"#, "name"),
    ]
    static let bad = [
        #"a\nb"#, #"a\r::warning::x"#, #"\u001b[31mred"#, #"bell\u0007"#, #"x\u2028y"#, #"rtl\u202eexe"#, #"nul\u0000"#, "   ",
    ]

    @Test("a name with a line break, a control or format character, or only spaces is refused naming the field")
    func refused() throws {
        for (template, field) in Self.fields {
            for name in Self.bad {
                let json = template.replacingOccurrences(of: "NAME", with: name)
                #expect(throws: WidgetQuotaError.self, "\(field) = \(name)") { try ScenarioLoader.decode(Data(json.utf8)) }
                do { _ = try ScenarioLoader.decode(Data(json.utf8)) } catch let error as WidgetQuotaError {
                    #expect(error.description.contains(field + ": must be"), "\(error)")
                }
            }
            // Printable names of any script, emoji (joined or not) and punctuation are names.
            for name in ["Match day ⚽️", "Finale — 決勝", "👩‍💻 team", "tier <3> & [beta]"] {
                let json = template.replacingOccurrences(of: "NAME", with: name)
                #expect(throws: Never.self, "\(field) = \(name)") { try ScenarioLoader.decode(Data(json.utf8)) }
            }
        }
    }
}
