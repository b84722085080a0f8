import Foundation
import Testing
import WidgetQuotaSupport
import WidgetQuotaSwiftSource

@Suite("Swift lexer") struct SwiftLexerTests {
    static func code(_ source: String) -> [SwiftToken] { SwiftLexer.tokens(source).filter { $0.kind != .comment } }

    @Test("names, keywords, numbers and punctuation carry 1-based lines and columns")
    func positions() {
        let tokens = SwiftLexer.tokens("let x = 15 * 60\n  foo.bar(`default`: 1.5e-3)")
        #expect(tokens.map(\.text) == ["let", "x", "=", "15", "*", "60", "foo", ".", "bar", "(", "default", ":", "1.5e-3", ")"])
        #expect(
            tokens.map(\.kind) == [
                .keyword, .identifier, .operator, .number, .operator, .number, .identifier, .punctuation, .identifier, .punctuation,
                .identifier, .punctuation, .number, .punctuation,
            ])
        #expect(tokens[6].location == SourceLocation(line: 2, column: 3))
        #expect(tokens[8].location == SourceLocation(line: 2, column: 7))
        #expect(tokens[6].startsLine && !tokens[7].startsLine)
    }

    @Test("comments of every kind are one token each, nested block comments included")
    func comments() {
        let tokens = SwiftLexer.tokens("a // URLSession.shared\n/// doc\n/* x /* URLSession */ y */ b")
        #expect(tokens.map(\.kind) == [.identifier, .comment, .comment, .comment, .identifier])
        #expect(tokens[3].text == "/* x /* URLSession */ y */")
        #expect(tokens[4].location == SourceLocation(line: 3, column: 28))
    }

    @Test(
        "string literals give their static value",
        arguments: [
            (#""a\tb\"c\u{41}""#, "a\tb\"cA"),
            (##"#"raw \n "quoted" \#(1)"#"##, #"raw \n "quoted" "#),
            (###"##"a "# b"##"###, ##"a "# b"##),
            ("\"\"\"\n    one\n      two\n    \"\"\"", "one\n  two"),
            (#""x = \(f("y", g(1))) z""#, "x =  z"),
        ])
    func stringValues(source: String, value: String) throws {
        let string = try #require(SwiftLexer.tokens(source).first)
        #expect(string.kind == .string)
        #expect(string.value == value)
        #expect(!string.unterminated)
    }

    @Test("an interpolation's tokens follow its string, nested strings and parentheses included")
    func interpolation() {
        let tokens = Self.code(#"let s = "a \(URLSession.shared.data(for: "u\("v")")) b"; next"#)
        let texts = tokens.map(\.text)
        #expect(texts.first == "let")
        #expect(texts.contains("URLSession") && texts.contains("data"))
        #expect(tokens.filter { $0.kind == .string }.count == 3)
        #expect(tokens.first { $0.text == "URLSession" }?.inInterpolation == true)
        #expect(tokens.last?.text == "next" && tokens.last?.inInterpolation == false)
        #expect(tokens[3].interpolations == 1)
        // Tokens stay in source order.
        #expect(zip(tokens, tokens.dropFirst()).allSatisfy { $0.start < $1.start })
    }

    @Test("a multi-line string with interpolation and a nested raw string")
    func multiLineWithRaw() {
        let source = "let body = \"\"\"\n    {\"q\": \"\\(#\"x \"y\"\"#)\"}\n    \"\"\"\nafter()"
        let tokens = Self.code(source)
        let body = tokens.first { $0.kind == .string }
        #expect(body?.value == "{\"q\": \"\"}")
        #expect(tokens.contains { $0.kind == .string && $0.value == "x \"y\"" })
        #expect(tokens.last?.text == ")" && tokens.first { $0.text == "after" }?.location.line == 4)
    }

    @Test(
        "an unterminated string or comment ends at the end of the file, marked",
        arguments: ["let a = \"never closed", "/* open /* nested */", "let s = \"\"\"\nno end", "f(\"\\(g(\")"])
    func unterminated(source: String) {
        let tokens = SwiftLexer.tokens(source)
        #expect(tokens.contains { $0.unterminated })
        #expect(tokens.allSatisfy { $0.end <= source.utf8.count })
    }

    @Test("directives are tokens of their own; #available is a name")
    func directives() {
        let tokens = Self.code("#if canImport(UIKit)\nimport UIKit\n#endif\nif #available(iOS 17, *) {}")
        #expect(tokens[0].kind == .directive && tokens[0].text == "#if canImport(UIKit)")
        #expect(tokens[3].kind == .directive)
        #expect(tokens.contains { $0.kind == .identifier && $0.text == "#available" })
    }

    @Test("lexing time grows linearly with the input, whatever it holds", arguments: ["\"\\(", "/*", "(", "#\"", "a.b(", "\"\"\"\n"])
    func linear(unit: String) {
        /// The fastest of three runs, so a busy machine's pause does not count.
        func seconds(_ n: Int) -> Double {
            let source = String(repeating: unit, count: n)
            return (0..<3).map { _ in
                let start = Date()
                _ = SwiftFileIndex(path: "x", source: source)
                return Date().timeIntervalSince(start)
            }.min()!
        }
        _ = seconds(2_000)
        let small = seconds(20_000)
        let large = seconds(160_000)
        // Eight times the input; quadratic work would take 64 times as long.
        #expect(large < max(small, 0.005) * 24, "20k: \(small) s, 160k: \(large) s")
    }
}
