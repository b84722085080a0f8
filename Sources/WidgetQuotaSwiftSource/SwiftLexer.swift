import Foundation

/// A place in a source file: 1-based line and column (the column counts Unicode scalars).
package struct SourceLocation: Sendable, Equatable, Hashable, Comparable, CustomStringConvertible {
    package var line: Int
    package var column: Int

    package init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    package static func < (a: SourceLocation, b: SourceLocation) -> Bool {
        (a.line, a.column) < (b.line, b.column)
    }

    package var description: String { "\(line):\(column)" }
}

/// One token of Swift source.
package struct SwiftToken: Sendable, Equatable {
    /// What a token is.
    package enum Kind: Sendable, Equatable {
        /// A name, backticks removed from `text` (`` `default` `` → `default`); `_` is one too.
        case identifier
        /// A reserved word (`func`, `if`, `return`, `self`, …).
        case keyword
        /// An integer or floating-point literal, underscores kept in `text`.
        case number
        /// A string literal; `text` is the literal as written, `value` its static text.
        case string
        /// A `//`, `///`, `/* */` or `/** */` comment, delimiters included in `text`.
        case comment
        /// An operator (`=`, `==`, `->`, `+`, `?`, `!`, …); a regex literal lexes as operators.
        case `operator`
        /// `( ) [ ] { } , : ; . @`.
        case punctuation
        /// A compiler directive: `#if`, `#else`, `#elseif`, `#endif` and the rest of its line
        /// as `text`; other `#words` (`#available`, `#selector`) are identifiers with the `#`.
        case directive
    }

    package var kind: Kind
    /// The token as written (for identifiers, without backticks).
    package var text: String
    /// For `.string`: the static text with escapes resolved and each interpolation left out.
    package var value: String?
    /// Where the token starts.
    package var location: SourceLocation
    /// UTF-8 offsets of the token in the file.
    package var start: Int
    package var end: Int
    /// For strings and block comments: the file ended before the closing delimiter.
    package var unterminated: Bool = false
    /// For `.string`: how many interpolations (`\(…)`) it has; their tokens follow it.
    package var interpolations: Int = 0
    /// True for a token lexed inside a string interpolation.
    package var inInterpolation: Bool = false
    /// True when a newline (or a comment holding one) separates this token from the previous
    /// non-comment token, or it is the first.
    package var startsLine: Bool = false

    /// True for punctuation or an operator spelled `s`.
    @inlinable package func `is`(_ s: String) -> Bool {
        (kind == .punctuation || kind == .operator) && text == s
    }

    /// True for the keyword `s`.
    @inlinable package func isKeyword(_ s: String) -> Bool { kind == .keyword && text == s }
}

/// Splits Swift source into tokens. It never fails: an unterminated string or comment ends
/// at the end of the file and is marked `unterminated`; bytes that are not Swift become
/// one-character operators. Each byte is read a bounded number of times (linear time).
package enum SwiftLexer {
    /// Swift's reserved words that the index treats as keywords (contextual words such as
    /// `get`, `set`, `some`, `async` stay identifiers).
    package static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout",
        "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows", "static",
        "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue", "default", "defer", "do",
        "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch", "where", "while",
        "as", "false", "is", "nil", "self", "Self", "super", "throws", "true", "try", "await", "actor",
    ]

    /// Interpolations nested deeper than this are read as text (the lexer recurses into each).
    package static let maximumInterpolationDepth = 32

    /// The tokens of `source`, comments included, in source order (a string's interpolation
    /// tokens follow the string token).
    package static func tokens(_ source: String) -> [SwiftToken] {
        var lexer = SwiftLexerState(Array(source.utf8))
        lexer.run()
        return lexer.tokens
    }

    /// The tokens of UTF-8 `bytes` (invalid UTF-8 is repaired in token text).
    package static func tokens(utf8 bytes: [UInt8]) -> [SwiftToken] {
        var lexer = SwiftLexerState(bytes)
        lexer.run()
        return lexer.tokens
    }
}

