/// Text made safe for HTML element content and quoted attribute values.
package enum HTMLEscaping {
    /// `&`, `<`, `>` and both quotes as entities; control characters become U+FFFD.
    package static func text(_ text: String) -> String {
        let clean = PrintableText.clean(text)
        guard clean.utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27 }) else { return clean }
        var out = ""
        out.reserveCapacity(clean.utf8.count + 16)
        for c in clean.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }
}
