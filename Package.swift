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
        .plugin(name: "WidgetQuotaLintBuildPlugin", targets: ["WidgetQuotaLintBuildPlugin"]),
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
        // The pre-release checklist's rules, the design reader, a lint run and its outputs
        // (Markdown, JSON, SARIF, annotations): lint builds without the engine.
        .target(name: "WidgetQuotaLint", dependencies: ["WidgetQuotaModel", "WidgetQuotaSwiftSource"]),
        // Thresholds over a report's metrics, and the comparison of two reports.
        .target(name: "WidgetQuotaGates", dependencies: ["WidgetQuotaSimulation"]),
        // Questions asked of the engine and the decisions read from its results: calibration,
        // traces, back-test, sweep, sensitivity; verdicts, the recommendation, the growth plan.
        .target(
            name: "WidgetQuotaStudies",
            dependencies: ["WidgetQuotaLogs", "WidgetQuotaSimulation"]
        ),
        // The renderers of the engine's results and studies: Markdown, the web page, CSV, JSON, charts.
        .target(
            name: "WidgetQuotaReporting", dependencies: ["WidgetQuotaStudies", "WidgetQuotaGates", "WidgetQuotaCharts"]
        ),
        // The jobs a command runs, and the public face of the library.
        .target(name: "WidgetQuotaKit", dependencies: ["WidgetQuotaReporting", "WidgetQuotaLint"]),
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
        // The same lint on every build of a target that applies it (SwiftPM and Xcode).
        .plugin(
            name: "WidgetQuotaLintBuildPlugin", capability: .buildTool(), dependencies: ["widget-quota"],
            path: "Sources/WidgetQuotaLintBuildPlugin"
        ),
        // libFuzzer entry points (built with -sanitize=fuzzer -DFUZZING) or a replayer of saved inputs.
        .executableTarget(name: "widget-quota-fuzz", dependencies: ["WidgetQuotaTools"]),
        // What the test targets share, one target per layer that needs helpers of its own, so that a
        // module's tests build only that module and what it depends on.
        // Fixtures (as resources), the package's files, format checkers, temporary folders, 4σ bounds: Support only.
        .target(
            name: "WidgetQuotaTestSupport",
            dependencies: ["WidgetQuotaSupport"],
            path: "Tests/WidgetQuotaTestSupport",
            resources: [.copy("Fixtures")]
        ),
        // Log fixtures analysed in memory, for the tests of Logs and the layers above it.
        .target(
            name: "WidgetQuotaLogsTestSupport",
            dependencies: ["WidgetQuotaLogs", "WidgetQuotaSupport", "WidgetQuotaTestSupport"],
            path: "Tests/WidgetQuotaLogsTestSupport"
        ),
        // Small scenarios and the engine run on them, for the tests of Simulation and the layers above it.
        .target(
            name: "WidgetQuotaSimulationTestSupport",
            dependencies: ["WidgetQuotaModel", "WidgetQuotaSimulation", "WidgetQuotaTestSupport"],
            path: "Tests/WidgetQuotaSimulationTestSupport"
        ),
        // One test target per module, named after it; each imports that module and the ones below it.
        .testTarget(
            name: "WidgetQuotaCLITests",
            dependencies: [
                "WidgetQuotaCLI", "WidgetQuotaGates", "WidgetQuotaKit", "WidgetQuotaLint", "WidgetQuotaLogs",
                "WidgetQuotaLogsTestSupport", "WidgetQuotaModel", "WidgetQuotaReporting", "WidgetQuotaStudies",
                "WidgetQuotaSupport", "WidgetQuotaTestSupport", "WidgetQuotaTools",
            ],
            // The help snapshots, read from the package tree.
            exclude: ["Snapshots"]
        ),
        .testTarget(
            name: "WidgetQuotaChartsTests",
            dependencies: ["WidgetQuotaCharts", "WidgetQuotaTestSupport"]
        ),
        .testTarget(
            name: "WidgetQuotaGatesTests",
            dependencies: [
                "WidgetQuotaGates", "WidgetQuotaSimulationTestSupport", "WidgetQuotaSupport", "WidgetQuotaTestSupport",
            ]
        ),
        .testTarget(
            name: "WidgetQuotaKitTests",
            dependencies: [
                "WidgetQuotaGates", "WidgetQuotaKit", "WidgetQuotaLint", "WidgetQuotaLogs",
                "WidgetQuotaLogsTestSupport", "WidgetQuotaModel", "WidgetQuotaReporting", "WidgetQuotaStudies",
                "WidgetQuotaSupport", "WidgetQuotaSwiftSource", "WidgetQuotaTestSupport",
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
                "WidgetQuotaLogs", "WidgetQuotaLogsTestSupport", "WidgetQuotaModel", "WidgetQuotaSupport",
                "WidgetQuotaTestSupport",
            ]
        ),
        .testTarget(
            name: "WidgetQuotaModelTests",
            dependencies: ["WidgetQuotaModel", "WidgetQuotaSupport", "WidgetQuotaTestSupport"]
        ),
        .testTarget(
            name: "WidgetQuotaReportingTests",
            dependencies: [
                "WidgetQuotaCharts", "WidgetQuotaGates", "WidgetQuotaLogs", "WidgetQuotaLogsTestSupport",
                "WidgetQuotaModel", "WidgetQuotaReporting", "WidgetQuotaSimulation",
                "WidgetQuotaSimulationTestSupport", "WidgetQuotaStudies", "WidgetQuotaSupport",
                "WidgetQuotaTestSupport",
            ]
        ),
        .testTarget(
            name: "WidgetQuotaSimulationTests",
            dependencies: [
                "WidgetQuotaModel", "WidgetQuotaSimulation", "WidgetQuotaSimulationTestSupport", "WidgetQuotaSupport",
                "WidgetQuotaTestSupport",
            ]
        ),
        .testTarget(
            name: "WidgetQuotaStudiesTests",
            dependencies: [
                "WidgetQuotaLogs", "WidgetQuotaLogsTestSupport", "WidgetQuotaModel", "WidgetQuotaSimulation",
                "WidgetQuotaSimulationTestSupport", "WidgetQuotaStudies", "WidgetQuotaSupport",
                "WidgetQuotaTestSupport",
            ]
        ),
        .testTarget(
            name: "WidgetQuotaSupportTests",
            dependencies: ["WidgetQuotaSupport", "WidgetQuotaTestSupport"]
        ),
        .testTarget(
            name: "WidgetQuotaSwiftSourceTests",
            dependencies: ["WidgetQuotaSupport", "WidgetQuotaSwiftSource", "WidgetQuotaTestSupport"]
        ),
        .testTarget(
            name: "WidgetQuotaToolsTests",
            dependencies: ["WidgetQuotaLogs", "WidgetQuotaSupport", "WidgetQuotaTestSupport", "WidgetQuotaTools"]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// The tests share the release build of the modules they test, which stay optimised; the test code
// itself is compiled without optimisation, which halves its build and leaves its run time as it is.
for target in package.targets where target.type == .test || target.name.hasSuffix("TestSupport") {
    target.swiftSettings = [.unsafeFlags(["-Onone"])]
}