private struct SwiftLexerState {
    let b: [UInt8]
    var i = 0
    var line = 1
    var column = 1
    var tokens: [SwiftToken] = []
    var sawNewline = true
    /// Nesting of interpolations being lexed: the parenthesis depth inside each.
    var interpolationDepth = 0

    init(_ bytes: [UInt8]) {
        b = bytes
        tokens.reserveCapacity(bytes.count / 4)
    }

    @inline(__always) func peek(_ k: Int = 0) -> UInt8 {
        i + k < b.count ? b[i + k] : 0
    }

    @inline(__always) mutating func advance() {
        let c = b[i]
        i += 1
        if c == 0x0A {
            line += 1
            column = 1
        } else if c & 0xC0 != 0x80 {
            column += 1
        }
    }

    /// One-byte ASCII texts, made once: most punctuation and operators are one byte.
    static let asciiText: [String] = (0..<128).map { String(UnicodeScalar(UInt8($0))) }

    func text(_ from: Int, _ to: Int) -> String {
        if to == from + 1 && b[from] < 0x80 { return SwiftLexerState.asciiText[Int(b[from])] }
        return String(decoding: b[from..<to], as: UTF8.self)
    }

    mutating func emit(_ kind: SwiftToken.Kind, _ start: Int, _ loc: SourceLocation, text: String? = nil) {
        var t = SwiftToken(kind: kind, text: text ?? self.text(start, i), value: nil, location: loc, start: start, end: i)
        t.inInterpolation = interpolationDepth > 0
        if kind != .comment {
            t.startsLine = sawNewline
            sawNewline = false
        }
        tokens.append(t)
    }

    static func isIdentStart(_ c: UInt8) -> Bool {
        (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) || c == 0x5F || c >= 0x80
    }

    static func isIdentBody(_ c: UInt8) -> Bool {
        isIdentStart(c) || (c >= 0x30 && c <= 0x39)
    }

    static func isOperatorChar(_ c: UInt8) -> Bool {
        switch c {
        case 0x2F, 0x3D, 0x2D, 0x2B, 0x21, 0x2A, 0x25, 0x3C, 0x3E, 0x26, 0x7C, 0x5E, 0x7E, 0x3F: return true
        default: return false
        }
    }

    mutating func run() {
        while i < b.count { _ = lexOne() }
    }

    enum Step { case token, closeInterpolation }

    /// Lexes one token (or skips whitespace); inside an interpolation, reports the `)` that ends it.
    mutating func lexOne(parenDepth: inout Int) -> Step {
        let c = b[i]
        if c == 0x28 {
            parenDepth += 1
        } else if c == 0x29 {
            if parenDepth == 0 { return .closeInterpolation }
            parenDepth -= 1
        }
        return lexOne()
    }

