import Foundation
import PackagePlugin

/// Lints on every build: applied to a target (`plugins: [.plugin(name: "WidgetQuotaLintBuildPlugin",
/// package: "WidgetQuota")]`, or an Xcode target's Run Build Tool Plug-ins phase), it runs
/// `widget-quota lint` on the target's folder (in Xcode, on the project's folder) whenever one of
/// its files changes, with findings as `path:line:column: error|warning|note:` lines that Xcode
/// shows in its issue navigator and on the lines. The configuration file and inline directives
/// decide what is reported; an error finding fails the build (set `--fail-on` in
/// `.widget-quota-lint.json`'s rules, or disable a rule, to keep it a warning).
///
/// A build command runs only for the outputs it declares, so the command also writes an empty
/// Swift file that the target compiles: it adds no symbol and no resource.
@main
struct WidgetQuotaLintBuildPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let inputs = target.sourceFiles.map(\.url)
        return [
            try Self.command(
                tool: context.tool(named: "widget-quota").url, folder: target.directoryURL, inputs: inputs,
                workDirectory: context.pluginWorkDirectoryURL, name: target.name)
        ]
    }

    /// `/bin/sh` runs lint (its findings on standard output, its exit status the command's), then
    /// writes the stamp the build compiles.
    static func command(tool: URL, folder: URL, inputs: [URL], workDirectory: URL, name: String) throws -> Command {
        let stamp = workDirectory.appendingPathComponent("WidgetQuotaLint-\(name).swift")
        let script = """
            "$1" lint "$2" --format xcode
            status=$?
            printf '// widget-quota lint ran on %s\\n' "$2" > "$3" || exit 1
            exit "$status"
            """
        return .buildCommand(
            displayName: "widget-quota lint \(name)", executable: URL(fileURLWithPath: "/bin/sh"),
            arguments: ["-c", script, "sh", tool.path, folder.path, stamp.path], inputFiles: inputs + [tool],
            outputFiles: [stamp])
    }
}

#if canImport(XcodeProjectPlugin)
    import XcodeProjectPlugin

    extension WidgetQuotaLintBuildPlugin: XcodeBuildToolPlugin {
        /// In an Xcode project: lints the project's folder, so the app, its widget extension and
        /// their property lists are read together, when one of the target's files changes.
        func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command] {
            let inputs = target.inputFiles.map(\.url)
            return [
                try Self.command(
                    tool: context.tool(named: "widget-quota").url, folder: context.xcodeProject.directoryURL, inputs: inputs,
                    workDirectory: context.pluginWorkDirectoryURL, name: target.displayName)
            ]
        }
    }
#endif
