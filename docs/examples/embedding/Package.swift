// swift-tools-version:6.0
// A program that embeds WidgetQuota as a package dependency and uses its public API only.
import PackageDescription

let package = Package(
    name: "quota-check",
    platforms: [.macOS(.v14)],
    dependencies: [.package(name: "WidgetQuota", path: "../../..")],
    targets: [
        .executableTarget(
            name: "quota-check",
            dependencies: [.product(name: "WidgetQuotaKit", package: "WidgetQuota")]
        )
    ],
    swiftLanguageModes: [.v6]
)
