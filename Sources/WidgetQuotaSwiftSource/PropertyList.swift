import Foundation
import WidgetQuotaSupport

/// A property list value: what `Info.plist`, an `.entitlements` file or a `project.pbxproj`
/// holds.
package indirect enum PropertyList: Sendable, Equatable {
    case dictionary([String: PropertyList])
    case array([PropertyList])
    case string(String)
    case integer(Int)
    case real(Double)
    case bool(Bool)
    /// A `<date>`, as written (ISO 8601).
    case date(String)
    /// A `<data>` element's bytes.
    case data([UInt8])

    /// The value for `key` of a dictionary; nil for other values.
    package subscript(key: String) -> PropertyList? {
        if case .dictionary(let d) = self { return d[key] }
        return nil
    }

    /// The value at a dotted path of dictionary keys: `NSExtension.NSExtensionPointIdentifier`.
    package func value(at path: String) -> PropertyList? {
        var v: PropertyList? = self
        for key in path.split(separator: ".") { v = v?[String(key)] }
        return v
    }

    package var string: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    package var array: [PropertyList]? {
        if case .array(let a) = self { return a }
        return nil
    }

    package var dictionary: [String: PropertyList]? {
        if case .dictionary(let d) = self { return d }
        return nil
    }

    /// A boolean, or an integer read as one (0 is false).
    package var bool: Bool? {
        switch self {
        case .bool(let b): return b
        case .integer(let i): return i != 0
        default: return nil
        }
    }

    /// A number (integer or real).
    package var number: Double? {
        switch self {
        case .integer(let i): return Double(i)
        case .real(let d): return d
        default: return nil
        }
    }

    /// The strings of an array (other elements left out), or a string alone as a one-element list.
    package var strings: [String] {
        switch self {
        case .string(let s): return [s]
        case .array(let a): return a.compactMap(\.string)
        default: return []
        }
    }
}

extension PropertyList {
    /// Nesting deeper than this is refused rather than followed.
    package static let maximumDepth = 256

    /// Reads an XML property list (`Info.plist`, `.entitlements`). Throws
    /// `WidgetQuotaError.malformedPropertyList` with the line of the problem; a binary
    /// property list is refused with the command that converts it.
    package static func parseXML(_ bytes: [UInt8], file: String) throws -> PropertyList {
        if bytes.starts(with: Array("bplist".utf8)) {
            throw WidgetQuotaError.malformedPropertyList(
                file: file, line: 1,
                expected: "an XML property list: binary property lists are not supported (convert with: plutil -convert xml1 \(file))")
        }
        var reader = XMLPropertyListReader(bytes: bytes, file: file)
        return try reader.document()
    }

    /// Reads an XML property list file.
    package static func load(path: String, displayPath: String? = nil) throws -> PropertyList {
        let data = try InputFile.contents(of: path, shown: displayPath)
        return try parseXML(Array(data), file: displayPath ?? path)
    }
}

/// A small XML reader for the property list vocabulary only.
private struct XMLPropertyListReader {
    let b: [UInt8]
    let file: String
    var i = 0
    var line = 1

    init(bytes: [UInt8], file: String) {
        b = bytes
        self.file = file
        if b.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
    }

    func fail(_ expected: String, line: Int? = nil) -> WidgetQuotaError {
        .malformedPropertyList(file: file, line: line ?? self.line, expected: expected)
    }

    mutating func advance(_ n: Int = 1) {
        for _ in 0..<n where i < b.count {
            if b[i] == 0x0A { line += 1 }
            i += 1
        }
    }

    func starts(_ s: String) -> Bool {
        var k = i
        for c in s.utf8 {
            if k >= b.count || b[k] != c { return false }
            k += 1
        }
        return true
    }

    /// Skips to just after `end`, or throws.
    mutating func skip(past end: String, what: String) throws {
        let startLine = line
        while i < b.count {
            if starts(end) {
                advance(end.utf8.count)
                return
            }
            advance()
        }
        throw fail("\(what) that ends with \(end)", line: startLine)
    }

    /// Skips whitespace, comments, `<?…?>` and `<!DOCTYPE …>`.
    mutating func skipMisc() throws {
        while i < b.count {
            let c = b[i]
            if c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D {
                advance()
            } else if starts("<!--") {
                try skip(past: "-->", what: "a comment")
            } else if starts("<?") {
                try skip(past: "?>", what: "an XML declaration")
            } else if starts("<!DOCTYPE") {
                try skip(past: ">", what: "a DOCTYPE")
            } else {
                return
            }
        }
    }

    mutating func document() throws -> PropertyList {
        try skipMisc()
        guard i < b.count else { throw fail("a property list, found an empty file") }
        var (name, empty) = try openTag()
        var value: PropertyList
        if name == "plist" {
            guard !empty else { throw fail("a value inside <plist>") }
            try skipMisc()
            (name, empty) = try openTag()
            value = try element(name, empty: empty, depth: 1)
            try skipMisc()
            try closeTag("plist")
        } else {
            value = try element(name, empty: empty, depth: 1)
        }
        try skipMisc()
        if i < b.count { throw fail("nothing after the property list's end") }
        return value
    }

