import Foundation

/// Evaluates constant arithmetic for `SwiftFileIndex.numericValue(_:)`: number literals, the
/// file's `let` constants by name (to a bounded depth), `+ - * /`, parentheses, numeric wrappers
/// and duration extensions (`60.minutes`).
/// Each constant is evaluated once per evaluation (`Memo`), so constants built from constants
/// (`let c2 = c1 + c1 + c1 + c1`, …) take time linear in their number, not exponential.
struct SwiftConstantEvaluator {
    /// The constants already evaluated, shared by the nested evaluators of one evaluation.
    final class Memo {
        var values = [String: Double?]()
        /// Set when the depth bound cut an evaluation short: its nil is not the constant's value.
        var cutShort = false
    }

    /// Duration properties apps add to numbers (`60.minutes`), in seconds.
    static let durationUnits: [String: Double] = [
        "second": 1, "seconds": 1, "minute": 60, "minutes": 60, "hour": 3_600, "hours": 3_600, "day": 86_400, "days": 86_400,
    ]

    let index: SwiftFileIndex
    var depth: Int
    let memo: Memo
    var k = 0
    var end = 0
    var nesting = 0

    init(index: SwiftFileIndex, depth: Int, memo: Memo = Memo()) {
        self.index = index
        self.depth = depth
        self.memo = memo
    }

    mutating func evaluate(_ range: Range<Int>) -> Double? {
        guard depth < 16 else {
            memo.cutShort = true
            return nil
        }
        guard range.lowerBound >= 0, range.upperBound <= index.tokens.count else { return nil }
        k = range.lowerBound
        end = range.upperBound
        guard let v = sum(), k == end else { return nil }
        return v
    }

    var current: SwiftToken? { k < end ? index.tokens[k] : nil }

    mutating func sum() -> Double? {
        guard var v = product() else { return nil }
        while let t = current, t.kind == .operator, t.text == "+" || t.text == "-" {
            k += 1
            guard let r = product() else { return nil }
            v = t.text == "+" ? v + r : v - r
        }
        return v
    }

    mutating func product() -> Double? {
        guard var v = unary() else { return nil }
        while let t = current, t.kind == .operator, t.text == "*" || t.text == "/" {
            k += 1
            guard let r = unary() else { return nil }
            if t.text == "/" && r == 0 { return nil }
            v = t.text == "*" ? v * r : v / r
        }
        return v
    }

    mutating func unary() -> Double? {
        guard let t = current else { return nil }
        nesting += 1
        defer { nesting -= 1 }
        if nesting > 64 { return nil }
        if t.kind == .operator && t.text == "-" {
            k += 1
            return unary().map { -$0 }
        }
        if t.is("(") {
            k += 1
            guard let v = sum(), let c = current, c.is(")") else { return nil }
            k += 1
            return v
        }
        if t.kind == .number {
            k += 1
            let clean = t.text.replacingOccurrences(of: "_", with: "")
            let number: Double?
            if clean.hasPrefix("0x"), let v = Int(clean.dropFirst(2), radix: 16) { number = Double(v) } else { number = Double(clean) }
            // A duration extension on numbers (`60.minutes`, `2.hours`), in seconds.
            if let number, k + 1 < end, index.tokens[k].is("."), let unit = Self.durationUnits[index.tokens[k + 1].text] {
                k += 2
                return number * unit
            }
            return number
        }
        if t.kind == .identifier {
            // A numeric wrapper: TimeInterval(…), Double(…), Int(…).
            if ["TimeInterval", "Double", "Int", "Float", "CGFloat"].contains(t.text), k + 1 < end, index.tokens[k + 1].is("(") {
                k += 2
                guard let v = sum(), let c = current, c.is(")") else { return nil }
                k += 1
                return v
            }
            k += 1
            if let known = memo.values[t.text] { return known }
            guard let c = index.constant(named: t.text) else { return nil }
            let outerCutShort = memo.cutShort
            memo.cutShort = false
            var inner = SwiftConstantEvaluator(index: index, depth: depth + 1, memo: memo)
            let value = inner.evaluate(c.value)
            if !memo.cutShort { memo.values[t.text] = value }
            memo.cutShort = memo.cutShort || outerCutShort
            return value
        }
        return nil
    }
}
