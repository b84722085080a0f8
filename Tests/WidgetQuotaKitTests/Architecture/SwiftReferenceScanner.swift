import Foundation

/// The type declarations and type references of Swift source files, read well enough to check
/// which folder depends on which: comments and string literals are skipped (their interpolations
/// are kept, they are code), and a declaration counts only at the top level of a file.
struct SwiftReferenceScanner {
    /// Source text with comments and literal text replaced by spaces; interpolated code is kept.
    static func code(_ source: String) -> String {
        let s = Array(source.unicodeScalars)
        var out = String.UnicodeScalarView()
        var i = 0
        // Each entry is an open string: its closing delimiter; or, while in an interpolation, nil
        // with the parenthesis depth of that interpolation.
        var strings: [(close: [Unicode.Scalar], hashes: Int)] = []
        var interpolationDepths: [Int] = []
        var parens = 0
        func at(_ k: Int, _ text: String) -> Bool {
            let t = Array(text.unicodeScalars)
            return k + t.count <= s.count && Array(s[k..<k + t.count]) == t
        }
        while i < s.count {
            if let open = strings.last, interpolationDepths.count < strings.count {
                // Inside literal text.
                if at(i, "\\" + String(repeating: "#", count: open.hashes) + "(") {
                    let length = 2 + open.hashes
                    interpolationDepths.append(parens)
                    parens += 1
                    out.append(contentsOf: String(repeating: " ", count: length - 1).unicodeScalars)
                    out.append("(")
                    i += length
                } else if open.hashes == 0, s[i] == "\\", i + 1 < s.count {
                    out.append(contentsOf: "  ".unicodeScalars)
                    i += 2
                } else if Array(s[i..<min(s.count, i + open.close.count)]) == open.close {
                    out.append(contentsOf: String(repeating: " ", count: open.close.count).unicodeScalars)
                    i += open.close.count
                    strings.removeLast()
                } else {
                    out.append(s[i] == "\n" ? "\n" : " ")
                    i += 1
                }
                continue
            }
            if at(i, "//") {
                while i < s.count, s[i] != "\n" { i += 1 }
            } else if at(i, "/*") {
                var depth = 0
                repeat {
                    if at(i, "/*") {
                        depth += 1
                        i += 2
                    } else if at(i, "*/") {
                        depth -= 1
                        i += 2
                    } else {
                        if s[i] == "\n" { out.append("\n") }
                        i += 1
                    }
                } while depth > 0 && i < s.count
            } else if s[i] == "#" || s[i] == "\"" {
                var hashes = 0
                while i + hashes < s.count, s[i + hashes] == "#" { hashes += 1 }
                let quote = i + hashes
                guard quote < s.count, s[quote] == "\"" else {
                    out.append(s[i])
                    i += 1
                    continue
                }
                let multiLine = at(quote, "\"\"\"")
                let quotes = multiLine ? 3 : 1
                strings.append(
                    (Array((String(repeating: "\"", count: quotes) + String(repeating: "#", count: hashes)).unicodeScalars), hashes))
                out.append(contentsOf: String(repeating: " ", count: hashes + quotes).unicodeScalars)
                i = quote + quotes
            } else {
                if s[i] == "(" { parens += 1 }
                if s[i] == ")" {
                    parens -= 1
                    if let depth = interpolationDepths.last, parens == depth {
                        interpolationDepths.removeLast()  // back into the string's text
                    }
                }
                out.append(s[i])
                i += 1
            }
        }
        return String(out)
    }

    /// Names of the types, protocols and type aliases declared at the top level of `code`.
    static func declarations(in code: String) -> [String] {
        let kinds: Set<Substring> = ["struct", "enum", "class", "protocol", "actor", "typealias"]
        var names = [String]()
        for line in code.split(separator: "\n", omittingEmptySubsequences: true) where line.first?.isWhitespace == false {
            let words = line.split(whereSeparator: { !$0.isLetter && !$0.isNumber && $0 != "_" && $0 != "@" })
            guard let k = words.firstIndex(where: { kinds.contains($0) }), k + 1 < words.count,
                words[..<k].allSatisfy({ $0.hasPrefix("@") || modifiers.contains($0) })
            else { continue }
            names.append(String(words[k + 1]))
        }
        return names
    }

    static let modifiers: Set<Substring> = [
        "public", "package", "internal", "private", "fileprivate", "final", "indirect",
        "nonisolated", "open", "sending",
    ]

    /// Capitalised identifiers used in `code` (candidate type names).
    static func capitalisedIdentifiers(in code: String) -> Set<String> {
        var result = Set<String>()
        var word = ""
        for ch in code + " " {
            if ch.isLetter || ch.isNumber || ch == "_" {
                word.append(ch)
            } else {
                if let first = word.first, first.isUppercase { result.insert(word) }
                word = ""
            }
        }
        return result
    }
}
