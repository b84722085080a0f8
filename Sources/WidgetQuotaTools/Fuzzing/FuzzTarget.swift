import Foundation
import WidgetQuotaGates
import WidgetQuotaLogs
import WidgetQuotaModel
import WidgetQuotaReporting
import WidgetQuotaSimulation
import WidgetQuotaStudies
import WidgetQuotaSupport
import WidgetQuotaSwiftSource

/// Entry points for fuzzing every parser: each takes arbitrary bytes and must never crash,
/// hang or corrupt memory; errors are expected answers. Used by the libFuzzer executable
/// (`widget-quota-fuzz`) and by the regression tests, which replay every input that ever
/// crashed one of them.
package enum FuzzTarget: String, CaseIterable, Sendable {
    case scenario
    case thresholds
    case rules
    case prices
    /// Any log, format detected.
    case logs
    case traceNDJSON = "trace-ndjson"
    case traceCSV = "trace-csv"
    case appleNDJSON = "apple-ndjson"
    case appleJSON = "apple-json"
    case appleDefault = "apple-default"
    case appleSyslog = "apple-syslog"
    case appleCompact = "apple-compact"
    /// Swift source through `lint`'s lexer, file index and its queries.
    case swiftSource = "swift-source"
    /// An XML property list (`Info.plist`, `.entitlements`).
    case propertyList = "plist"
    /// An Xcode project file (`project.pbxproj`) and its targets.
    case xcodeProject = "pbxproj"
    /// An XcodeGen spec (`project.yml`): the YAML reader, and the spec read as a project.
    case xcodeGen = "xcodegen"

    /// A first line that steers format detection, so each style's parser gets the fuzzer's attention.
    package var prefix: String {
        switch self {
        case .traceNDJSON:
            return
                #"{"schemaVersion":1,"timestamp":"2026-09-14T11:18:19.799-04:00","device":"d1","event":"getTimeline","widgetKind":"W","widgetFamily":"systemSmall","instance":0}"#
                + "\n"
        case .traceCSV:
            return TraceFormat.csvHeader + "\n"
        case .appleNDJSON:
            return
                #"{"timestamp":"2025-07-27 15:47:10.504275-0400","eventMessage":"Request ended for W:systemSmall:(noIntent) - success","processImagePath":"\/private\/var\/containers\/Bundle\/Application\/X\/App.app\/PlugIns\/AppWidgetExtension.appex\/AppWidgetExtension","messageType":"Default","subsystem":"com.apple.chrono","category":"timeline","processID":4242}"#
                + "\n"
        case .appleJSON:
            return
                "Filtering the log data using \"process == \\\"App\\\"\"\n[{\n  \"timestamp\" : \"2025-07-27 15:47:10.504275-0400\",\n  \"eventMessage\" : \"hello\"\n},"
        case .appleDefault:
            return "Timestamp                       Thread     Type        Activity             PID    TTL  \n"
                + "2025-07-27 15:47:10.504275-0400  0x1a2b3c   Default     0x0                  4242   0    AppWidgetExtension: (WidgetKit) [com.apple.chrono:timeline] Request ended for W:systemSmall:(noIntent) - success\n"
        case .appleSyslog:
            return "Timestamp                       (process)[PID]\n"
                + "2025-07-27 15:47:10.504275-0400  localhost AppWidgetExtension[4242]: (WidgetKit) [com.apple.chrono:timeline] Request ended for W:systemSmall:(noIntent) - success\n"
        case .appleCompact:
            return "Timestamp               Ty Process[PID:TID]\n"
                + "2026-09-14 11:18:19.799 Df AppWidgetExtension[4242:1a2b] [com.apple.chrono:timeline] Request ended for W:systemSmall:(noIntent) - success\n"
        default:
            return ""
        }
    }

    /// Feeds `bytes` to the parser; anything but a crash is a pass.
    package func run(_ bytes: [UInt8]) {
        switch self {
        case .scenario: FuzzTarget.scenario(bytes)
        case .thresholds: FuzzTarget.thresholds(bytes)
        case .rules: FuzzTarget.rules(bytes)
        case .prices: _ = try? PriceTable.decode(Data(bytes), file: "prices.json")
        case .swiftSource: FuzzTarget.swiftSource(bytes)
        case .propertyList: _ = try? PropertyList.parseXML(bytes, file: "Info.plist")
        case .xcodeProject: _ = try? XcodeProject.parse(bytes, file: "project.pbxproj")
        case .xcodeGen:
            let text = String(decoding: bytes, as: UTF8.self)
            _ = try? XcodeGenSpec.read(
                spec: "project.yml", text: { $0 == "project.yml" || $0 == "Widget/project.yml" ? text : nil },
                paths: ["project.yml", "Widget/project.yml", "Widget/Provider.swift", "App/App.swift", "App/Info.plist"])
        default: FuzzTarget.logs(Array(prefix.utf8) + bytes)
        }
    }

    static func scenario(_ bytes: [UInt8]) {
        guard var s = try? ScenarioLoader.decode(Data(bytes), file: "scenario.json") else { return }
        // A valid scenario must also simulate: shrink it so one input stays fast.
        s.horizon.days = min(s.horizon.days, 2)
        s.horizon.warmupDays = min(s.horizon.warmupDays, 1)
        s.horizon.runs = 1
        s.horizon.sampleUsers = min(s.horizon.sampleUsers, 3)
        s.horizon.users = [min(s.horizon.users.max() ?? 1, 5)]
        // What the validator ties to the horizon follows it (a day-20 event on a 2-day horizon
        // is refused for a user, so it must not reach the engine here either).
        s.api.outages = s.api.outages.filter { $0.day <= s.horizon.days }
        s.calendar.events = s.calendar.events.filter { $0.day <= s.horizon.days }
        s.quotas.tiers = Array(s.quotas.tiers.prefix(1))
        let designs = Array(s.availableDesigns.suffix(2))
        let result = MonteCarloEngine(scenario: s, designs: designs, threads: 1).run()
        _ = SimulationReport(result).markdown()
    }

    static func thresholds(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let expression = try? ThresholdExpression.parse(text) else { return }
        let report =
            #"{"results": [{"design": "direct", "users": 1000, "requestsPerUserMonth": {"mean": 900, "p95": 1200}, "quota": [{"tier": "free", "exceedProbability": 1}]}]}"#
        guard let json = try? JSONValue.parse(Data(report.utf8), file: "report.json") else { return }
        _ = try? ThresholdEvaluator.evaluate(Threshold(expression: expression, severity: .fail), on: MetricTable(json: json))
    }

    static func rules(_ bytes: [UInt8]) {
        guard let rules = try? LogRules.parse(Data(bytes), file: "rules.json") else { return }
        var options = LogAnalyzer.Options()
        options.rules = rules
        var analyzer = LogAnalyzer(options: options)
        var source = MemoryByteSource(Array(FuzzTarget.appleCompact.prefix.utf8))
        try? analyzer.read(source: &source, name: "log")
        _ = analyzer.analysis()
    }

    /// Lexes and indexes `bytes` as Swift and runs the queries rules make; checks the
    /// invariants every other stage relies on (tokens in order and inside the input, blocks
    /// closing after they open).
    static func swiftSource(_ bytes: [UInt8]) {
        let tokens = SwiftLexer.tokens(utf8: bytes)
        precondition(tokens.count <= bytes.count, "more tokens than bytes")
        var previous = -1
        for t in tokens {
            precondition(t.start >= previous && t.start <= t.end && t.end <= bytes.count, "a token out of order or out of the input")
            previous = t.start
        }
        let index = SwiftFileIndex(path: "fuzz.swift", tokens: tokens)
        for b in index.blocks { precondition(b.open < b.close && b.close <= index.tokens.count, "a block closing before it opens") }
        for call in index.calls.prefix(64) {
            _ = index.isInside(call, .catchBlock)
            _ = index.isInLoop(call)
            _ = index.isInsideClosure(of: call, passedTo: "register")
            _ = index.closureArgument(of: call)
            _ = index.enclosingFunction(of: call)
            for a in call.arguments { _ = index.numericValue(a.tokens) }
        }
        for f in index.functions.prefix(16) { _ = index.calls(inside: f) }
        for c in index.constants.prefix(64) { _ = index.numericValue(c.value) }
        for a in index.assignments.prefix(64) { _ = index.text(a.value) }
    }

    static func logs(_ bytes: [UInt8]) {
        for strict in [false, true] {
            var options = LogAnalyzer.Options()
            options.strict = strict
            options.bufferSize = 4_096  // small chunks exercise line boundaries
            // A small duplicate window: cheap to set up per input, and its wrap-around is reached.
            options.duplicateWindowLines = 64
            options.duplicateWindowBytes = 4_096
            var analyzer = LogAnalyzer(options: options)
            // The strict pass reads like a pipe, so repeats are confirmed from copies, not by
            // reading the input again.
            if strict {
                var source = ForwardOnlyByteSource(inner: MemoryByteSource(bytes, maxRead: 777))
                try? analyzer.read(source: &source, name: "device.log")
            } else {
                var source = MemoryByteSource(bytes, maxRead: 777)
                try? analyzer.read(source: &source, name: "device.log")
            }
            let analysis = analyzer.analysis()
            let report = LogReport(analysis)
            _ = report.markdown()
            _ = report.csv()
            _ = try? report.json()
            _ = try? ScenarioCalibrator.calibrate(analysis, base: Scenario(), design: nil)
        }
    }
}
