import WidgetQuotaModel
import WidgetQuotaSwiftSource

/// Where each finding's code ends and what its line says, read from the tree the rules ran on:
/// what code scanning needs to underline a finding and to know it again after unrelated edits.
enum FindingSpans {
    /// The span of every finding that has a line.
    static func spans(of findings: [Finding], in tree: AppSourceTree) -> [Finding.Location: LintReport.Span] {
        var spans = [Finding.Location: LintReport.Span]()
        let byFile = Dictionary(grouping: findings.map(\.location).filter { $0.line != nil }, by: \.file)
        for (path, locations) in byFile {
            if let file = tree.swiftFile(path) {
                let lines = Set(locations.compactMap(\.line))
                var tokens = [Int: [SwiftToken]]()
                for token in file.index.tokens where lines.contains(token.location.line) {
                    tokens[token.location.line, default: []].append(token)
                }
                for location in locations {
                    spans[location] = swiftSpan(location, tokens[location.line!] ?? [])
                }
            } else if let text = tree.propertyListTexts[path] {
                let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
                for location in locations {
                    let line = location.line!
                    guard line >= 1, line <= lines.count else { continue }
                    spans[location] = textSpan(location, String(lines[line - 1]))
                }
            }
        }
        return spans
    }

    /// The token at the finding's column (or the first after it), and the line's tokens joined
    /// by single spaces: the same however the line is indented or commented.
    static func swiftSpan(_ location: Finding.Location, _ tokens: [SwiftToken]) -> LintReport.Span? {
        guard !tokens.isEmpty else { return nil }
        let column = location.column ?? tokens[0].location.column
        let token = tokens.first { $0.location.column >= column } ?? tokens[tokens.count - 1]
        let lines = token.text.split(separator: "\n", omittingEmptySubsequences: false)
        let endLine = token.location.line + lines.count - 1
        let endColumn = lines.count == 1 ? token.location.column + token.text.unicodeScalars.count : lines.last!.unicodeScalars.count + 1
        return LintReport.Span(
            text: tokens.map(\.text).joined(separator: " "), endLine: endLine, endColumn: endColumn)
    }

    /// A property list's line: from the finding's column (or the first character) to its last
    /// character, and its words joined by single spaces.
    static func textSpan(_ location: Finding.Location, _ line: String) -> LintReport.Span? {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
        guard !words.isEmpty else { return nil }
        let trailing = line.reversed().prefix { $0 == " " || $0 == "\t" || $0 == "\r" }.count
        return LintReport.Span(
            text: words.joined(separator: " "), endLine: location.line!,
            endColumn: line.unicodeScalars.count - trailing + 1)
    }
}