    mutating func lexOne() -> Step {
        let c = b[i]
        let start = i
        let loc = SourceLocation(line: line, column: column)
        switch c {
        case 0x20, 0x09, 0x0D, 0x0B, 0x0C, 0x00:
            advance()
        case 0x0A:
            advance()
            sawNewline = true
        case 0x2F where peek(1) == 0x2F:
            while i < b.count && b[i] != 0x0A { advance() }
            emit(.comment, start, loc)
        case 0x2F where peek(1) == 0x2A:
            advance()
            advance()
            var depth = 1
            while i < b.count && depth > 0 {
                if b[i] == 0x2F && peek(1) == 0x2A {
                    advance()
                    advance()
                    depth += 1
                } else if b[i] == 0x2A && peek(1) == 0x2F {
                    advance()
                    advance()
                    depth -= 1
                } else {
                    if b[i] == 0x0A { sawNewline = true }
                    advance()
                }
            }
            emit(.comment, start, loc)
            if depth > 0 { tokens[tokens.count - 1].unterminated = true }
        case 0x22:
            lexString(start: start, loc: loc, hashes: 0)
        case 0x23:
            var hashes = 0
            while peek(hashes) == 0x23 { hashes += 1 }
            if peek(hashes) == 0x22 {
                for _ in 0..<hashes { advance() }
                lexString(start: start, loc: loc, hashes: hashes)
            } else if SwiftLexerState.isIdentStart(peek(1)) {
                advance()
                while i < b.count && SwiftLexerState.isIdentBody(b[i]) { advance() }
                let word = text(start, i)
                if ["#if", "#else", "#elseif", "#endif", "#sourceLocation", "#warning", "#error"].contains(word) {
                    while i < b.count && b[i] != 0x0A { advance() }
                    emit(.directive, start, loc)
                } else {
                    emit(.identifier, start, loc)
                }
            } else {
                advance()
                emit(.punctuation, start, loc)
            }
        case 0x60:
            advance()
            let nameStart = i
            while i < b.count && b[i] != 0x60 && b[i] != 0x0A { advance() }
            let name = text(nameStart, i)
            if i < b.count && b[i] == 0x60 { advance() }
            emit(.identifier, start, loc, text: name)
        case 0x30...0x39:
            advance()
            while i < b.count {
                let d = b[i]
                if SwiftLexerState.isIdentBody(d) {
                    // An exponent sign: 1e-3, 0x1p+4.
                    if (d == 0x65 || d == 0x45 || d == 0x70 || d == 0x50) && (peek(1) == 0x2D || peek(1) == 0x2B) {
                        advance()
                    }
                    advance()
                } else if d == 0x2E && peek(1) >= 0x30 && peek(1) <= 0x39 {
                    advance()
                } else {
                    break
                }
            }
            emit(.number, start, loc)
        case 0x28, 0x29, 0x5B, 0x5D, 0x7B, 0x7D, 0x2C, 0x3A, 0x3B, 0x40:
            advance()
            emit(.punctuation, start, loc)
        case 0x2E:
            if peek(1) == 0x2E {
                while i < b.count && (b[i] == 0x2E || SwiftLexerState.isOperatorChar(b[i])) { advance() }
                emit(.operator, start, loc)
            } else {
                advance()
                emit(.punctuation, start, loc)
            }
        case 0x5C:
            advance()
            emit(.operator, start, loc)
        default:
            if SwiftLexerState.isIdentStart(c) {
                advance()
                while i < b.count && SwiftLexerState.isIdentBody(b[i]) { advance() }
                let word = text(start, i)
                // Every keyword starts with a lower-case letter or `S` and is 2–15 bytes long.
                let maybeKeyword = i - start >= 2 && i - start <= 15 && ((c >= 0x61 && c <= 0x7A) || c == 0x53)
                emit(maybeKeyword && SwiftLexer.keywords.contains(word) ? .keyword : .identifier, start, loc, text: word)
            } else if SwiftLexerState.isOperatorChar(c) {
                advance()
                while i < b.count && SwiftLexerState.isOperatorChar(b[i]) {
                    // `//` or `/*` after an operator starts a comment.
                    if b[i] == 0x2F && (peek(1) == 0x2F || peek(1) == 0x2A) { break }
                    // `?` and `!` after a name stay one-character postfix operators.
                    advance()
                }
                emit(.operator, start, loc)
            } else {
                advance()
                emit(.operator, start, loc)
            }
        }
        return .token
    }

