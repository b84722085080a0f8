// swift-tools-version:6.1
import PackageDescription

// Each library target is one layer of docs/architecture.md and depends only on the layers below
// it, so the compiler refuses a reference that points up. `ArchitectureTests` holds this graph
// and the document's drawing of it equal.
let package = Package(
    name: "WidgetQuota",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "WidgetQuotaKit", targets: ["WidgetQuotaKit"]),
        .executable(name: "widget-quota", targets: ["widget-quota"]),
        .plugin(name: "WidgetQuotaLintPlugin", targets: ["WidgetQuotaLintPlugin"]),
    ],
    targets: [
        // Numbers and their text, random streams, statistics, JSON, CSV, files, errors.
        .target(name: "WidgetQuotaSupport"),
        // The scenario, designs and presets, distributions, quota tiers, prices, the event vocabulary.
        .target(name: "WidgetQuotaModel", dependencies: ["WidgetQuotaSupport"]),
        // An app's source tree: the Swift lexer and index, property lists, Xcode projects.
        .target(name: "WidgetQuotaSwiftSource", dependencies: ["WidgetQuotaSupport"]),
        // SVG charts and the building blocks of a self-contained web page.
        .target(name: "WidgetQuotaCharts", dependencies: ["WidgetQuotaSupport"]),
        // Logs: bytes → records → measurements per device and day, and records → Apple-style lines.
        .target(name: "WidgetQuotaLogs", dependencies: ["WidgetQuotaModel"]),
        // The event-by-event user simulator, the Monte-Carlo engine, load projection, results.
        .target(name: "WidgetQuotaSimulation", dependencies: ["WidgetQuotaModel"]),
        // The pre-release checklist's rules, the design reader and a lint run.
        .target(name: "WidgetQuotaLint", dependencies: ["WidgetQuotaModel", "WidgetQuotaSwiftSource"]),
        // Thresholds over a report's metrics, and the comparison of two reports.
        .target(name: "WidgetQuotaGates", dependencies: ["WidgetQuotaSimulation"]),
        // Questions asked of the engine: calibration, traces, back-test, sweep, sensitivity, advice.
        .target(
            name: "WidgetQuotaStudies",
            dependencies: ["WidgetQuotaLogs", "WidgetQuotaSimulation", "WidgetQuotaGates"]
        ),
        // Every renderer: Markdown, the web page, CSV, JSON, charts, SARIF.
        .target(
            name: "WidgetQuotaReporting",
            dependencies: ["WidgetQuotaStudies", "WidgetQuotaLint", "WidgetQuotaCharts"]
        ),
        // The jobs a command runs, and the public face of the library.
        .target(name: "WidgetQuotaKit", dependencies: ["WidgetQuotaReporting"]),
        // Benchmarks and fuzz targets: package access only, not part of the library product.
        .target(name: "WidgetQuotaTools", dependencies: ["WidgetQuotaKit"]),
        // Commands and their flags, over the jobs; testable without spawning a process.
        .target(name: "WidgetQuotaCLI", dependencies: ["WidgetQuotaKit", "WidgetQuotaTools"]),
        .executableTarget(name: "widget-quota", dependencies: ["WidgetQuotaCLI", "WidgetQuotaSupport"]),
        // `swift package widget-quota-lint`: lint run by SwiftPM (and Xcode) on a package or project.
        .plugin(
            name: "WidgetQuotaLintPlugin",
            capability: .command(
                intent: .custom(
                    verb: "widget-quota-lint",
                    description: "Check the source against the widget pre-release checklist (widget-quota lint)")),
            path: "Sources/WidgetQuotaLintPlugin"
        ),
        // libFuzzer entry points (built with -sanitize=fuzzer -DFUZZING) or a replayer of saved inputs.
        .executableTarget(name: "widget-quota-fuzz", dependencies: ["WidgetQuotaTools"]),
        // What the test targets share: fixtures (as resources), the package's files, format checkers.
        .target(
            name: "WidgetQuotaTestSupport",
            dependencies: [
                "WidgetQuotaCLI", "WidgetQuotaGates", "WidgetQuotaLogs", "WidgetQuotaModel",
                "WidgetQuotaReporting", "WidgetQuotaSimulation", "WidgetQuotaStudies", "WidgetQuotaSupport",
            ],
            path: "Tests/WidgetQuotaTestSupport",
            resources: [.copy("Fixtures")]
        ),
        // One test target per module, named after it.
        .testTarget(
            name: "WidgetQuotaCLITests",
            dependencies: [
                "WidgetQuotaCLI", "WidgetQuotaGates", "WidgetQuotaKit", "WidgetQuotaLint", "WidgetQuotaLogs",
                "WidgetQuotaModel", "WidgetQuotaStudies", "WidgetQuotaSupport", "WidgetQuotaTestSupport",
                "WidgetQuotaTools",
            ],
            // The help snapshots, read from the package tree.
            exclude: ["Snapshots"]
        ),
        .testTarget(
            name: "WidgetQuotaChartsTests",
            dependencies: [
                "WidgetQuotaCharts", "WidgetQuotaReporting", "WidgetQuotaStudies", "WidgetQuotaSupport",
                "WidgetQuotaTestSupport",
            ]
        ),
        .testTarget(
            name: "WidgetQuotaGatesTests",
            dependencies: [
                "WidgetQuotaGates", "WidgetQuotaReporting", "WidgetQuotaSupport", "WidgetQuotaTestSupport",
            ]
        ),
        .testTarget(
            name: "WidgetQuotaKitTests",
            dependencies: [
                "WidgetQuotaKit", "WidgetQuotaLint", "WidgetQuotaLogs", "WidgetQuotaModel", "WidgetQuotaReporting",
                "WidgetQuotaSwiftSource", "WidgetQuotaTestSupport",
            ]
        ),
        .testTarget(
            name: "WidgetQuotaLintTests",
            dependencies: [
                "WidgetQuotaLint", "WidgetQuotaModel", "WidgetQuotaSupport", "WidgetQuotaSwiftSource",
                "WidgetQuotaTestSupport",
            ]
        ),
        .testTarget(
            name: "WidgetQuotaLogsTests",
            dependencies: [
                "WidgetQuotaLogs", "WidgetQuotaModel", "WidgetQuotaReporting", "WidgetQuotaStudies",
                "WidgetQuotaSupport", "WidgetQuotaTestSupport",
            ]
        ),
        .testTarget(
            name: "WidgetQuotaModelTests",
            dependencies: [
                "WidgetQuotaCLI", "WidgetQuotaModel", "WidgetQuotaSupport", "WidgetQuotaTestSupport",
            ]
        ),
        .testTarget(
            name: "WidgetQuotaReportingTests",
            dependencies: [
                "WidgetQuotaCLI", "WidgetQuotaCharts", "WidgetQuotaGates", "WidgetQuotaLint", "WidgetQuotaLogs",
                "WidgetQuotaModel", "WidgetQuotaReporting", "WidgetQuotaSimulation", "WidgetQuotaStudies",
                "WidgetQuotaSupport", "WidgetQuotaTestSupport",
            ]
        ),
        .testTarget(
            name: "WidgetQuotaSimulationTests",
            dependencies: [
                "WidgetQuotaModel", "WidgetQuotaReporting", "WidgetQuotaSimulation", "WidgetQuotaSupport",
                "WidgetQuotaTestSupport",
            ]
        ),
        .testTarget(
            name: "WidgetQuotaStudiesTests",
            dependencies: [
                "WidgetQuotaGates", "WidgetQuotaKit", "WidgetQuotaLogs", "WidgetQuotaModel",
                "WidgetQuotaReporting", "WidgetQuotaSimulation", "WidgetQuotaStudies", "WidgetQuotaSupport",
                "WidgetQuotaTestSupport",
            ]
        ),
        .testTarget(
            name: "WidgetQuotaSupportTests",
            dependencies: [
                "WidgetQuotaModel", "WidgetQuotaSimulation", "WidgetQuotaSupport", "WidgetQuotaTestSupport",
            ]
        ),
        .testTarget(
            name: "WidgetQuotaSwiftSourceTests",
            dependencies: [
                "WidgetQuotaSupport", "WidgetQuotaSwiftSource", "WidgetQuotaTestSupport",
            ]
        ),
        .testTarget(
            name: "WidgetQuotaToolsTests",
            dependencies: [
                "WidgetQuotaLogs", "WidgetQuotaSupport", "WidgetQuotaTestSupport", "WidgetQuotaTools",
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// The tests share the release build of the modules they test, which stay optimised; the test code
// itself is compiled without optimisation, which halves its build and leaves its run time as it is.
for target in package.targets where target.type == .test || target.name == "WidgetQuotaTestSupport" {
    target.swiftSettings = [.unsafeFlags(["-Onone"])]
}
