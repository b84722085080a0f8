import Foundation

/// Text from logs and scenarios made safe to print: control characters (escape sequences that
/// would drive a terminal, NUL, BEL, DEL and the C1 range) become U+FFFD. Tabs and line breaks
/// are kept; each output format deals with those itself.
package enum PrintableText {
    /// `text` with every control character but tab, LF and CR replaced by U+FFFD.
    package static func clean(_ text: String) -> String {
        guard hasControl(text) else { return text }
        var out = String.UnicodeScalarView()
        for u in text.unicodeScalars {
            out.append(isControl(u) ? "\u{FFFD}" : u)
        }
        return String(out)
    }

    /// One pass over the bytes; most text has no control character and is returned as is.
    static func hasControl(_ text: String) -> Bool {
        var previous: UInt8 = 0
        for b in text.utf8 {
            if (b < 0x20 && b != 0x09 && b != 0x0A && b != 0x0D) || b == 0x7F { return true }
            if previous == 0xC2 && b >= 0x80 && b <= 0x9F { return true }  // U+0080 ... U+009F
            previous = b
        }
        return false
    }

    static func isControl(_ u: Unicode.Scalar) -> Bool {
        let v = u.value
        return (v < 0x20 && v != 0x09 && v != 0x0A && v != 0x0D) || (v >= 0x7F && v <= 0x9F)
    }
}

extension PrintableText {
    /// The first scalar of `name` that one line of printable text may not hold: a control
    /// character (tab and line breaks included), a line or paragraph separator, or a format
    /// character (a bidi override, an invisible mark) other than the joiners that emoji and
    /// scripts need (U+200C, U+200D). Nil for a name that prints as one line.
    package static func firstUnprintableInName(_ name: String) -> Unicode.Scalar? {
        // Printable ASCII, the usual case, needs no look at Unicode properties.
        if name.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return nil }
        return name.unicodeScalars.first {
            switch $0.properties.generalCategory {
            case .control, .lineSeparator, .paragraphSeparator: return true
            case .format: return $0.value != 0x200C && $0.value != 0x200D
            default: return false
            }
        }
    }

    /// `U+001B`: a scalar as messages name it.
    package static func codePoint(_ u: Unicode.Scalar) -> String {
        let hex = String(u.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    /// `text` on one line, for formats read a line at a time (Xcode's `path:line: error:` lines, a
    /// plain line in a GitHub Actions log, where a line that starts with `::` is a command): each
    /// line break (CR LF, LF, CR, VT, FF, NEL, U+2028, U+2029) becomes the two characters `\n`,
    /// and other control characters are cleaned.
    package static func oneLine(_ text: String) -> String {
        joiningLines(text, with: "\\n")
    }

    /// `text` cleaned, each line break (CR LF counted once; VT, FF, NEL, U+2028, U+2029 too)
    /// replaced by `separator`.
    package static func joiningLines(_ text: String, with separator: String) -> String {
        var out = String.UnicodeScalarView()
        var previousCR = false
        for u in clean(text).unicodeScalars {
            switch u.value {
            case 0x0A where previousCR: break
            case 0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029: out.append(contentsOf: separator.unicodeScalars)
            default: out.append(u)
            }
            previousCR = u.value == 0x0D
        }
        return String(out)
    }
}
