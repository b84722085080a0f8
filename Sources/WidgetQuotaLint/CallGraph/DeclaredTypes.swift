import Foundation
import WidgetQuotaSwiftSource

/// The types a file states for its names, read from the tokens without type checking: a
/// property, local or parameter declared with a type (`let store: Store`, `store: Store?`), or
/// initialised with one (`var model = Model()`, `let api = API.shared`; not a longer path such
/// as `Current.api.client`), and SwiftUI's
/// `@Environment(Store.self) var store`. A call's receiver is looked up here before its
/// function is chosen, so `store.load()` goes to `Store.load()` and `defaults.set(…)` to no
/// function of the tree.
struct DeclaredTypes: Sendable {
    /// Names of the file to the types stated for them (several when the same name is declared
    /// with different types in different scopes).
    private(set) var byName: [String: Set<String>] = [:]
    /// Names declared in a type's body (its stored and computed properties), keyed by type name
    /// then property name: the lookup for `self.store` and for a bare `store` in a method.
    private(set) var properties: [String: [String: Set<String>]] = [:]
    /// Names declared at the top level of the file (`var Current = AppEnvironment()`); the call
    /// graph looks them up from every file of the tree.
    private(set) var globals: [String: Set<String>] = [:]
    /// Names bound to a method's or function's result (`let provider = await builder.makeProvider()`,
    /// `let store = makeStore()`): name → the token of each such call's name and the block the
    /// binding is declared in (nil at the top level). The call graph takes the value's type from
    /// the result types of the functions the call runs, for calls inside that block.
    private(set) var results: [String: [(call: Int, scope: Int?)]] = [:]

    init(_ index: SwiftFileIndex) {
        let t = index.tokens
        var k = 0
        // Open blocks as (block index, close token), to know which type body a declaration is in.
        var open = [(block: Int, close: Int)]()
        var nextBlock = 0
        while k < t.count {
            while let last = open.last, k >= last.close { open.removeLast() }
            while nextBlock < index.blocks.count && index.blocks[nextBlock].open <= k {
                let block = index.blocks[nextBlock]
                if block.open == k { open.append((nextBlock, block.close)) }
                nextBlock += 1
            }
            let s = t[k]
            if s.kind == .identifier, k + 2 < t.count, t[k + 1].is(":"), let type = Self.typeName(t, at: k + 2) {
                // `name: Type` — a declaration with a type or a parameter.
                let isDeclaration = k > 0 && (t[k - 1].isKeyword("let") || t[k - 1].isKeyword("var"))
                record(
                    s.text, type, typeBody: isDeclaration ? Self.typeBody(index, open.last?.block) : nil,
                    topLevel: isDeclaration && open.isEmpty)
            } else if s.isKeyword("let") || s.isKeyword("var"), k + 3 < t.count, t[k + 1].kind == .identifier, t[k + 2].is("=") {
                // `let name = Type(…)`, `= Type.shared`, `= try await Type.make()` (a capitalised
                // receiver of a static member is taken as the value's type).
                var j = k + 3
                while j < t.count && (t[j].isKeyword("try") || t[j].isKeyword("await") || t[j].is("?") || t[j].is("!")) { j += 1 }
                // `Type(…)`, `Type.shared`, `Type.makeX(…)`: the value's type (not `Current.api.client`).
                let constructed = j + 1 < t.count && t[j + 1].is("(")
                let member = j + 2 < t.count && t[j + 1].is(".") ? t[j + 2].text : ""
                let next = j + 3 < t.count ? t[j + 3] : nil
                // `Type.shared` as the whole value, or a factory `Type.makeSession(…)`.
                let singleton =
                    FrameworkNames.singletons.contains(member) && !(next.map { $0.is(".") || $0.is("(") } ?? false)
                    || (["make", "create", "new", "build"].contains { member.hasPrefix($0) } && next?.is("(") == true)
                if j + 1 < t.count, t[j].kind == .identifier, Self.isTypeName(t[j].text), constructed || singleton {
                    record(t[k + 1].text, t[j].text, typeBody: Self.typeBody(index, open.last?.block), topLevel: open.isEmpty)
                }
                if j < t.count, t[j].kind == .identifier || t[j].isKeyword("self"), let call = Self.resultCall(t, at: j) {
                    results[t[k + 1].text, default: []].append((call, open.last?.block))
                }
                if k >= 6, let env = Self.environmentType(t, before: k) {
                    record(t[k + 1].text, env, typeBody: Self.typeBody(index, open.last?.block))
                }
            } else if s.isKeyword("var") || s.isKeyword("let"), k + 1 < t.count, t[k + 1].kind == .identifier,
                let env = Self.environmentType(t, before: k)
            {
                record(t[k + 1].text, env, typeBody: Self.typeBody(index, open.last?.block))
            }
            k += 1
        }
    }

