/// The tool's version.
public enum WidgetQuotaVersion {
    public static let current = "0.1.0"
}
