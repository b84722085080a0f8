/// The tool's version: the one source of it. `--version`, SARIF, the reports and the release
/// (scripts/release-check.sh holds the tag and CHANGELOG.md to it) read it from here.
package enum WidgetQuotaVersion {
    package static let current = "0.2.0"
}
