import Foundation
import WidgetQuotaSupport

/// A threshold over report metrics, e.g. `requestsPerUserMonth.p95{design=cache-bgtask} > 120`.
///
/// Grammar (spaces allowed between the parts):
///
///     expression := measure operator number
///     measure    := metric [selector]
///                 | "change(" metric [selector] ")"
///                 | "tierChange(" [selector | label "=" value ("," label "=" value)*] ")"
///     metric     := name ("." name)*            name := letter (letter | digit | "_")*
///     selector   := "{" [label "=" value ("," label "=" value)*] "}"
///     operator   := ">" | ">=" | "<" | "<=" | "==" | "!="
///     number     := ["+" | "-"] digits ["." digits] [("e" | "E") ["+" | "-"] digits] ["%"]
///
/// Digits may be grouped with `_` (`100_000`); `%` divides by 100 (`5%` = `0.05`). The expression
/// states the bad case: a threshold is violated when the comparison is true for any matching row.
///
/// `change(…)` and `tierChange(…)` compare two reports (`diff`): `change` is HEAD − BASE, as a
/// share of BASE when the number has `%` (`change(costPerMonth) > 10%`) and in the metric's own
/// units otherwise (`change(freshness.overTargetShare) > 0.05` is five points); `tierChange` is
/// how many tiers more expensive HEAD's needed tier is than BASE's.
public struct ThresholdExpression: Sendable, Equatable {
    /// What the comparison is applied to.
    public enum Measure: String, Sendable {
        /// The metric's value in one report.
        case value
        /// HEAD − BASE of the metric (relative when the limit has `%`).
        case change
        /// HEAD's tier rank − BASE's (positive: a more expensive tier).
        case tierChange
    }

    /// A comparison operator.
    public enum Operator: String, Sendable, CaseIterable {
        /// At least the limit.
        case greaterOrEqual = ">="
        /// At most the limit.
        case lessOrEqual = "<="
        /// Equal to the limit.
        case equal = "=="
        /// Not equal to the limit.
        case notEqual = "!="
        /// Above the limit.
        case greater = ">"
        /// Below the limit.
        case less = "<"

        /// True when `value op limit` holds.
        package func holds(_ value: Double, _ limit: Double) -> Bool {
            switch self {
            case .greater: return value > limit
            case .greaterOrEqual: return value >= limit
            case .less: return value < limit
            case .lessOrEqual: return value <= limit
            case .equal: return value == limit
            case .notEqual: return value != limit
            }
        }
    }

    /// One `label=value` of a selector.
    public struct LabelMatch: Sendable, Equatable {
        /// The label's name (`design`, `users`, `tier`).
        public var key: String
        /// The value a row's label must have.
        public var value: String
        /// Rows whose label `key` is `value`.
        public init(key: String, value: String) {
            self.key = key
            self.value = value
        }
    }

    /// The text as written.
    public var text: String
    /// The metric as written (an alias or a path; resolved against a report later).
    public var metric: String
    /// Labels a row must match to be checked (empty: every row of the metric).
    public var selector: [LabelMatch]
    /// How the value is compared with the limit.
    public var op: Operator
    /// The limit.
    public var limit: Double
    /// A report's value, or the change between two reports.
    public var measure: Measure = .value
    /// True when the number was written with `%` (for `change`, a change relative to BASE).
    public var limitIsPercent = false

    /// True for `change(…)` and `tierChange(…)`, which need two reports.
    public var comparesReports: Bool { measure != .value }

    /// The metric `tierChange` reports: the rank of the quota tier needed.
    public static let tierMetric = "tier"

    /// The longest expression accepted.
    static let maxLength = 1_000

    /// Parses `text`; every problem is a `.badExpression` naming the position and what was expected.
    package static func parse(_ text: String) throws -> ThresholdExpression {
        var parser = Parser(text: text)
        return try parser.expression()
    }

    private struct Parser {
        let text: String
        let scalars: [Unicode.Scalar]
        var i = 0
        var percent = false

        init(text: String) {
            self.text = text
            self.scalars = Array(text.unicodeScalars)
        }

        func fail(_ problem: String) -> WidgetQuotaError {
            .badExpression(expression: text, problem: problem)
        }

        var here: String { i < scalars.count ? "at character \(i + 1) (\"\(Character(scalars[i]))\")" : "at the end" }

        func peek(_ offset: Int = 0) -> Unicode.Scalar? {
            i + offset < scalars.count ? scalars[i + offset] : nil
        }

        mutating func skipSpaces() {
            while let c = peek(), c.properties.isWhitespace { i += 1 }
        }

        static func isLetter(_ c: Unicode.Scalar) -> Bool { ("a"..."z").contains(c) || ("A"..."Z").contains(c) }
        static func isDigit(_ c: Unicode.Scalar) -> Bool { ("0"..."9").contains(c) }

