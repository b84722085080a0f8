import Foundation

/// Files the tests read: the target's `Fixtures/` resources, and files of the package itself
/// (README, SampleLogs, Reports). The one place that knows where either lives.
package enum Fixtures {
    /// The test-support target's copy of `Tests/WidgetQuotaTestSupport/Fixtures` (a resource, see Package.swift).
    package static let folder: URL = Bundle.module.resourceURL!.appendingPathComponent("Fixtures")

    /// A fixture's URL, by its path under `Fixtures/` ("logs/apple.json").
    package static func url(_ name: String) -> URL {
        folder.appendingPathComponent(name)
    }

    /// A fixture's path, by its path under `Fixtures/`.
    package static func path(_ name: String) -> String {
        url(name).path
    }

    /// A fixture's text, by its path under `Fixtures/`.
    package static func text(_ name: String) throws -> String {
        try String(contentsOf: url(name), encoding: .utf8)
    }

    /// The package root (the folder holding Package.swift).
    package static var packageRoot: URL { SourceTree.root }

    /// A file of the package, by its path from the root ("SampleLogs/direct-trace.ndjson").
    package static func packageURL(_ path: String) -> URL {
        packageRoot.appendingPathComponent(path)
    }

    /// A saved report's text, by its path under `Fixtures/reports/`.
    package static func report(_ name: String) throws -> String {
        try text("reports/" + name)
    }
}
