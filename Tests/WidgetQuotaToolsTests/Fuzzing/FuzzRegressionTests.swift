import Foundation
import Testing
import WidgetQuotaLogs
import WidgetQuotaSupport
import WidgetQuotaTestSupport
import WidgetQuotaTools

/// Every input that ever crashed, hung or misled a parser under libFuzzer is kept in
/// `Fixtures/fuzz/TARGET/` and replayed here; each target also gets a deterministic burst of
/// mutated inputs, so the suite fuzzes a little on every run even without libFuzzer.
@Suite("fuzz regression") struct FuzzRegressionTests {
    static let fixtures: URL = Fixtures.url("fuzz")

    static func savedInputs() -> [(target: FuzzTarget, file: String)] {
        FuzzTarget.allCases.flatMap { target -> [(FuzzTarget, String)] in
            let folder = fixtures.appendingPathComponent(target.rawValue)
            let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            return files.sorted().map { (target, folder.appendingPathComponent($0).path) }
        }
    }

    @Test("saved crashes stay fixed") func savedCrashesStayFixed() throws {
        let inputs = Self.savedInputs()
        #expect(!inputs.isEmpty, "the regression corpus must not vanish")
        for (target, file) in inputs {
            let bytes = try #require(FileManager.default.contents(atPath: file))
            target.run(Array(bytes))
        }
    }

    /// A stray timestamp decades away once made one device span 739,617 days.
    @Test("a corrupt year does not invent device days") func aCorruptYearDoesNotInventDeviceDays() throws {
        let file = Self.fixtures.appendingPathComponent("logs/year-25-days-apart.log").path
        var analyzer = LogAnalyzer()
        try analyzer.read(path: file)
        let analysis = analyzer.analysis()
        // The corrupt line reads as a continuation of the message before it (no valid timestamp).
        #expect(analysis.deviceDays <= 3)
    }

