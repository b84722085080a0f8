import Foundation
import WidgetQuotaSwiftSource

/// Properties that hold a closure (`var fetchTopics: @Sendable () async -> [Topic]`), a
/// dependency client's style, and what the tree gives them: a closure or a function passed
/// under the property's name to an initialiser (`Self(fetchTopics: { … })`,
/// `.init(fetchTopics: liveFetch)`, `Client(fetchTopics: fetch(topic:))`). A call
/// `model.fetchTopics()` that runs no function of the tree runs one of those.
///
/// Read from the tokens: a property is one declared with `let`/`var`, a name, `:` and a
/// function type (attributes such as `@Sendable` or `@escaping` allowed before its `(`).
struct ClosureProperties: Sendable {
    /// What an initialiser gives a closure property.
    enum Implementation: Sendable, Equatable {
        /// A closure literal: its file and the token range of its braces.
        case closure(file: Int, tokens: Range<Int>, location: SourceLocation)
        /// A function named by reference (`fetch`, `fetch(topic:)`, `Type.fetch`): its name and labels when written.
        case function(file: Int, name: String, labels: [String]?, location: SourceLocation)
    }

    /// An implementation and the type whose initialiser it is given to (nil when not known).
    struct Given: Sendable, Equatable {
        var implementation: Implementation
        var type: String?
    }

    /// Per closure property name, the types that declare it ("" at the top level).
    let declared: [String: Set<String>]
    /// Per closure property name, the implementations the tree gives it, in tree order.
    let implementations: [String: [Given]]
    /// Per type, its properties that a dependency key path names (`@Dependency(\.client.fetch)
    /// var load`): property name → the key path's last name (`fetch`).
    let dependencyAliases: [String: [String: String]]

    init(_ tree: AppSourceTree) {
        var declared = [String: Set<String>]()
        var aliases = [String: [String: String]]()
        for file in tree.swiftFiles {
            let index = file.index
            let t = index.tokens
            var k = 0
            while k + 3 < t.count {
                if t[k].isKeyword("let") || t[k].isKeyword("var"), t[k + 1].kind == .identifier {
                    if t[k + 2].is(":"), Self.isFunctionType(t, at: k + 3) {
                        declared[t[k + 1].text, default: []].insert(Self.typeName(around: k, in: index) ?? "")
                    } else if let target = Self.dependencyKeyPath(t, before: k), let type = Self.typeName(around: k, in: index) {
                        aliases[type, default: [:]][t[k + 1].text] = target
                    }
                }
                k += 1
            }
        }
        self.declared = declared
        dependencyAliases = aliases
        var implementations = [String: [Given]]()
        guard !declared.isEmpty else {
            self.implementations = [:]
            return
        }
        for (f, file) in tree.swiftFiles.enumerated() {
            let index = file.index
            let t = index.tokens
            for call in index.calls where Self.isInitialiser(call) {
                let type: String? =
                    call.name == "init" || call.callee == "Self"
                    ? (call.callee.count > 5 && call.name == "init"
                        ? CallGraph.lastName(String(call.callee.dropLast(5))) : Self.typeName(around: call.token, in: index))
                    : call.callee
                for argument in call.arguments {
                    guard let label = argument.label, declared[label] != nil, !argument.tokens.isEmpty else { continue }
                    let first = argument.tokens.lowerBound
                    if t[first].is("{") {
                        implementations[label, default: []].append(
                            Given(implementation: .closure(file: f, tokens: argument.tokens, location: t[first].location), type: type))
                    } else if let reference = Self.functionReference(t, argument.tokens) {
                        implementations[label, default: []].append(
                            Given(
                                implementation: .function(
                                    file: f, name: reference.name, labels: reference.labels, location: t[first].location),
                                type: type))
                    }
                }
            }
        }
        self.implementations = implementations
    }

