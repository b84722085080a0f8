import Foundation
import WidgetQuotaSwiftSource

/// Overloads told apart by their arguments' types, where an argument states its type: a string,
/// number or Boolean literal, or a value made by a type's initialiser (`URL(string: …)`).
/// `fetch(_ id: Int)` and `fetch(_ url: URL)` have the same labels; `fetch(42)` runs the first.
enum ArgumentTypes {
    /// Number types a numeric literal can be.
    static let numeric: Set<String> = [
        "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64", "Double", "Float", "CGFloat",
        "TimeInterval", "Decimal",
    ]

    /// Of `candidates` (functions whose labels fit the call), those whose parameter types accept
    /// the call's arguments' stated types; all of them when none or every one does.
    static func filter(_ call: SwiftCall, in index: SwiftFileIndex, candidates: [FunctionRef], tree: AppSourceTree) -> [FunctionRef] {
        guard candidates.count > 1 else { return candidates }
        let stated = call.arguments.map { statedType(index, $0.tokens) }
        guard stated.contains(where: { $0 != nil }) else { return candidates }
        let kept = candidates.filter { ref in
            let file = tree.swiftFiles[ref.file].index
            let types = parameterTypes(file, file.functions[ref.function])
            guard types.count >= stated.count else { return true }
            return zip(stated, types).allSatisfy { argument, parameter in
                guard let argument, let parameter else { return true }
                return accepts(parameter, argument)
            }
        }
        return kept.isEmpty ? candidates : kept
    }

    /// True when a parameter of type `parameter` (its base name) takes an argument of `argument`'s.
    static func accepts(_ parameter: String, _ argument: String) -> Bool {
        if parameter == argument { return true }
        if argument == "number" { return numeric.contains(parameter) || !isConcrete(parameter) }
        if argument == "decimal" {
            return ["Double", "Float", "CGFloat", "TimeInterval", "Decimal"].contains(parameter) || !isConcrete(parameter)
        }
        return !isConcrete(parameter)
    }

    /// True for a type the tree or the standard library makes concrete: not a generic
    /// parameter (`T`), `Any` or a protocol-sounding `some`/`any` type.
    static func isConcrete(_ type: String) -> Bool {
        type.count > 1 && type != "Any" && type != "AnyObject"
    }

    /// The type an argument states: "String", "Bool", "number" (an integer literal), "decimal"
    /// (a number with a fraction), or a type's name for `Type(…)`; nil when it states none.
    static func statedType(_ index: SwiftFileIndex, _ range: Range<Int>) -> String? {
        let t = index.tokens
        guard let first = range.first else { return nil }
        if range.count == 1 {
            switch t[first].kind {
            case .string: return "String"
            case .number:
                let text = t[first].text.lowercased()
                return !text.hasPrefix("0x") && (text.contains(".") || text.contains("e")) ? "decimal" : "number"
            default: return t[first].isKeyword("true") || t[first].isKeyword("false") ? "Bool" : nil
            }
        }
        // `Type(…)` spanning the whole argument, with an optional `!`.
        guard t[first].kind == .identifier, DeclaredTypes.isTypeName(t[first].text), range.count >= 3, t[first + 1].is("(") else {
            return nil
        }
        var depth = 0
        var k = first + 1
        while k < range.upperBound {
            if t[k].is("(") { depth += 1 }
            if t[k].is(")") {
                depth -= 1
                if depth == 0 { break }
            }
            k += 1
        }
        let rest = k + 1..<range.upperBound
        return rest.allSatisfy({ t[$0].is("!") }) ? t[first].text : nil
    }

    /// Each parameter's type's base name (`URL` for `_ url: URL?`, `Int` for `count: Int = 3`),
    /// nil where it has none to compare (a closure, a tuple).
    static func parameterTypes(_ index: SwiftFileIndex, _ function: SwiftFunction) -> [String?] {
        let t = index.tokens
        guard var k = BGTaskCompletionHandlers.tokenIndex(index, function.location) else { return [] }
        while k < t.count && !t[k].is("(") {
            if t[k].is("{") { return [] }
            k += 1
        }
        var depth = 0
        var types = [String?]()
        var expectingType = false
        while k < t.count {
            let s = t[k]
            if s.is("(") || s.is("[") || s.is("<") {
                if depth == 1 && expectingType {
                    types.append(s.is("[") ? "Array" : nil)
                    expectingType = false
                }
                depth += 1
            } else if s.is(")") || s.is("]") || s.is(">") {
                depth -= 1
                if depth == 0 { break }
            } else if depth == 1 && s.is(":") {
                expectingType = true
            } else if depth == 1 && expectingType && s.kind == .identifier && !(k > 0 && t[k - 1].is("@")) {
                types.append(s.text)
                expectingType = false
            }
            k += 1
        }
        return types
    }
}
