/// The tool's version.
package enum WidgetQuotaVersion {
    package static let current = "0.1.0"
}