    /// Reads `<name>` or `<name/>` (attributes skipped).
    mutating func openTag() throws -> (String, Bool) {
        guard i < b.count, b[i] == 0x3C, i + 1 < b.count, b[i + 1] != 0x2F else {
            throw fail(i < b.count ? "an element such as <dict>, <string> or <array>" : "an element, found the end of the file")
        }
        advance()
        let start = i
        while i < b.count, b[i] != 0x3E, b[i] != 0x2F, b[i] != 0x20, b[i] != 0x0A, b[i] != 0x09, b[i] != 0x0D { advance() }
        let name = String(decoding: b[start..<i], as: UTF8.self)
        while i < b.count && b[i] != 0x3E { advance() }
        guard i < b.count else { throw fail("'>' to end the <\(name)> tag") }
        let empty = b[i - 1] == 0x2F
        advance()
        return (name, empty)
    }

    mutating func closeTag(_ name: String) throws {
        guard starts("</") else { throw fail("</\(name)>") }
        let at = line
        advance(2)
        let start = i
        while i < b.count && b[i] != 0x3E { advance() }
        let found = String(decoding: b[start..<i], as: UTF8.self).trimmingCharacters(in: .whitespaces)
        guard i < b.count, found == name else {
            throw fail("</\(name)>, found </\(String(found.prefix(40)))>", line: at)
        }
        advance()
    }

    /// Text up to the next `<` that is not a CDATA section, entities decoded.
    mutating func text() throws -> String {
        var out = [UInt8]()
        while i < b.count {
            if starts("<![CDATA[") {
                advance(9)
                let startLine = line
                var closed = false
                while i < b.count {
                    if starts("]]>") {
                        advance(3)
                        closed = true
                        break
                    }
                    out.append(b[i])
                    advance()
                }
                if !closed { throw fail("]]> to end a CDATA section", line: startLine) }
                continue
            }
            let c = b[i]
            if c == 0x3C { break }
            if c == 0x26 {
                out.append(contentsOf: try entity())
                continue
            }
            out.append(c)
            advance()
        }
        return String(decoding: out, as: UTF8.self)
    }

    mutating func entity() throws -> [UInt8] {
        let start = i
        var end = i
        while end < b.count && end - start < 12 && b[end] != 0x3B { end += 1 }
        guard end < b.count, b[end] == 0x3B else { throw fail("an entity such as &amp; ending with ';'") }
        let name = String(decoding: b[(start + 1)..<end], as: UTF8.self)
        advance(end - start + 1)
        switch name {
        case "amp": return [0x26]
        case "lt": return [0x3C]
        case "gt": return [0x3E]
        case "quot": return [0x22]
        case "apos": return [0x27]
        default:
            var scalar: UInt32?
            if name.hasPrefix("#x") {
                scalar = UInt32(name.dropFirst(2), radix: 16)
            } else if name.hasPrefix("#") {
                scalar = UInt32(name.dropFirst())
            }
            guard let s = scalar.flatMap(Unicode.Scalar.init) else {
                throw fail("a known entity (&amp; &lt; &gt; &quot; &apos; &#N;), found &\(String(name.prefix(12)));")
            }
            return Array(String(Character(s)).utf8)
        }
    }

    mutating func element(_ name: String, empty: Bool, depth: Int) throws -> PropertyList {
        guard depth <= PropertyList.maximumDepth else { throw fail("at most \(PropertyList.maximumDepth) nested values") }
        let at = line
        switch name {
        case "true", "false":
            if !empty {
                try skipMisc()
                try closeTag(name)
            }
            return .bool(name == "true")
        case "dict":
            var d = [String: PropertyList]()
            if empty { return .dictionary(d) }
            while true {
                try skipMisc()
                if starts("</") {
                    try closeTag("dict")
                    return .dictionary(d)
                }
                let keyLine = line
                let (tag, keyEmpty) = try openTag()
                guard tag == "key" else { throw fail("<key> or </dict>, found <\(String(tag.prefix(40)))>", line: keyLine) }
                let key = keyEmpty ? "" : try text()
                if !keyEmpty { try closeTag("key") }
                try skipMisc()
                let (valueTag, valueEmpty) = try openTag()
                d[key] = try element(valueTag, empty: valueEmpty, depth: depth + 1)
            }
        case "array":
            var a = [PropertyList]()
            if empty { return .array(a) }
            while true {
                try skipMisc()
                if starts("</") {
                    try closeTag("array")
                    return .array(a)
                }
                let (tag, e) = try openTag()
                a.append(try element(tag, empty: e, depth: depth + 1))
            }
        case "string", "integer", "real", "date", "data":
            let content = empty ? "" : try text()
            if !empty { try closeTag(name) }
            switch name {
            case "string": return .string(content)
            case "date": return .date(content.trimmingCharacters(in: .whitespacesAndNewlines))
            case "data":
                let clean = content.filter { !$0.isWhitespace }
                guard let data = Data(base64Encoded: clean) else { throw fail("base64 text in <data>", line: at) }
                return .data(Array(data))
            case "integer":
                let s = content.trimmingCharacters(in: .whitespacesAndNewlines)
                let v = s.hasPrefix("0x") ? Int(s.dropFirst(2), radix: 16) : Int(s)
                guard let v else { throw fail("a whole number in <integer>, found \(quoted(s))", line: at) }
                return .integer(v)
            default:
                let s = content.trimmingCharacters(in: .whitespacesAndNewlines)
                guard let v = Double(s) else { throw fail("a number in <real>, found \(quoted(s))", line: at) }
                return .real(v)
            }
        default:
            throw fail(
                "a property list element (dict, array, string, integer, real, true, false, date, data), found <\(String(name.prefix(40)))>",
                line: at)
        }
    }
}