    /// The types stated for `name` in this file (empty when none is).
    func types(of name: String) -> Set<String> { byName[name] ?? [] }

    private mutating func record(_ name: String, _ type: String, typeBody: String?, topLevel: Bool = false) {
        byName[name, default: []].insert(type)
        if topLevel { globals[name, default: []].insert(type) }
        if let typeBody { properties[typeBody, default: [:]][name, default: []].insert(type) }
    }

    /// For a value written as a call of a lowercase name (`builder.makeProvider(…)`,
    /// `makeStore()`, `self.factory.make(…)`) and nothing after its `)`: the token of the
    /// call's name.
    private static func resultCall(_ t: [SwiftToken], at start: Int) -> Int? {
        var k = start
        while k + 2 < t.count, t[k + 1].is("."), t[k + 2].kind == .identifier { k += 2 }
        guard k + 1 < t.count, t[k + 1].is("("), !isTypeName(t[k].text) else { return nil }
        // The call's `)` must end the value: `make().items` is another value.
        var depth = 0
        var j = k + 1
        while j < t.count {
            if t[j].is("(") { depth += 1 } else if t[j].is(")") { depth -= 1 }
            if depth == 0 { break }
            j += 1
        }
        if j + 1 < t.count, t[j + 1].is(".") || t[j + 1].is("[") || t[j + 1].is("?") && j + 2 < t.count && t[j + 2].is(".") {
            return nil
        }
        return k
    }

    /// The name of the type whose body `block` is, when it is one.
    private static func typeBody(_ index: SwiftFileIndex, _ block: Int?) -> String? {
        guard let block, index.blocks[block].kind == .typeBody, let type = index.blocks[block].type else { return nil }
        return index.types[type].name
    }

    /// The type written at `k`: `Store`, `Store?`, `any Store`, `Module.Store` (its last name);
    /// nil for anything else (a collection, a function type, a lowercase value).
    static func typeName(_ t: [SwiftToken], at start: Int) -> String? {
        var k = start
        if k < t.count, t[k].text == "any" || t[k].text == "some" { k += 1 }
        guard k < t.count, t[k].kind == .identifier, isTypeName(t[k].text) else { return nil }
        var name = t[k].text
        while k + 2 < t.count, t[k + 1].is("."), t[k + 2].kind == .identifier, isTypeName(t[k + 2].text) {
            // `Store.Type` is the metatype: its static members are `Store`'s.
            if t[k + 2].text == "Type" || t[k + 2].text == "Protocol" {
                k += 2
                break
            }
            name = t[k + 2].text
            k += 2
        }
        // `x: Bar(…)` is a labelled argument, not a declaration.
        if k + 1 < t.count, t[k + 1].is("(") { return nil }
        return name
    }

    /// `@Environment(Store.self)` right before a `var` at `k` (modifiers such as `private`
    /// between them); `@EnvironmentObject var store: Store` is read as a typed declaration.
    private static func environmentType(_ t: [SwiftToken], before k: Int) -> String? {
        var j = k - 1
        while j >= 0, t[j].kind == .keyword || t[j].kind == .identifier,
            ["private", "fileprivate", "public", "internal", "package"].contains(t[j].text)
        {
            j -= 1
        }
        // … `(` Type `.` `self` `)`
        guard j >= 5, t[j].is(")"), t[j - 1].isKeyword("self") || t[j - 1].text == "self", t[j - 2].is("."),
            t[j - 3].kind == .identifier, isTypeName(t[j - 3].text), t[j - 4].is("("), t[j - 5].text == "Environment"
        else { return nil }
        return t[j - 3].text
    }

    /// A name written like a type: capitalised.
    static func isTypeName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first else { return false }
        return CharacterSet.uppercaseLetters.contains(first)
    }
}
