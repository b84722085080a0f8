import WidgetQuotaKit

/// What a command is and takes: the single source of its parsing, usage line and help.
package struct CommandSpec: Sendable {
    package let name: String
    /// One line for the command list.
    let summary: String
    /// Positional arguments as the usage line shows them (`PATH...`), or empty.
    package var arguments = ""
    /// The positional arguments name files to read, where `-` is standard input.
    package var argumentsReadFiles = false
    /// What the command does, a paragraph or two.
    let discussion: String
    package let options: [Option]
    /// Command lines that show typical uses.
    package let examples: [String]

    /// True when the command checks `--fail-if` thresholds or `lint`'s `--fail-on` (and so may exit 1).
    var checksThresholds: Bool { options.contains(.failIf) || options.contains { $0.name == "fail-on" } }

    /// `Usage: widget-quota NAME ARGUMENTS [--option VALUE]...`, wrapped under its first option.
    package var usage: String {
        let head = "Usage: widget-quota \(name)" + (arguments.isEmpty ? "" : " " + arguments)
        let items = options.map { "[\($0.synopsis)]" + ($0.repeatable ? "..." : "") }
        let indent = String(repeating: " ", count: min(head.count + 1, 40))
        var lines = [head]
        for item in items {
            if lines[lines.count - 1].count + 1 + item.count > Self.width {
                lines.append(indent + item)
            } else {
                lines[lines.count - 1] += " " + item
            }
        }
        return lines.joined(separator: "\n")
    }

    /// The full `--help` text.
    package var help: String {
        let all = options + [.help]
        let column = min((all.map(\.synopsis.count).max() ?? 0) + 4, 24)
        var text = usage + "\n\n" + discussion + "\n\nOptions:\n"
        for option in all {
            let lead = "  " + option.synopsis
            let helpLines = option.help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let padding = String(repeating: " ", count: column)
            if lead.count + 2 <= column {
                text += lead.padding(toLength: column, withPad: " ", startingAt: 0) + helpLines[0] + "\n"
            } else {
                text += lead + "\n" + padding + helpLines[0] + "\n"
            }
            for line in helpLines.dropFirst() { text += padding + line + "\n" }
        }
        text += "\nExamples:\n" + examples.map { "  " + $0 + "\n" }.joined()
        text += "\nExit codes:\n" + CLI.exitCodeHelp(thresholds: checksThresholds)
        return text
    }

    /// The widest line the usage line is wrapped to.
    package static let width = 100
}
