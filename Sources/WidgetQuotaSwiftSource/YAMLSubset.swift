import Foundation
import WidgetQuotaSupport

/// A reader of the YAML that project specs are written in (XcodeGen's `project.yml`): block
/// mappings and sequences by indentation, flow mappings and sequences (`{a: 1}`, `[a, b]`, also
/// over several lines), plain, single- and double-quoted scalars, `|` and `>` block scalars, and
/// comments. Values come back as property-list values: mappings as dictionaries, sequences as
/// arrays, `true`/`false` as booleans, integers as integers, everything else as strings.
/// Anchors, aliases, tags and several documents in one file are not read (an alias is its text).
package enum YAMLSubset {
    /// Reads `text`; errors name `file` and a line.
    package static func parse(_ text: String, file: String) throws -> PropertyList {
        var lines = [Line]()
        // Lines split on the bytes: "\r\n" is one `Character` to Swift, so a CRLF file would be one line.
        for (n, raw) in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            var line = String(decoding: raw, as: UTF8.self)
            if line.hasSuffix("\r") { line.removeLast() }
            let cleaned = stripComment(line)
            let content = cleaned.drop { $0 == " " }
            if content.isEmpty || content == "---" || content == "..." { continue }
            if cleaned.hasPrefix("\t") {
                throw malformed(file, n + 1, "indentation with spaces (YAML forbids tabs)")
            }
            lines.append(Line(number: n + 1, indent: cleaned.count - content.count, text: String(content)))
        }
        var reader = Reader(lines: lines, file: file)
        guard !lines.isEmpty else { return .dictionary([:]) }
        let value = try reader.block(indent: lines[0].indent)
        if reader.k < lines.count {
            throw malformed(file, lines[reader.k].number, "a key or item at the indentation of the ones before it")
        }
        return value
    }

    struct Line {
        var number: Int
        var indent: Int
        var text: String
    }

    /// The line without a comment: `#` at its start or after a space, outside quotes.
    static func stripComment(_ line: String) -> String {
        var quote: Character?
        var previous: Character = " "
        for (offset, c) in line.enumerated() {
            if let q = quote {
                if c == q { quote = nil }
            } else if (c == "\"" || c == "'") && opensQuote(after: previous) {
                quote = c
            } else if c == "#" && (previous == " " || offset == 0) {
                return String(line.prefix(offset)).replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
            }
            previous = c
        }
        return line.replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
    }

    /// The error for YAML this reader cannot read at `line`.
    static func malformed(_ file: String, _ line: Int, _ expected: String) -> WidgetQuotaError {
        .malformedInput(file: file, line: line, problem: "not YAML this program can read: expected \(expected)")
    }

    /// A quote opens a quoted scalar only where a scalar starts (`Bob's` is plain text).
    static func opensQuote(after previous: Character) -> Bool {
        previous == " " || previous == ":" || previous == "[" || previous == "{" || previous == "," || previous == "-"
    }

    /// The deepest nesting read (collections in collections); deeper input is refused.
    static let maxDepth = 256

    struct Reader {
        var lines: [Line]
        let file: String
        var k = 0
        var depth = 0

        func error(_ expected: String, at line: Int? = nil) -> WidgetQuotaError {
            YAMLSubset.malformed(file, line ?? (k < lines.count ? lines[k].number : (lines.last?.number ?? 1)), expected)
        }

        /// A mapping or a sequence whose entries start at `indent`.
        mutating func block(indent: Int) throws -> PropertyList {
            guard k < lines.count else { return .string("") }
            guard depth < YAMLSubset.maxDepth else { throw error("at most \(YAMLSubset.maxDepth) nested collections") }
            depth += 1
            defer { depth -= 1 }
            return lines[k].text == "-" || lines[k].text.hasPrefix("- ") ? try sequence(indent: indent) : try mapping(indent: indent)
        }

        mutating func sequence(indent: Int) throws -> PropertyList {
            var items = [PropertyList]()
            while k < lines.count, lines[k].indent == indent, lines[k].text == "-" || lines[k].text.hasPrefix("- ") {
                let line = lines[k]
                let rest = line.text.dropFirst(1).drop { $0 == " " }
                if rest.isEmpty {
                    k += 1
                    items.append(k < lines.count && lines[k].indent > indent ? try block(indent: lines[k].indent) : .string(""))
                } else {
                    // `- key: value` opens a mapping whose keys line up with `key`.
                    lines[k] = Line(number: line.number, indent: line.indent + (line.text.count - rest.count), text: String(rest))
                    if Self.keyAndRest(String(rest)) != nil || rest.hasPrefix("- ") {
                        items.append(try block(indent: lines[k].indent))
                    } else {
                        items.append(try inlineValue(String(rest)))
                    }
                }
            }
            return .array(items)
        }

        mutating func mapping(indent: Int) throws -> PropertyList {
            var out = [String: PropertyList]()
            while k < lines.count, lines[k].indent == indent {
                let line = lines[k]
                if line.text == "-" || line.text.hasPrefix("- ") { break }
                guard let (key, rest) = Self.keyAndRest(line.text) else { throw error("`key: value`") }
                if rest.isEmpty {
                    k += 1
                    if k < lines.count, lines[k].indent > indent {
                        out[key] = try block(indent: lines[k].indent)
                    } else if k < lines.count, lines[k].indent == indent, lines[k].text == "-" || lines[k].text.hasPrefix("- ") {
                        out[key] = try sequence(indent: indent)
                    } else {
                        out[key] = .string("")
                    }
                } else if rest == "|" || rest == ">" || rest.hasPrefix("|") || rest.hasPrefix(">") {
                    k += 1
                    var text = [String]()
                    while k < lines.count, lines[k].indent > indent {
                        text.append(lines[k].text)
                        k += 1
                    }
                    out[key] = .string(text.joined(separator: rest.hasPrefix("|") ? "\n" : " "))
                } else {
                    out[key] = try inlineValue(rest)
                }
            }
            return .dictionary(out)
        }

        /// A value on the rest of a line: a scalar, or a flow collection, which may go on over the
        /// lines after it until its brackets close.
        mutating func inlineValue(_ first: String) throws -> PropertyList {
            let start = lines[k].number
            var text = first
            k += 1
            if text.hasPrefix("{") || text.hasPrefix("[") {
                while !Self.balanced(text) {
                    guard k < lines.count else { throw error("a closing bracket for the collection opened here", at: start) }
                    text += " " + lines[k].text
                    k += 1
                }
                var flow = Flow(chars: Array(text))
                guard let value = flow.value(), flow.atEnd else { throw error("a flow collection (`{key: value}` or `[a, b]`)", at: start) }
                return value
            }
            return Self.scalar(text)
        }

        /// `key: rest` (the key plain or quoted), nil when the line is no mapping entry.
        static func keyAndRest(_ text: String) -> (String, String)? {
            let chars = Array(text)
            var key: String
            var i: Int
            if let q = chars.first, q == "\"" || q == "'" {
                guard let close = chars.dropFirst().firstIndex(of: q) else { return nil }
                key = String(chars[1..<close])
                i = close + 1
                guard i < chars.count, chars[i] == ":" else { return nil }
            } else {
                guard let colon = (0..<chars.count).first(where: { chars[$0] == ":" && ($0 + 1 == chars.count || chars[$0 + 1] == " ") })
                else { return nil }
                key = String(chars[..<colon]).trimmingCharacters(in: .whitespaces)
                i = colon
                if key.hasPrefix("{") || key.hasPrefix("[") { return nil }
            }
            let rest = String(chars[(i + 1)...]).trimmingCharacters(in: .whitespaces)
            return (key, rest)
        }

        /// True when every `{` and `[` outside quotes is closed (a `${name}` variable is text).
        static func balanced(_ text: String) -> Bool {
            var depth = 0
            var quote: Character?
            var previous: Character = " "
            var inVariable = false
            for c in text {
                defer { previous = c }
                if let q = quote {
                    if c == q { quote = nil }
                } else if inVariable {
                    if c == "}" { inVariable = false }
                } else if c == "{" && previous == "$" {
                    inVariable = true
                } else if (c == "\"" || c == "'") && YAMLSubset.opensQuote(after: previous) {
                    quote = c
                } else if c == "{" || c == "[" {
                    depth += 1
                } else if c == "}" || c == "]" {
                    depth -= 1
                }
            }
            return depth <= 0
        }

        static func scalar(_ raw: String) -> PropertyList {
            let text = raw.trimmingCharacters(in: .whitespaces)
            if text.count >= 2, let q = text.first, q == "\"" || q == "'", text.last == q {
                return .string(String(text.dropFirst().dropLast()))
            }
            switch text {
            case "true", "True", "TRUE", "yes", "Yes", "YES": return .bool(true)
            case "false", "False", "FALSE", "no", "No", "NO": return .bool(false)
            default: break
            }
            if let n = Int(text) { return .integer(n) }
            return .string(text)
        }
    }

    /// A flow collection's reader: `{a: 1, b: [x, y]}`.
    struct Flow {
        let chars: [Character]
        var i = 0
        var depth = 0

        var atEnd: Bool {
            var j = i
            while j < chars.count, chars[j] == " " { j += 1 }
            return j == chars.count
        }

        mutating func skipSpaces() { while i < chars.count, chars[i] == " " { i += 1 } }

        /// A value; nil for a malformed one (a bracket of the wrong kind, nothing where a value
        /// must be, nesting deeper than `maxDepth`).
        mutating func value() -> PropertyList? {
            skipSpaces()
            guard i < chars.count, depth < YAMLSubset.maxDepth else { return nil }
            if chars[i] == "{" || chars[i] == "[" {
                let mapping = chars[i] == "{"
                i += 1
                depth += 1
                defer { depth -= 1 }
                var map = [String: PropertyList]()
                var list = [PropertyList]()
                while true {
                    skipSpaces()
                    guard i < chars.count else { return nil }
                    if chars[i] == (mapping ? "}" : "]") {
                        i += 1
                        return mapping ? .dictionary(map) : .array(list)
                    }
                    let before = i
                    if mapping {
                        guard let key = scalarText(stops: [":", ",", "}", "]"]), i < chars.count, chars[i] == ":" else { return nil }
                        i += 1
                        guard let v = value() else { return nil }
                        map[key] = v
                    } else {
                        guard let v = value() else { return nil }
                        list.append(v)
                    }
                    skipSpaces()
                    if i < chars.count, chars[i] == "," { i += 1 }
                    // Every entry moves on, or the collection is malformed (`[a}`).
                    guard i > before else { return nil }
                }
            }
            if chars[i] == "}" || chars[i] == "]" || chars[i] == "," { return nil }
            let quoted = chars[i] == "\"" || chars[i] == "'"
            guard let text = scalarText(stops: [",", "}", "]"]) else { return nil }
            return quoted ? .string(text) : Reader.scalar(text)
        }

        /// A quoted or plain scalar up to one of `stops` (a `:` stops a key only before a space; a
        /// `${name}` variable is part of the scalar).
        mutating func scalarText(stops: Set<Character>) -> String? {
            skipSpaces()
            guard i < chars.count else { return nil }
            if chars[i] == "\"" || chars[i] == "'" {
                let q = chars[i]
                var j = i + 1
                while j < chars.count, chars[j] != q { j += 1 }
                guard j < chars.count else { return nil }
                let text = String(chars[(i + 1)..<j])
                i = j + 1
                skipSpaces()
                return text
            }
            let start = i
            while i < chars.count {
                if chars[i] == "$", i + 1 < chars.count, chars[i + 1] == "{", let close = chars[(i + 2)...].firstIndex(of: "}") {
                    i = close + 1
                    continue
                }
                if stops.contains(chars[i]) && !(chars[i] == ":" && i + 1 < chars.count && chars[i + 1] != " ") { break }
                i += 1
            }
            return String(chars[start..<i]).trimmingCharacters(in: .whitespaces)
        }
    }
}
