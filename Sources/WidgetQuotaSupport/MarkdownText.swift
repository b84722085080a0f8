/// Text from inputs (design, tier and event names, values from a report) placed in Markdown
/// outside tables (`MarkdownTable.escape` does cells): one line, no control character, and every
/// character that Markdown or its HTML would read as syntax escaped, so a name can neither start a
/// heading, a link, an image or an HTML tag, nor close the emphasis around it.
package enum MarkdownText {
    /// For Markdown in the middle of a line (after `**`, `- `, a word): the punctuation that
    /// Markdown reads as syntax there (emphasis, code, links and images, HTML, entities, table
    /// pipes, strikethrough) gets a backslash, line breaks become spaces. A name never starts a
    /// line, so `#`, `-` and `1.` stay as they are.
    package static func inline(_ raw: String) -> String {
        var out = String.UnicodeScalarView()
        for u in spaced(raw).unicodeScalars {
            if "\\`*_[]<>|~&".unicodeScalars.contains(u) { out.append("\\") }
            out.append(u)
        }
        return String(out)
    }

    /// For text inside an HTML element (`<summary>…</summary>`), where Markdown escapes are not
    /// read: `&`, `<`, `>` and quotes as entities, line breaks as spaces.
    package static func html(_ raw: String) -> String { HTMLEscaping.text(spaced(raw)) }

    /// `raw` cleaned of control characters, each line break a space.
    static func spaced(_ raw: String) -> String { PrintableText.joiningLines(raw, with: " ") }
}
