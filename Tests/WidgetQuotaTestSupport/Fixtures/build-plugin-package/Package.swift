// swift-tools-version:6.0
// A package whose widget target applies the build-tool plugin, so `swift build` lints it
// (scripts/try-plugin.sh builds it). It depends on WidgetQuota, four folders up, for the plugin.
import PackageDescription

let package = Package(
    name: "BuildPluginFixture",
    dependencies: [.package(name: "WidgetQuota", path: "../../../..")],
    targets: [
        .target(name: "Widget", plugins: [.plugin(name: "WidgetQuotaLintBuildPlugin", package: "WidgetQuota")])
    ]
)