        mutating func expression() throws -> ThresholdExpression {
            guard scalars.count <= ThresholdExpression.maxLength else {
                throw fail("longer than \(ThresholdExpression.maxLength) characters")
            }
            skipSpaces()
            guard peek() != nil else {
                throw fail("empty; expected e.g. 'requestsPerUserMonth.p95{design=cache-bgtask} > 120'")
            }
            var metric = try name(what: "a metric name such as requestsPerUserMonth.p95", dotted: true)
            skipSpaces()
            var measure = Measure.value
            var selector = [LabelMatch]()
            if peek() == "(" {
                switch metric {
                case "change":
                    measure = .change
                    i += 1
                    skipSpaces()
                    metric = try name(what: "a metric name inside change(…), such as costPerMonth", dotted: true)
                    skipSpaces()
                    if peek() == "{" { selector = try labels() }
                    try closeParenthesis("change")
                case "tierChange":
                    measure = .tierChange
                    metric = ThresholdExpression.tierMetric
                    i += 1
                    skipSpaces()
                    if peek() == "{" {
                        selector = try labels()
                        try closeParenthesis("tierChange")
                    } else if peek() == ")" {
                        i += 1
                    } else {
                        selector = try labels(opened: true, closing: ")")
                    }
                default:
                    throw fail("unknown function \"\(metric)\" \(here); expected change(METRIC{…}) or tierChange({…})")
                }
            } else if peek() == "{" {
                selector = try labels()
            }
            skipSpaces()
            let op = try comparison()
            skipSpaces()
            let limit = try number()
            skipSpaces()
            guard peek() == nil else { throw fail("unexpected text \(here); the expression should end after the number") }
            return ThresholdExpression(
                text: text, metric: metric, selector: selector, op: op, limit: limit, measure: measure, limitIsPercent: percent)
        }

        mutating func closeParenthesis(_ function: String) throws {
            skipSpaces()
            guard peek() == ")" else { throw fail("expected \")\" to close \(function)( \(here)") }
            i += 1
        }

        mutating func name(what: String, dotted: Bool) throws -> String {
            var out = ""
            while true {
                guard let c = peek(), Parser.isLetter(c) || c == "_" else { throw fail("expected \(what) \(here)") }
                while let c = peek(), Parser.isLetter(c) || Parser.isDigit(c) || c == "_" {
                    out.unicodeScalars.append(c)
                    i += 1
                }
                guard dotted, peek() == "." else { return out }
                out += "."
                i += 1
            }
        }

        /// `label=value` pairs up to `closing`; the opening `{` is skipped unless `opened`.
        mutating func labels(opened: Bool = false, closing: Unicode.Scalar = "}") throws -> [LabelMatch] {
            if !opened { i += 1 }  // "{"
            var result = [LabelMatch]()
            skipSpaces()
            if peek() == closing {
                i += 1
                return result
            }
            while true {
                skipSpaces()
                let key = try name(what: "a label (design, users, tier or month)", dotted: false)
                skipSpaces()
                guard peek() == "=" else { throw fail("expected \"=\" after label \"\(key)\" \(here)") }
                i += 1
                skipSpaces()
                var value = ""
                while let c = peek(), Parser.isLetter(c) || Parser.isDigit(c) || "_-.+".unicodeScalars.contains(c) {
                    value.unicodeScalars.append(c)
                    i += 1
                }
                guard !value.isEmpty else { throw fail("expected a value for label \"\(key)\" \(here)") }
                if result.contains(where: { $0.key == key }) { throw fail("label \"\(key)\" appears twice in the selector") }
                result.append(LabelMatch(key: key, value: value))
                skipSpaces()
                switch peek() {
                case ",": i += 1
                case closing:
                    i += 1
                    return result
                default: throw fail("expected \",\" or \"\(closing)\" in the selector \(here)")
                }
            }
        }

        mutating func comparison() throws -> Operator {
            for op in Operator.allCases {  // two-character operators first
                let symbol = Array(op.rawValue.unicodeScalars)
                if (0..<symbol.count).allSatisfy({ peek($0) == symbol[$0] }) {
                    i += symbol.count
                    return op
                }
            }
            if peek() == "=" { throw fail("use \"==\" to compare for equality \(here)") }
            throw fail("expected an operator (>, >=, <, <=, ==, !=) \(here)")
        }

        mutating func number() throws -> Double {
            let start = i
            var digits = ""
            func take(_ c: Unicode.Scalar) {
                digits.unicodeScalars.append(c)
                i += 1
            }
            // Digits, grouped by single underscores between digits (`1_000`, not `1__0` or `1_`).
            func integerPart() -> Bool {
                var any = false
                while let c = peek(), Parser.isDigit(c) || (c == "_" && any) {
                    if c == "_" {
                        guard let next = peek(1), Parser.isDigit(next) else { return false }
                        i += 1
                        continue
                    }
                    any = true
                    digits.unicodeScalars.append(c)
                    i += 1
                }
                return any
            }
            if let c = peek(), c == "+" || c == "-" { take(c) }
            var valid = integerPart()
            if peek() == ".", let next = peek(1), Parser.isDigit(next) {
                take(".")
                valid = integerPart() && valid
            }
            if valid, let e = peek(), e == "e" || e == "E" {
                take(e)
                if let c = peek(), c == "+" || c == "-" { take(c) }
                valid = integerPart()
            }
            guard valid, let value = Double(digits), value.isFinite else {
                i = start
                throw fail("expected a number such as 120, 0.05, 1_000 or 5% \(here)")
            }
            if peek() == "%" {
                i += 1
                percent = true
                return value / 100
            }
            return value
        }
    }
}