    /// Lexes a string literal whose opening `#`s are consumed and `b[i]` is the first `"`.
    mutating func lexString(start: Int, loc: SourceLocation, hashes: Int) {
        let multiline = peek(1) == 0x22 && peek(2) == 0x22
        let quotes = multiline ? 3 : 1
        for _ in 0..<quotes { advance() }
        let index = tokens.count
        emit(.string, start, loc)  // placeholder, completed below
        var value: [UInt8] = []
        var interpolations = 0
        var terminated = false
        func closes(_ lexer: SwiftLexerState) -> Bool {
            for k in 0..<quotes where lexer.peek(k) != 0x22 { return false }
            for k in 0..<hashes where lexer.peek(quotes + k) != 0x23 { return false }
            return true
        }
        while i < b.count {
            let c = b[i]
            if c == 0x22 && closes(self) {
                for _ in 0..<(quotes + hashes) { advance() }
                terminated = true
                break
            }
            if c == 0x0A && !multiline { break }
            if c == 0x5C && hashesFollow(hashes, at: i + 1) {
                for _ in 0...hashes { advance() }
                guard i < b.count else { break }
                let e = b[i]
                switch e {
                case 0x28 where interpolationDepth < SwiftLexer.maximumInterpolationDepth:
                    advance()
                    interpolations += 1
                    // The interpolation's tokens follow the string's own token.
                    interpolationDepth += 1
                    var depth = 0
                    var closed = false
                    while i < b.count {
                        if lexOne(parenDepth: &depth) == .closeInterpolation {
                            advance()
                            closed = true
                            break
                        }
                        if !multiline && i < b.count && b[i] == 0x0A && depth == 0 { break }
                    }
                    interpolationDepth -= 1
                    if !closed { break }
                case 0x6E:
                    value.append(0x0A)
                    advance()
                case 0x74:
                    value.append(0x09)
                    advance()
                case 0x72:
                    value.append(0x0D)
                    advance()
                case 0x30:
                    value.append(0x00)
                    advance()
                case 0x22, 0x27, 0x5C:
                    value.append(e)
                    advance()
                case 0x75:
                    advance()
                    var digits = 0 as UInt32
                    if i < b.count && b[i] == 0x7B {
                        advance()
                        var count = 0
                        while i < b.count && b[i] != 0x7D && b[i] != 0x0A && count < 8 {
                            digits = digits &* 16 &+ UInt32(SwiftLexerState.hexValue(b[i]))
                            count += 1
                            advance()
                        }
                        if i < b.count && b[i] == 0x7D { advance() }
                    }
                    value.append(contentsOf: Array(String(Unicode.Scalar(digits).map(Character.init) ?? "\u{FFFD}").utf8))
                case 0x0A where multiline:
                    advance()  // a line continuation
                    while i < b.count && (b[i] == 0x20 || b[i] == 0x09) { advance() }
                default:
                    value.append(e)
                    advance()
                }
                continue
            }
            value.append(c)
            advance()
        }
        var token = tokens[index]
        token.end = i
        token.text = text(start, i)
        token.value = String(decoding: multiline ? SwiftLexerState.dedent(value) : value, as: UTF8.self)
        token.unterminated = !terminated
        token.interpolations = interpolations
        tokens[index] = token
        sawNewline = false
    }

    func hashesFollow(_ hashes: Int, at k: Int) -> Bool {
        for h in 0..<hashes where k + h >= b.count || b[k + h] != 0x23 { return false }
        return true
    }

    static func hexValue(_ c: UInt8) -> UInt8 {
        switch c {
        case 0x30...0x39: return c - 0x30
        case 0x61...0x66: return c - 0x61 + 10
        case 0x41...0x46: return c - 0x41 + 10
        default: return 0
        }
    }

    /// A multi-line literal's text: without the newline after the opening quotes, the last
    /// line's indentation removed from every line, and without the newline before the closing quotes.
    static func dedent(_ v: [UInt8]) -> [UInt8] {
        var lines = v.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
        if let first = lines.first, first.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { lines.removeFirst() }
        guard let last = lines.last, last.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) else {
            return Array(lines.joined(separator: [0x0A]))
        }
        let indent = last.count
        lines.removeLast()
        return Array(
            lines.map { line in
                Array(line.prefix(indent).allSatisfy { $0 == 0x20 || $0 == 0x09 } ? line.dropFirst(min(indent, line.count)) : line[...])
            }.joined(separator: [0x0A]))
    }
}