    static let seeds: [FuzzTarget: [String]] = [
        .scenario: [
            #"{"horizon": {"days": 3, "users": [5]}, "designs": [{"name": "x", "fetchTriggers": ["push"], "cacheTTLMinutes": 5}]}"#
        ],
        .thresholds: ["requestsPerUserMonth.p95{design=direct,users=1_000} >= 1.5e3", "quotaExceedProbability{tier=free} > 5%"],
        .rules: [#"{"rules": [{"event": "apiRequest", "message": "^\\[Net\\] (ok|fail)", "process": "App"}]}"#],
        .prices: [#"{"gemini/gemini-2.5-flash": {"input_cost_per_token": 3e-07, "output_cost_per_token": 2.5e-06}}"#],
        .logs: [
            #"{"schemaVersion":1,"timestamp":"2026-09-14T11:18:19.799-04:00","device":"d","event":"apiRequest","actor":"extension","outcome":"success"}"#
        ],
        .appleNDJSON: [
            #"{"timestamp":"2025-07-27 15:47:11.000000-0400","eventMessage":"Task <A>.<1> summary for task success {response_status=200}","processImagePath":"\/x\/AppWidgetExtension"}"#
        ],
        .appleCompact: [
            "2026-09-14 11:18:20.000 Df App[4242:1a2b] [com.apple.BackgroundTasks:default] Received run request for com.example.refresh"
        ],
        .swiftSource: [
            #"""
            struct P: TimelineProvider { /* a /* nested */ comment */
                let ttl: TimeInterval = 30 * 60
                func getTimeline(in c: Context, completion: @escaping (Timeline<E>) -> Void) {
                    Task { do { let (d, _) = try await URLSession.shared.data(for: r); print("\(d.count) \("x\(1)")") } catch { WidgetCenter.shared.reloadAllTimelines() } }
                    let s = #"raw \(no) "quote""# + """
                        multi \(line)
                        """
                    for i in 0..<3 { request.timeoutInterval = 10 }
                }
            }
            """#
        ],
        .propertyList: [
            #"<?xml version="1.0"?><!DOCTYPE plist><plist version="1.0"><dict><key>a</key><array><string>x &amp; y</string><integer>3</integer><real>1.5</real><true/><data>AAE=</data><date>2026-01-01T00:00:00Z</date></array></dict></plist>"#
        ],
        .xcodeProject: [
            #"// !$*UTF8*$!\#n{ objects = { A = { isa = PBXNativeTarget; name = "W x"; productType = "com.apple.product-type.app-extension"; buildPhases = ( B, ); }; B = { isa = PBXSourcesBuildPhase; files = ( C /* c */, ); }; C = { isa = PBXBuildFile; fileRef = D; }; D = { isa = PBXFileReference; path = W.swift; sourceTree = "<group>"; }; }; }"#
        ],
        .xcodeGen: [
            "name: Q\ninclude: [Widget/project.yml]\ntargets:\n  App:\n    type: application\n    sources:\n      - path: App\n        excludes: [\"*.md\"]\n    info: {path: App/Info.plist, properties: {A: [1, \"b\"]}}\n  W:\n    type: app-extension\n    sources: [Widget]\n    entitlements:\n      properties:\n        g:\n          - group.q\n    t: |\n      x\n"
        ],
    ]

    /// Each format's target starts its input with a line of that format, so the fuzzer's bytes
    /// reach that format's parser rather than the "unknown format" answer.
    @Test(
        "each format target reaches its parser",
        arguments: [
            (FuzzTarget.traceNDJSON, LogFormat.traceNDJSON), (.traceCSV, .traceCSV), (.appleNDJSON, .appleNDJSON),
            (.appleJSON, .appleJSON), (.appleDefault, .appleDefault), (.appleSyslog, .appleSyslog), (.appleCompact, .appleCompact),
        ])
    func eachFormatTargetReachesItsParser(target: FuzzTarget, format: LogFormat) throws {
        let record = target == .traceCSV ? "1,2026-09-14T11:18:19.799-04:00,d1,getTimeline" + String(repeating: ",", count: 12) + "\n" : ""
        var analyzer = LogAnalyzer()
        var source = MemoryByteSource(target.prefix + record)
        try analyzer.read(source: &source, name: "fuzz")
        #expect(analyzer.analysis().files.first?.format == format.rawValue)
        #expect(analyzer.analysis().linesRecognised >= 1 || target == .appleJSON)
    }

    @Test("mutated inputs never crash", arguments: Array(Self.seeds.keys).sorted { $0.rawValue < $1.rawValue })
    func mutatedInputsNeverCrash(target: FuzzTarget) {
        var rng = RandomStream(seed: 99, RandomStream.mix(UInt64(target.rawValue.utf8.count)))
        // Distinct inputs the target returned from: a crash ends the process, and a mutator that
        // stopped mutating would leave only the seeds.
        var survived = Set<[UInt8]>()
        for seed in Self.seeds[target]! {
            let original = Array(seed.utf8)
            for _ in 0..<150 {
                var bytes = original
                for _ in 0..<(1 + Int(rng.next() % 4)) {
                    guard !bytes.isEmpty else { break }
                    let at = Int(rng.next() % UInt64(bytes.count))
                    switch rng.next() % 5 {
                    case 0: bytes[at] = UInt8(truncatingIfNeeded: rng.next())
                    case 1: bytes.remove(at: at)
                    case 2: bytes.insert(contentsOf: bytes[at...].prefix(8), at: at)
                    case 3: bytes = Array(bytes.prefix(at))
                    default: bytes.insert([0x22, 0x5C, 0x0A, 0x7B, 0x5B, 0x2D, 0x39][Int(rng.next() % 7)], at: at)
                    }
                }
                target.run(bytes)
                survived.insert(bytes)
            }
        }
        #expect(survived.count > 100 * Self.seeds[target]!.count, "\(survived.count) distinct mutated inputs")
    }
}
