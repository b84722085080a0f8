// swift-tools-version:6.0
// A package whose widget calls the API from getTimeline, for `swift package widget-quota-lint`
// (scripts/try-plugin.sh runs it). It depends on WidgetQuota, four folders up, for the plugin.
import PackageDescription

let package = Package(
    name: "PluginFixture",
    dependencies: [.package(name: "WidgetQuota", path: "../../../..")],
    targets: [.target(name: "Widget")]
)
