import Foundation
import PackagePlugin

/// `swift package widget-quota-lint [--target NAME]… [LINT OPTIONS]`: runs `widget-quota lint` on
/// the package's source (or the named targets' folders), and in Xcode on the project's folder, with
/// findings as `path:line:column` diagnostics that Xcode and the terminal show.
@main
struct WidgetQuotaLintPlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var extractor = ArgumentExtractor(arguments)
        let names = extractor.extractOption(named: "target")
        let folders =
            try names.isEmpty
            ? [context.package.directoryURL.path]
            : context.package.targets(named: names).map(\.directoryURL.path)
        try Self.lint(tool: context.tool(named: "widget-quota").url, folders: folders, options: extractor.remainingArguments)
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
        /// From Xcode (File ▸ Packages, or the project's context menu): lints the project's folder.
        func performCommand(context: XcodePluginContext, arguments: [String]) throws {
            var extractor = ArgumentExtractor(arguments)
            _ = extractor.extractOption(named: "target")
            try Self.lint(
                tool: context.tool(named: "widget-quota").url, folders: [context.xcodeProject.directoryURL.path],
                options: extractor.remainingArguments)
        }
    }
#endif
