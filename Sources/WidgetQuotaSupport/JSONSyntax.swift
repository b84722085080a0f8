import Foundation

/// A strict check of JSON syntax (RFC 8259) that says where the text goes wrong, by line and
/// column, which Foundation's parsers do not. Trailing commas, comments, single quotes and bare
/// words are errors, and so are a key given twice in one object (which parsers resolve
/// differently: first or last wins) and a number too large for a double. Iterative and linear in
/// the input, so hostile input cannot exhaust the stack.
package enum JSONSyntax {
    /// `data` without a leading UTF-8 byte order mark, which some editors write (RFC 8259 lets a
    /// parser ignore it).
    package static func withoutByteOrderMark(_ data: Data) -> Data {
        data.starts(with: [0xEF, 0xBB, 0xBF]) ? data.dropFirst(3) : data
    }

    /// Where and why a text is not JSON.
    public struct Problem: Error, Equatable, Sendable {
        /// 1-based line and column (in bytes) of the offending character.
        public var line: Int
        public var column: Int
        public var message: String
    }

    /// The first syntax problem in `data`, or nil when it is one valid JSON value.
    package static func problem(in data: Data) -> Problem? {
        data.withUnsafeBytes { raw in
            var checker = Checker(bytes: raw.bindMemory(to: UInt8.self))
            return checker.run()
        }
    }

    private struct Checker {
        let bytes: UnsafeBufferPointer<UInt8>
        var i = 0
        var line = 1
        var lineStart = 0

        /// What the checker expects next inside the innermost open container.
        enum Expect { case value, valueOrClose, key, keyOrClose, colon, commaOrClose }

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        func fail(_ message: String) -> Problem {
            Problem(line: line, column: i - lineStart + 1, message: message)
        }

        func found() -> String {
            guard i < bytes.count else { return "the end of the text" }
            let b = bytes[i]
            if b >= 0x21 && b < 0x7F { return "'\(Character(Unicode.Scalar(b)))'" }
            return String(format: "byte 0x%02X", b)
        }

        mutating func skipSpace() {
            while i < bytes.count {
                switch bytes[i] {
                case 0x20, 0x09, 0x0D: i += 1
                case 0x0A:
                    i += 1
                    line += 1
                    lineStart = i
                default: return
                }
            }
        }

        mutating func run() -> Problem? {
            var stack = [UInt8]()  // '{' or '['
            // The keys of each open object, and where each first came (line and column).
            var keys = [[String: (line: Int, column: Int)]]()
            var expect = Expect.value
            var afterComma = false
            skipSpace()
            if i == bytes.count { return fail("expected a JSON value, found nothing") }
            while true {
                skipSpace()
                guard i < bytes.count else {
                    return stack.isEmpty && expect == .commaOrClose
                        ? nil
                        : fail(
                            "the text ends inside \(stack.last == UInt8(ascii: "{") ? "an object" : "an array"); expected \(describe(expect, stack.last))"
                        )
                }
                let b = bytes[i]
                let trailingComma = afterComma ? " (a trailing comma?)" : ""
                afterComma = false
                switch expect {
                case .value, .valueOrClose:
                    if expect == .valueOrClose && b == UInt8(ascii: "]") {
                        i += 1
                        stack.removeLast()
                        expect = .commaOrClose
                        continue
                    }
                    if b == UInt8(ascii: "]") || b == UInt8(ascii: "}") {
                        return fail("expected a value, found \(found())" + trailingComma)
                    }
                    if b == UInt8(ascii: "{") || b == UInt8(ascii: "[") {
                        guard stack.count < 512 else { return fail("nested more than 512 levels deep") }
                        stack.append(b)
                        if b == UInt8(ascii: "{") { keys.append([:]) }
                        i += 1
                        expect = b == UInt8(ascii: "{") ? .keyOrClose : .valueOrClose
                        continue
                    }
                    if let problem = scalar() { return problem }
                    expect = .commaOrClose
                case .key, .keyOrClose:
                    if expect == .keyOrClose && b == UInt8(ascii: "}") {
                        i += 1
                        stack.removeLast()
                        keys.removeLast()
                        expect = .commaOrClose
                        continue
                    }
                    guard b == UInt8(ascii: "\"") else {
                        return fail("expected a member name in double quotes, found \(found())" + trailingComma)
                    }
                    let start = i
                    let at = (line: line, column: i - lineStart + 1)
                    if let problem = string() { return problem }
                    let key = Self.text(of: bytes, from: start, to: i)
                    if let first = keys[keys.count - 1][key] {
                        return Problem(
                            line: at.line, column: at.column,
                            message: "the key \"\(key)\" is given twice in one object "
                                + "(first at line \(first.line), column \(first.column)); keep one")
                    }
                    keys[keys.count - 1][key] = at
                    expect = .colon
                case .colon:
                    guard b == UInt8(ascii: ":") else { return fail("expected ':' after a member name, found \(found())") }
                    i += 1
                    expect = .value
                case .commaOrClose:
                    guard let open = stack.last else { return fail("unexpected \(found()) after the JSON value") }
                    let close = open == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
                    if b == UInt8(ascii: ",") {
                        i += 1
                        afterComma = true
                        expect = open == UInt8(ascii: "{") ? .key : .value
                    } else if b == close {
                        i += 1
                        if stack.removeLast() == UInt8(ascii: "{") { keys.removeLast() }
                    } else {
                        return fail("expected ',' or '\(Character(Unicode.Scalar(close)))', found \(found())")
                    }
                }
            }
        }

        func describe(_ expect: Expect, _ open: UInt8?) -> String {
            switch expect {
            case .value, .valueOrClose: return "a value"
            case .key, .keyOrClose: return "a member name"
            case .colon: return "':'"
            case .commaOrClose: return open == UInt8(ascii: "{") ? "',' or '}'" : "',' or ']'"
            }
        }

        /// A string, number, `true`, `false` or `null` at `i`.
        mutating func scalar() -> Problem? {
            let b = bytes[i]
            if b == UInt8(ascii: "\"") { return string() }
            if b == UInt8(ascii: "-") || (b >= 0x30 && b <= 0x39) { return number() }
            for word in ["true", "false", "null"] where matches(word) {
                i += word.utf8.count
                return nil
            }
            if b == UInt8(ascii: "'") { return fail("strings take double quotes, found '") }
            return fail("expected a value (a string, number, object, array, true, false or null), found \(found())")
        }

        func matches(_ word: String) -> Bool {
            let w = Array(word.utf8)
            guard i + w.count <= bytes.count else { return false }
            for k in 0..<w.count where bytes[i + k] != w[k] { return false }
            return true
        }

        mutating func string() -> Problem? {
            i += 1  // the opening quote
            while i < bytes.count {
                let b = bytes[i]
                if b == UInt8(ascii: "\"") {
                    i += 1
                    return nil
                }
                if b < 0x20 {
                    return fail(b == 0x0A ? "a string runs past the end of its line (missing '\"')" : "a control character inside a string")
                }
                if b == UInt8(ascii: "\\") {
                    i += 1
                    guard i < bytes.count else { break }
                    let e = bytes[i]
                    if e == UInt8(ascii: "u") {
                        for k in 1...4 {
                            guard i + k < bytes.count, isHex(bytes[i + k]) else {
                                i += min(k, bytes.count - i)
                                return fail("\\u takes four hexadecimal digits")
                            }
                        }
                        i += 5
                        continue
                    }
                    guard "\"\\/bfnrt".utf8.contains(e) else { return fail("unknown escape \\\(Character(Unicode.Scalar(e)))") }
                }
                i += 1
            }
            return fail("a string is not closed (missing '\"')")
        }

        func isHex(_ b: UInt8) -> Bool { (b >= 0x30 && b <= 0x39) || (b | 0x20 >= 0x61 && b | 0x20 <= 0x66) }
        func isDigit(_ k: Int) -> Bool { k < bytes.count && bytes[k] >= 0x30 && bytes[k] <= 0x39 }

        /// The text of the string literal in `bytes[start..<end]` (quotes included), its escapes resolved.
        static func text(of bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> String {
            let literal = Array(bytes[(start + 1)..<(end - 1)])
            guard literal.contains(UInt8(ascii: "\\")) else { return String(decoding: literal, as: UTF8.self) }
            let quoted = Data([UInt8(ascii: "[")] + Array(bytes[start..<end]) + [UInt8(ascii: "]")])
            return ((try? JSONSerialization.jsonObject(with: quoted)) as? [String])?.first ?? String(decoding: literal, as: UTF8.self)
        }

        /// A number at `i`, which must also fit a double (`1e309` does not).
        mutating func number() -> Problem? {
            let start = i
            let column = i - lineStart + 1
            if let problem = numberSyntax() { return problem }
            let text = String(decoding: bytes[start..<i], as: UTF8.self)
            guard let value = Double(text), value.isInfinite else { return nil }
            return Problem(line: line, column: column, message: "the number \(text) is too large for a double (at most about 1.8e308)")
        }

        mutating func numberSyntax() -> Problem? {
            if bytes[i] == UInt8(ascii: "-") { i += 1 }
            guard isDigit(i) else { return fail("expected a digit, found \(found())") }
            if bytes[i] == UInt8(ascii: "0") {
                i += 1
                if isDigit(i) { return fail("a number cannot start with 0") }
            } else {
                while isDigit(i) { i += 1 }
            }
            if i < bytes.count && bytes[i] == UInt8(ascii: ".") {
                i += 1
                guard isDigit(i) else { return fail("expected a digit after '.', found \(found())") }
                while isDigit(i) { i += 1 }
            }
            if i < bytes.count && (bytes[i] | 0x20) == UInt8(ascii: "e") {
                i += 1
                if i < bytes.count && (bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-")) { i += 1 }
                guard isDigit(i) else { return fail("expected a digit in the exponent, found \(found())") }
                while isDigit(i) { i += 1 }
            }
            return nil
        }
    }
}
