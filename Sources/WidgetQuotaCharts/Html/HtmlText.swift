import Foundation
import WidgetQuotaSupport

/// Text made safe for an HTML page: escaping, and the report's emphasis marks turned into elements.
package enum HtmlText {
    /// Escapes text for element content and quoted attribute values; control characters become U+FFFD.
    package static func escape(_ text: String) -> String { HTMLEscaping.text(text) }

    /// A sentence as the report's sections write it, as HTML: the text is escaped first, then
    /// `` `code` ``, `**strong**` and `*emphasis*` marks become elements. A mark without its
    /// closing partner stays as written, so no text is lost and no element is left open.
    package static func inline(_ text: String) -> String {
        let chars = Array(escape(text))
        var out = ""
        var i = 0
        /// The index of the next `mark` at or after `from` (for `*`, one not part of `**`).
        func find(_ mark: String, from: Int) -> Int? {
            let m = Array(mark)
            var j = from
            while j + m.count <= chars.count {
                if Array(chars[j..<j + m.count]) == m {
                    if mark == "*", j + 1 < chars.count, chars[j + 1] == "*" {
                        j += 2
                        continue
                    }
                    return j
                }
                j += 1
            }
            return nil
        }
        while i < chars.count {
            let c = chars[i]
            if c == "`", let end = find("`", from: i + 1), end > i + 1 {
                out += "<code>" + String(chars[i + 1..<end]) + "</code>"
                i = end + 1
            } else if c == "*", i + 1 < chars.count, chars[i + 1] == "*", let end = find("**", from: i + 2), end > i + 2 {
                out += "<strong>" + inline(unescapedFragment: chars[i + 2..<end]) + "</strong>"
                i = end + 2
            } else if c == "*", i + 1 < chars.count, chars[i + 1] != " ", chars[i + 1] != "*", let end = find("*", from: i + 1),
                end > i + 1, chars[end - 1] != " "
            {
                out += "<em>" + inline(unescapedFragment: chars[i + 1..<end]) + "</em>"
                i = end + 1
            } else {
                out.append(c)
                i += 1
            }
        }
        return out
    }

    /// Marks inside `**…**` or `*…*` (already escaped text): code spans and the other emphasis.
    private static func inline(unescapedFragment chars: ArraySlice<Character>) -> String {
        var out = ""
        var i = chars.startIndex
        while i < chars.endIndex {
            if chars[i] == "`", let end = chars[(i + 1)...].firstIndex(of: "`"), end > i + 1 {
                out += "<code>" + String(chars[i + 1..<end]) + "</code>"
                i = end + 1
            } else if chars[i] == "*", let end = chars[(i + 1)...].firstIndex(of: "*"), end > i + 1, chars[i + 1] != " " {
                out += "<em>" + String(chars[i + 1..<end]) + "</em>"
                i = end + 1
            } else {
                out.append(chars[i])
                i += 1
            }
        }
        return out
    }

    /// A fragment identifier from a heading: lower-case letters, digits and hyphens.
    package static func anchor(_ text: String) -> String {
        var out = ""
        for u in text.lowercased().unicodeScalars {
            if ("a"..."z").contains(u) || ("0"..."9").contains(u) {
                out.unicodeScalars.append(u)
            } else if !out.isEmpty && !out.hasSuffix("-") {
                out += "-"
            }
        }
        while out.hasSuffix("-") { out.removeLast() }
        return out.isEmpty ? "section" : out
    }
}
