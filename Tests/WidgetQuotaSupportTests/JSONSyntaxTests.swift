import Foundation
import Testing
import WidgetQuotaSupport

@Suite("JSON syntax check")
struct JSONSyntaxTests {
    @Test(
        "accepts valid JSON of every kind",
        arguments: [
            "{}", "[]", "0", "-0.5e+3", "\"a\\u00e9\\n\"", "true", " null ", "{\"a\": [1, 2, {\"b\": false}], \"c\": \"\"}",
            "[[[[]]]]", "{\"a\":{}}\n",
            // The same key in different objects, and a number at the edge of a double.
            "[{\"a\": 1}, {\"a\": 2}]", "{\"a\": {\"a\": 1}}", "1.7e308",
        ])
    func acceptsValidJSON(text: String) {
        #expect(JSONSyntax.problem(in: Data(text.utf8)) == nil)
        // Foundation agrees that it is JSON.
        #expect((try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])) != nil)
    }

    @Test(
        "points at the first problem by line and column",
        arguments: [
            ("{\n  \"a\": 1,\n}", 3, 1, "trailing comma"),
            ("[1, 2,]", 1, 7, "trailing comma"),
            ("{\"a\" 1}", 1, 6, "expected ':'"),
            ("{\n  \"a\": 1 x\n}", 2, 10, "expected ',' or '}'"),
            ("{'a': 1}", 1, 2, "double quotes"),
            ("[01]", 1, 3, "cannot start with 0"),
            ("[1.]", 1, 4, "after '.'"),
            ("{\"a\": tru}", 1, 7, "expected a value"),
            ("{\"a\": [1, 2}", 1, 12, "expected ',' or ']'"),
            ("{\"a\": \"b", 1, 9, "not closed"),
            ("{\"a\": 1", 1, 8, "ends inside an object"),
            ("[1] [2]", 1, 5, "after the JSON value"),
            ("", 1, 1, "found nothing"),
            ("// comment\n{}", 1, 1, "expected a value"),
            ("[\"\\q\"]", 1, 4, "unknown escape"),
            // A key twice in one object: parsers differ on which wins, so it is refused.
            ("{\"days\": 7,\n \"days\": 9}", 2, 2, "the key \"days\" is given twice in one object (first at line 1, column 2)"),
            ("{\"a\": {\"x\": 1}, \"b\": {\"x\": 2}, \"c\\u0061\": 1, \"ca\": 2}", 1, 46, "the key \"ca\" is given twice"),
            ("[1e309]", 1, 2, "too large for a double"),
            ("{\"price\": -2e400}", 1, 11, "the number -2e400 is too large"),
        ] as [(String, Int, Int, String)])
    func pointsAtTheProblem(text: String, line: Int, column: Int, words: String) throws {
        let problem = try #require(JSONSyntax.problem(in: Data(text.utf8)))
        #expect(problem.line == line && problem.column == column, "\(problem)")
        #expect(problem.message.contains(words), "\(problem.message)")
    }

    @Test("deep nesting is an error, not a stack overflow")
    func deepNestingIsAnError() throws {
        let text = String(repeating: "[", count: 100_000)
        let problem = try #require(JSONSyntax.problem(in: Data(text.utf8)))
        #expect(problem.message.contains("nested"))
    }

}
