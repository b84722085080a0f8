// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "WidgetQuota",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "WidgetQuotaKit", targets: ["WidgetQuotaKit"]),
        .executable(name: "widget-quota", targets: ["widget-quota"]),
    ],
    targets: [
        // The domain: scenario model, simulation, log parsing, planning and reporting.
        .target(name: "WidgetQuotaKit"),
        // Commands and their flags, over the domain; testable without spawning a process.
        .target(name: "WidgetQuotaCLI", dependencies: ["WidgetQuotaKit"]),
        .executableTarget(name: "widget-quota", dependencies: ["WidgetQuotaCLI"]),
        // libFuzzer entry points (built with -sanitize=fuzzer -DFUZZING) or a replayer of saved inputs.
        .executableTarget(name: "widget-quota-fuzz", dependencies: ["WidgetQuotaKit"]),
        .testTarget(
            name: "WidgetQuotaKitTests",
            dependencies: ["WidgetQuotaKit", "WidgetQuotaCLI"],
            resources: [.copy("Fixtures")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