    /// The last name of the type whose body (or extension) holds token `k`: the innermost block
    /// opened before `k` (blocks are in the order they open), then out through its parents.
    static func typeName(around k: Int, in index: SwiftFileIndex) -> String? {
        var low = 0
        var high = index.blocks.count
        while low < high {
            let mid = (low + high) / 2
            if index.blocks[mid].open < k { low = mid + 1 } else { high = mid }
        }
        var b: Int? = low > 0 ? low - 1 : nil
        while let current = b {
            let block = index.blocks[current]
            if block.open < k && k < block.close && block.kind == .typeBody, let type = block.type {
                return CallGraph.lastName(index.types[type].name)
            }
            b = block.parent
        }
        return nil
    }

    /// `@Dependency(\.client.fetch)` (or `@Dependencies.Dependency`) right before the `var` at
    /// `k`, modifiers between them: the key path's last name.
    static func dependencyKeyPath(_ t: [SwiftToken], before k: Int) -> String? {
        var j = k - 1
        while j >= 0, ["private", "fileprivate", "public", "internal", "package", "static"].contains(t[j].text) { j -= 1 }
        guard j >= 3, t[j].is(")") else { return nil }
        let last = t[j - 1]
        var open = j - 1
        while open >= 0, !t[open].is("(") { open -= 1 }
        guard open >= 1, last.kind == .identifier, t[open - 1].text == "Dependency" || t[open - 1].text == "@Dependency",
            t[j - 2].is(".")
        else { return nil }
        return last.text
    }

    /// True when the tokens at `k` start a function type: `(`, or attributes (`@Sendable`,
    /// `@escaping`, `@MainActor`) then `(`.
    static func isFunctionType(_ t: [SwiftToken], at start: Int) -> Bool {
        var k = start
        while k + 1 < t.count, t[k].is("@") || t[k].text.hasPrefix("@") {
            k += t[k].is("@") ? 2 : 1
        }
        guard k < t.count, t[k].is("(") else { return false }
        // `(…) -> …` or `(…) async throws -> …`: find the matching `)` and an arrow after it.
        var depth = 0
        var j = k
        while j < t.count {
            if t[j].is("(") { depth += 1 } else if t[j].is(")") { depth -= 1 }
            j += 1
            if depth == 0 { break }
        }
        while j < t.count, t[j].isKeyword("async") || t[j].isKeyword("throws") || t[j].text == "async" || t[j].text == "throws" {
            j += 1
        }
        return j + 1 < t.count && t[j].is("-") && t[j + 1].is(">") || j < t.count && t[j].text == "->"
    }

    /// A memberwise initialiser's call: `Type(…)`, `Self(…)`, `.init(…)`, `Type.init(…)`.
    static func isInitialiser(_ call: SwiftCall) -> Bool {
        call.name == "init" || call.callee == "Self" || (!call.callee.contains(".") && DeclaredTypes.isTypeName(call.callee))
    }

    /// `fetch`, `Type.fetch`, `fetch(topic:)`: the function an argument names, with its labels when written.
    static func functionReference(_ t: [SwiftToken], _ range: Range<Int>) -> (name: String, labels: [String]?)? {
        var k = range.lowerBound
        var name: String?
        // `fetch` or `Type.fetch`; `config.fetch` is a value's property, not a function.
        while k < range.upperBound, t[k].kind == .identifier {
            if name != nil && !DeclaredTypes.isTypeName(name!) { return nil }
            name = t[k].text
            k += 1
            if k < range.upperBound, t[k].is(".") { k += 1 } else { break }
        }
        guard let name, !DeclaredTypes.isTypeName(name) else { return nil }
        if k == range.upperBound { return (name, nil) }
        // `(label:label:)` and nothing after it.
        guard t[k].is("(") else { return nil }
        var labels = [String]()
        k += 1
        while k + 1 < range.upperBound, t[k].kind == .identifier || t[k].text == "_", t[k + 1].is(":") {
            labels.append(t[k].text)
            k += 2
        }
        guard k + 1 == range.upperBound, t[k].is(")") else { return nil }
        return (name, labels)
    }
}
