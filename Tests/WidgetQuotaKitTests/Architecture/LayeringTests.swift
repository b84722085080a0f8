import Foundation
import Testing

/// The library's folders form layers that only point down: a file may refer to types declared in
/// its own folder and in the folders its layer lists, never to a type of a higher layer.
@Suite("Layering")
struct LayeringTests {
    /// Each folder of `Sources/WidgetQuotaKit` and the folders below it that it may use.
    /// `docs/architecture.md` draws the same map.
    static let allowed: KeyValuePairs<String, [String]> = [
        "Support": [],
        "Model": ["Support"],
        "Lint/Source": ["Support"],
        "Logs/Parsing": ["Support", "Model"],
        "Logs/Analysis": ["Support", "Model", "Logs/Parsing"],
        "Logs/Writing": ["Support", "Model", "Logs/Parsing"],
        "Simulation": ["Support", "Model"],
        "Studies": ["Support", "Model", "Simulation"],
        "Studies/Calibration": ["Support", "Model", "Logs/Parsing", "Logs/Analysis", "Simulation"],
        "Studies/Traces": ["Support", "Model", "Logs/Parsing", "Logs/Writing", "Simulation"],
        "Gates": ["Support", "Model", "Simulation"],
        "Studies/Backtest": [
            "Support", "Model", "Logs/Parsing", "Logs/Analysis", "Logs/Writing", "Simulation", "Studies/Calibration",
            "Studies/Traces", "Gates",
        ],
        "Lint/Rules": ["Support", "Model", "Lint/Source"],
        "Lint/Design": ["Support", "Model", "Lint/Source", "Lint/Rules"],
        "Lint": ["Support", "Model", "Lint/Source", "Lint/Rules", "Lint/Design"],
        "Reporting/Charts": ["Support"],
        "Reporting/Html": ["Support", "Reporting/Charts"],
        "Reporting": [
            "Support", "Model", "Logs/Parsing", "Logs/Analysis", "Simulation", "Studies",
            "Studies/Calibration", "Studies/Backtest", "Gates", "Lint/Source", "Lint/Rules", "Lint/Design", "Lint",
            "Reporting/Charts", "Reporting/Html",
        ],
        "Pipeline": [
            "Support", "Model", "Lint/Source", "Logs/Parsing", "Logs/Analysis", "Logs/Writing", "Simulation", "Studies",
            "Studies/Calibration", "Studies/Traces", "Studies/Backtest", "Gates", "Lint/Rules", "Lint/Design", "Lint",
            "Reporting/Charts",
            "Reporting/Html", "Reporting",
        ],
        "Tools/Benchmarks": [
            "Support", "Model", "Lint/Source", "Logs/Parsing", "Logs/Analysis", "Logs/Writing", "Simulation",
            "Studies", "Studies/Calibration", "Studies/Traces", "Studies/Backtest", "Lint/Rules", "Lint/Design", "Lint",
            "Pipeline",
        ],
        "Tools/Fuzzing": [
            "Support", "Model", "Lint/Source", "Logs/Parsing", "Logs/Analysis", "Logs/Writing", "Simulation", "Studies",
            "Studies/Calibration", "Studies/Traces", "Studies/Backtest", "Gates", "Lint/Rules", "Lint/Design", "Lint",
            "Reporting/Charts", "Reporting/Html", "Reporting", "Pipeline",
        ],
    ]

    /// One reference from a file to a type its folder may not use.
    struct Violation: CustomStringConvertible, Equatable {
        var file: String
        var type: String
        var declaredIn: String
        var description: String { "\(file) uses \(type), declared in \(declaredIn)" }
    }

    /// The references in `files` (path relative to the library → source) that break `allowed`,
    /// and the folders that `allowed` does not place.
    static func check(_ files: [String: String], allowed: [String: [String]]) -> (violations: [Violation], unplaced: [String]) {
        func folder(_ path: String) -> String { path.split(separator: "/").dropLast().joined(separator: "/") }
        let code = files.mapValues(SwiftReferenceScanner.code)
        var owner = [String: String]()
        for (path, text) in code.sorted(by: { $0.key < $1.key }) {
            for name in SwiftReferenceScanner.declarations(in: text) where owner[name] == nil { owner[name] = folder(path) }
        }
        var violations = [Violation]()
        var unplaced = Set<String>()
        for (path, text) in code.sorted(by: { $0.key < $1.key }) {
            let here = folder(path)
            guard let below = allowed[here] else {
                unplaced.insert(here)
                continue
            }
            for name in SwiftReferenceScanner.capitalisedIdentifiers(in: text).sorted() {
                guard let there = owner[name], there != here, !below.contains(there) else { continue }
                violations.append(Violation(file: path, type: name, declaredIn: there))
            }
        }
        return (violations, unplaced.sorted())
    }

    static var allowedMap: [String: [String]] { Dictionary(uniqueKeysWithValues: allowed.map { ($0.key, $0.value) }) }

    @Test("no file of the library refers to a type of a higher layer, and every folder has a layer")
    func layersOnlyPointDown() throws {
        let files = try SourceTree.swiftFiles(under: "Sources/WidgetQuotaKit")
        #expect(files.count > 50)
        let (violations, unplaced) = Self.check(files, allowed: Self.allowedMap)
        #expect(violations.isEmpty, "\(violations.map(\.description).joined(separator: "\n"))")
        #expect(unplaced.isEmpty, "folders without a layer in LayeringTests.allowed: \(unplaced)")
    }

    @Test("the map only lets a layer use layers listed before it (no cycles)")
    func theMapHasNoCycles() {
        var seen = Set<String>()
        for (folder, below) in Self.allowed {
            #expect(below.allSatisfy(seen.contains), "\(folder) may use a folder listed after it")
            seen.insert(folder)
        }
    }

    @Test("the checker finds an upward reference, even one inside a string interpolation")
    func theCheckerCatchesAnUpwardReference() {
        let files = [
            "Support/Text.swift": "/// Uses Engine in a comment only.\nenum Text { static let s = \"Engine\" }\n",
            "Simulation/Engine.swift": "struct Engine { let t = Text.self }\n",
            "Support/Bad.swift": "enum Bad { static func f() -> String { \"\\(Engine.self)\" } }\n",
            "Extra/Lost.swift": "enum Lost {}\n",
        ]
        let (violations, unplaced) = Self.check(files, allowed: ["Support": [], "Simulation": ["Support"]])
        #expect(violations == [Violation(file: "Support/Bad.swift", type: "Engine", declaredIn: "Simulation")])
        #expect(unplaced == ["Extra"])
    }

    @Test("the architecture page lists the same folders as the layer map")
    func docsDrawTheSameMap() throws {
        let page = try SourceTree.text("docs/architecture.md")
        let listed = page.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("| `") else { return nil }
            return line.dropFirst(3).split(separator: "`").first.map(String.init)
        }
        #expect(listed == Self.allowed.map(\.key))
    }
}
