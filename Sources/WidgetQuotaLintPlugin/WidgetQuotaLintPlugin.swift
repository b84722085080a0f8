import Foundation
import PackagePlugin

/// `swift package widget-quota-lint [--target NAME]… [LINT OPTIONS]`: builds `widget-quota` and runs
/// `lint` on the package's source (or the named targets' folders), and in Xcode on the project's
/// folder, with findings as `path:line:column` diagnostics that Xcode and the terminal show.
@main
struct WidgetQuotaLintPlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var extractor = ArgumentExtractor(arguments)
        let names = extractor.extractOption(named: "target")
        let folders =
            try names.isEmpty
            ? [context.package.directoryURL.path]
            : context.package.targets(named: names).map(\.directoryURL.path)
        // Built on demand (not a tool dependency), so building the package's tests does not
        // build every library module a second time for the plugin.
        let build = try packageManager.build(.product("widget-quota"), parameters: .init(configuration: .release, echoLogs: false))
        guard build.succeeded, let tool = build.builtArtifacts.first(where: { $0.kind == .executable }) else {
            Diagnostics.error("building widget-quota failed:\n" + build.logText)
            return
        }
        try Self.lint(tool: tool.url, folders: folders, options: extractor.remainingArguments)
    }

    /// Runs `lint` on `folders`, in Xcode's format unless the options name another; an exit status
    /// other than 0 is reported as an error, which fails the command.
    static func lint(tool: URL, folders: [String], options: [String]) throws {
        let format = options.contains("--format") || options.contains { $0.hasPrefix("--format=") } ? [] : ["--format", "xcode"]
        let process = Process()
        process.executableURL = tool
        process.arguments = ["lint"] + folders + format + options
        try process.run()
        process.waitUntilExit()
        if process.terminationStatus != 0 {
            Diagnostics.error("widget-quota lint exited \(process.terminationStatus) (1: findings at or above --fail-on; see docs/lint.md)")
        }
    }
}

#if canImport(XcodeProjectPlugin)
    import XcodeProjectPlugin

    extension WidgetQuotaLintPlugin: XcodeCommandPlugin {
        /// From Xcode (the project's context menu): lints the project's folder with the
        /// `widget-quota` on `PATH` (an Xcode project has no package graph to build it from).
        func performCommand(context: XcodePluginContext, arguments: [String]) throws {
            var extractor = ArgumentExtractor(arguments)
            _ = extractor.extractOption(named: "target")
            let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/opt/homebrew/bin"
            let found = (path.split(separator: ":").map { String($0) + "/widget-quota" } + ["\(NSHomeDirectory())/.mint/bin/widget-quota"])
                .first { FileManager.default.isExecutableFile(atPath: $0) }
            guard let tool = found else {
                Diagnostics.error(
                    "widget-quota is not on PATH; install it (see docs/ci.md) or run `swift package widget-quota-lint` in a package")
                return
            }
            try Self.lint(
                tool: URL(fileURLWithPath: tool), folders: [context.xcodeProject.directoryURL.path],
                options: extractor.remainingArguments)
        }
    }
#endif
