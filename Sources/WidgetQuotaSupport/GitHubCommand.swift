/// GitHub Actions workflow commands, escaped as the runner reads them.
package enum GitHubCommand {
    /// `::LEVEL key=value,…::message`.
    package static func annotation(_ level: String, _ properties: [(String, String)], _ message: String) -> String {
        let list = properties.map { $0.0 + "=" + escapeProperty($0.1) }.joined(separator: ",")
        return "::" + level + (list.isEmpty ? "" : " " + list) + "::" + escapeData(message)
    }

    /// A message: `%`, CR and LF escaped.
    package static func escapeData(_ text: String) -> String {
        text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }

    /// A property value: also `:` and `,`.
    package static func escapeProperty(_ text: String) -> String {
        escapeData(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }
}
