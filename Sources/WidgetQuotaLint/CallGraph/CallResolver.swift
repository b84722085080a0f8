import Foundation
import WidgetQuotaSwiftSource

/// Resolves one call to the tree's functions it may run (see `CallGraph` for the rules).
struct CallResolver {
    let tree: AppSourceTree
    let reach: Reachability
    let declared: [DeclaredTypes]
    /// Functions (and `init`s) with bodies by name; computed properties' getters apart.
    let functionsByName: [String: [FunctionRef]]
    let gettersByName: [String: [FunctionRef]]
    /// Last names of the types and extensions the tree declares.
    let declaredTypes: Set<String>
    /// Each declared type's inheritance and conformance list (last names), over all its declarations.
    let inherited: [String: Set<String>]
    /// The reverse: the types that list each type as a parent or protocol.
    let heirs: [String: Set<String>]
    /// Properties declared in each type's body, over all files: type → name → types.
    let properties: [String: [String: Set<String>]]
    /// Top-level variables of every file: name → types.
    let globals: [String: Set<String>]
    /// Per file, per function: the last name of the type it is declared in, nil for a free function.
    let owners: [[String?]]
    /// The `init`s with bodies of each type (last name), in tree order.
    let initializers: [String: [FunctionRef]]
    /// Per file: call index by the token of the call's name.
    let callByToken: [[Int: Int]]
    /// Types that make a singleton of themselves (`static let shared = Type()`): type → the
    /// singletons' names.
    let singletons: [String: Set<String>]

    /// What the receiver of a call is, as far as the file says.
    enum Receiver {
        /// No receiver, `self.` or `Self.`: the enclosing type (and free functions for a bare call).
        case own(bare: Bool)
        /// `super.`: the enclosing type's parents.
        case parent
        /// A value or type of these types.
        case typed(Set<String>)
        /// An implicit member (`.init(…)`, `.placeholder()`): a static member of a contextual type.
        case implicit
        /// Not stated.
        case unknown
    }

    func resolve(_ call: SwiftCall, inFile f: Int, depth: Int = 0) -> CallTarget {
        let name = String(call.name)
        // A type's initialiser (`Entry(…)`, `Store.init(…)`, `self.init(…)`); an implicit
        // `.init(…)` names no type.
        if name == "init" || DeclaredTypes.isTypeName(name) { return initializer(call, inFile: f) }
        // An accessor's or observer's body that the index reads as a call (`set(newValue) {`).
        if call.callee == name, FrameworkNames.accessors.contains(name), call.trailingClosure != nil || call.arguments.count <= 1,
            isAccessorBlock(call, in: tree.swiftFiles[f].index)
        {
            return .none
        }
        let index = tree.swiftFiles[f].index
        let labels = call.labels
        // A property read runs a getter; a call, a function (`name()` is never a getter).
        let fits = ((call.isPropertyRead ? gettersByName : functionsByName)[name] ?? []).filter { ref in
            reach.reaches(f, ref.file) && Self.labelsFit(labels, tree.swiftFiles[ref.file].index.functions[ref.function].labels)
        }
        // A function whose labels are exactly the call's is the one the compiler picks over one
        // that needs parameters left out (`load()` over `load(from:)`).
        // With a trailing closure, the function's last parameter is the closure.
        let exact = fits.filter { ref in
            let declared = tree.swiftFiles[ref.file].index.functions[ref.function].labels
            return call.trailingClosure == nil ? declared == labels : Array(declared.dropLast()) == labels
        }
        // Overloads with the same labels, told apart by the arguments' stated types.
        let fitting = ArgumentTypes.filter(call, in: index, candidates: exact.isEmpty ? fits : exact, tree: tree)
        if !call.isPropertyRead, SourceVocabulary.sessionMethods.contains(name), let session = sessionType(of: call, in: index, file: f) {
            var target = CallTarget.none
            target.session = session
            return target
        }
        guard !fitting.isEmpty else {
            // No function of the tree can run: a library client's request, or nothing.
            var target = CallTarget.none
            if !call.isPropertyRead, LibraryClients.methods.contains(name),
                case .typed(let types) = receiver(
                    of: call, in: index, file: f, enclosing: enclosingTypeName(index, call.block), depth: depth)
            {
                target = library(types, name)
            }
            target.functions += singletonInitializer(call, inFile: f)
            return target
        }
        let enclosing = enclosingTypeName(index, call.block)
        let receiver = receiver(of: call, in: index, file: f, enclosing: enclosing, depth: depth)
        var target = functions(fitting, receiver: receiver, enclosing: enclosing, name: name, inFile: f)
        // A read of a property whose owner is not stated is not matched by its name alone:
        // names such as `title` and `items` are read everywhere.
        if call.isPropertyRead && target.byNameOnly { return .none }
        // A read is no library client's request.
        if call.isPropertyRead { target.library = nil }
        // `Type.shared.load()`: the singleton is made on its first use, by `Type`'s `init()`.
        target.functions += singletonInitializer(call, inFile: f)
        return target
    }

    /// The functions among `fitting` a call on `receiver` runs.
    func functions(_ fitting: [FunctionRef], receiver: Receiver, enclosing: String?, name: String, inFile f: Int) -> CallTarget {
        switch receiver {
        case .implicit:
            return .none
        case .own(let bare):
            if let enclosing {
                // `self` in a protocol's extension is any conformer; in a class, any subclass.
                let own = inTypes(fitting, family(enclosing).union(descendants(enclosing)))
                if !own.isEmpty { return CallTarget(functions: own, byNameOnly: false) }
            }
            guard bare else { return .none }
            // A free function of that name, preferring the caller's own file.
            let free = fitting.filter { owners[$0.file][$0.function] == nil }
            let local = free.filter { $0.file == f }
            return CallTarget(functions: local.isEmpty ? free : local, byNameOnly: false)
        case .parent:
            guard let enclosing else { return .none }
            let parents = family(enclosing).subtracting([enclosing])
            return CallTarget(functions: inTypes(fitting, parents), byNameOnly: false)
        case .typed(let types):
            // A framework type's method runs none of the tree's functions. A value of a
            // protocol or class type may be any type that conforms to it or inherits from it.
            let known = types.filter { declaredTypes.contains($0) }
            let owners = known.reduce(into: Set<String>()) { owners, type in
                owners.formUnion(family(type))
                owners.formUnion(descendants(type))
            }
            let functions = inTypes(fitting, owners)
            if !functions.isEmpty { return CallTarget(functions: functions, byNameOnly: false) }
            return library(types.subtracting(known), name)
        case .unknown:
            if FrameworkNames.methods.contains(name) { return .none }
            let methods = fitting.filter { owners[$0.file][$0.function] != nil }
            return CallTarget(functions: methods, byNameOnly: true)
        }
    }

    /// The `init`s a construction runs: `Store(…)`, `Module.Store(…)`, `Store.init(…)` run
    /// `Store`'s (or, when it declares none, an inherited one's) whose labels fit;
    /// `self.init(…)` and `Self(…)` the enclosing type's; `super.init(…)` its parents'. A
    /// type the tree does not declare, an implicit `.init(…)` and a memberwise initialiser
    /// run none of the tree's functions.
    func initializer(_ call: SwiftCall, inFile f: Int) -> CallTarget {
        let index = tree.swiftFiles[f].index
        var parts = call.callee.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        if parts.last == "init" { parts.removeLast() }
        guard let head = parts.last, !head.isEmpty else { return .none }
        let enclosing = enclosingTypeName(index, call.block)
        var types: Set<String>
        switch head {
        case "self", "Self":
            guard let enclosing else { return .none }
            types = [enclosing]
        case "super":
            guard let enclosing else { return .none }
            types = family(enclosing).subtracting([enclosing])
        default:
            guard DeclaredTypes.isTypeName(head), declaredTypes.contains(head) else { return .none }
            types = [head]
        }
        let labels = call.labels
        func inits(of types: Set<String>) -> [FunctionRef] {
            types.sorted().flatMap { initializers[$0] ?? [] }.filter { ref in
                reach.reaches(f, ref.file) && Self.labelsFit(labels, function(ref).labels)
            }
        }
        // The type's own `init`s, else those it inherits.
        var fits = inits(of: types)
        if fits.isEmpty, head != "super" {
            fits = inits(of: types.reduce(into: Set<String>()) { $0.formUnion(family($1)) }.subtracting(types))
        }
        let exact = fits.filter { ref in
            let declared = function(ref).labels
            return call.trailingClosure == nil ? declared == labels : Array(declared.dropLast()) == labels
        }
        let chosen = ArgumentTypes.filter(call, in: index, candidates: exact.isEmpty ? fits : exact, tree: tree)
        return CallTarget(functions: chosen, byNameOnly: false)
    }

    /// For a call on `Type.shared` (or another singleton name, `FrameworkNames.singletons`) of a
    /// type the tree declares with a `static let shared = Type()`: `Type`'s `init()` (or,
    /// without one, its `init`s: their parameters' defaults are not read), which the first use
    /// in a process runs.
    func singletonInitializer(_ call: SwiftCall, inFile f: Int) -> [FunctionRef] {
        // Most calls are not on a singleton: the type before the first dot is checked first.
        guard !singletons.isEmpty, let dot = call.callee.utf8.firstIndex(of: UInt8(ascii: ".")),
            singletons[String(call.callee[..<dot])] != nil
        else { return [] }
        let parts = call.callee.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 3, let head = parts.first.map(String.init), DeclaredTypes.isTypeName(head),
            FrameworkNames.singletons.contains(String(parts[1])), declaredTypes.contains(head),
            singletons[head]?.contains(String(parts[1])) == true
        else { return [] }
        // `Type()`: an `init()`, else those whose parameters may all have defaults.
        let made = (initializers[head] ?? []).filter { reach.reaches(f, $0.file) }
        let bare = made.filter { function($0).labels.isEmpty }
        return bare.isEmpty ? made : bare
    }

    /// For a `URLSession` method called on a value whose stated type is `URLSession` or a
    /// protocol (or class) the tree makes `URLSession` conform to (`extension URLSession:
    /// DataLoader {}`): that type. Nil otherwise.
    /// A bare call in an extension of such a protocol (`extension DataLoader { … data(for:) … }`)
    /// is one on `self`.
    func sessionType(of call: SwiftCall, in index: SwiftFileIndex, file f: Int) -> String? {
        let enclosing = enclosingTypeName(index, call.block)
        let types: Set<String>
        switch receiver(of: call, in: index, file: f, enclosing: enclosing) {
        case .typed(let stated): types = stated
        case .own: types = enclosing.map { [$0] } ?? []
        default: return nil
        }
        return types.sorted().first { $0 == "URLSession" || descendants($0).contains("URLSession") }
    }

    /// A call on a type the tree does not declare: a library client's request when the type's
    /// and the method's names read as one (`LibraryClients`), else nothing of the tree's.
    func library(_ types: Set<String>, _ name: String) -> CallTarget {
        guard LibraryClients.methods.contains(name),
            let type = types.filter({ !declaredTypes.contains($0) && LibraryClients.isClientType($0) }).sorted().first
        else { return .none }
        var target = CallTarget.none
        target.library = type
        return target
    }

    func function(_ ref: FunctionRef) -> SwiftFunction { tree.swiftFiles[ref.file].index.functions[ref.function] }

    /// The functions among `refs` declared in one of `types` (or an extension of it).
    func inTypes(_ refs: [FunctionRef], _ types: Set<String>) -> [FunctionRef] {
        refs.filter { ref in owners[ref.file][ref.function].map(types.contains) ?? false }
    }

    /// A type with everything it inherits from or conforms to that the tree declares (to a
    /// fixed point): a method may come from a superclass or a protocol extension.
    func family(_ type: String) -> Set<String> {
        var out: Set<String> = [type]
        var pending = [type]
        while let t = pending.popLast() {
            for parent in inherited[t] ?? [] where out.insert(parent).inserted { pending.append(parent) }
        }
        return out
    }

    /// True when a bare `get`/`set`/`willSet`/`didSet` call opens a block right after its
    /// parentheses (or has none): an accessor or observer, not a call of a function of that name.
    func isAccessorBlock(_ call: SwiftCall, in index: SwiftFileIndex) -> Bool {
        var k = call.token + 1
        if k < index.tokens.count, index.tokens[k].is("(") {
            var depth = 0
            while k < index.tokens.count {
                if index.tokens[k].is("(") { depth += 1 } else if index.tokens[k].is(")") { depth -= 1 }
                k += 1
                if depth == 0 { break }
            }
        }
        return k < index.tokens.count && index.tokens[k].is("{")
    }

    /// The types that conform to or inherit from `type`, to a fixed point.
    func descendants(_ type: String) -> Set<String> {
        var out = Set<String>()
        var pending = [type]
        while let t = pending.popLast() {
            for heir in heirs[t] ?? [] where out.insert(heir).inserted { pending.append(heir) }
        }
        return out
    }

    /// True when `call` is a bare `URLSession` method (`data(for:)`, `self.upload(…)`) in the
    /// body of an extension of `URLSession`: a request on the session itself.
    func isSessionSelfRequest(_ call: SwiftCall, in index: SwiftFileIndex) -> Bool {
        let name = String(call.name)
        guard SourceVocabulary.sessionMethods.contains(name), call.callee == name || call.callee == "self." + name else { return false }
        return enclosingTypeName(index, call.block) == "URLSession"
    }

    /// The type whose body (or extension) holds `block`.
    func enclosingTypeName(_ index: SwiftFileIndex, _ block: Int?) -> String? {
        var b = block
        while let k = b {
            if index.blocks[k].kind == .typeBody, let type = index.blocks[k].type { return CallGraph.lastName(index.types[type].name) }
            b = index.blocks[k].parent
        }
        return nil
    }

    func receiver(of call: SwiftCall, in index: SwiftFileIndex, file f: Int, enclosing: String?, depth: Int = 0) -> Receiver {
        let parts = call.callee.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        if parts.count == 1 { return .own(bare: true) }
        if parts[0].isEmpty {
            // `.name(…)` after a call: the type that call constructs, when it is `Type(…)`.
            if parts.count == 2, let r = call.receiverCall {
                let maker = index.calls[r]
                if !maker.callee.contains("."), DeclaredTypes.isTypeName(maker.callee) { return .typed([maker.callee]) }
                if maker.name == "init", maker.callee.count > 5 {
                    return .typed([CallGraph.lastName(String(maker.callee.dropLast(5)))])
                }
                return .unknown
            }
            guard parts.count == 2, call.receiverCall == nil else { return .unknown }
            // `.name(…)` with nothing before the dot is an implicit member; after `]` or `)`
            // (`stores[0].refresh()`, `(cache ?? Store()).load()`) it is a value's method.
            var k = call.token - 2
            while k >= 0 && (index.tokens[k].is("?") || index.tokens[k].is("!")) { k -= 1 }
            let before = k >= 0 ? index.tokens[k] : nil
            return before.map { $0.is("]") || $0.is(")") } == true ? .unknown : .implicit
        }
        var path = Array(parts.dropLast())
        if path.first == "super" { return path.count == 1 ? .parent : .unknown }
        var types: Set<String>
        if path.first == "self" || path.first == "Self" {
            path.removeFirst()
            if path.isEmpty { return .own(bare: false) }
            guard let enclosing else { return .unknown }
            types = [enclosing]
        } else if DeclaredTypes.isTypeName(path[0]) && globals[path[0]] == nil {
            // `Type.name`, `Module.Type.name`: the last capitalised name of the head.
            var k = 0
            while k + 1 < path.count && DeclaredTypes.isTypeName(path[k + 1]) { k += 1 }
            types = [path[k]]
            path.removeFirst(k + 1)
            if path.isEmpty { return .typed(types) }
        } else {
            // `store.name`, `Current.api.name`: the type stated for the head.
            guard case .typed(let head) = lookup(path[0], file: f, owner: enclosing, depth: depth, at: call.block) else { return .unknown }
            types = head
            path.removeFirst()
        }
        // Then each property along the path (`Type.shared.store` is a `Store`).
        for name in path {
            if FrameworkNames.singletons.contains(name) && types.count == 1 && properties[types.first!]?[name] == nil { continue }
            var next = Set<String>()
            for type in types {
                for t in family(type) { next.formUnion(properties[t]?[name] ?? []) }
            }
            guard !next.isEmpty else { return .unknown }
            types = next
        }
        return .typed(types)
    }

    /// The type stated for a property or local `name`: in the caller's file, or among the
    /// properties of `owner` anywhere in the tree.
    /// A value bound to a call's result counts where the binding is in scope: `at`, the block
    /// the name is used in, inside the binding's block (any binding of the file when nil).
    func lookup(_ name: String, file f: Int, owner: String?, depth: Int = 0, at block: Int? = nil) -> Receiver {
        var types = declared[f].types(of: name)
        if types.isEmpty, let owner {
            for t in family(owner) { types.formUnion(properties[t]?[name] ?? []) }
        }
        if types.isEmpty { types = globals[name] ?? [] }
        if types.isEmpty, depth < 3 { types = resultTypes(of: name, file: f, depth: depth + 1, at: block) }
        return types.isEmpty ? .unknown : .typed(types)
    }

    /// The types of a value bound to a call's result (`let provider = builder.makeProvider()`):
    /// the result types written on the functions the call runs (`-> MonthProvider`; `-> Self`
    /// is the function's own type), when the call resolves (not by name alone).
    func resultTypes(of name: String, file f: Int, depth: Int, at block: Int? = nil) -> Set<String> {
        let index = tree.swiftFiles[f].index
        var types = Set<String>()
        for (token, scope) in declared[f].results[name] ?? [] {
            // A binding in a function or closure counts inside it; one in a type's body, in the
            // type and its extensions.
            if let block, let scope, index.blocks[scope].kind != .typeBody, !index.isBlock(block, inside: scope) { continue }
            guard let c = callByToken[f][token] else { continue }
            let target = resolve(index.calls[c], inFile: f, depth: depth)
            guard !target.byNameOnly else { continue }
            for ref in target.functions {
                guard let type = function(ref).returnType else { continue }
                types.insert(type == "Self" ? owners[ref.file][ref.function] ?? type : type)
            }
        }
        return types
    }

    /// True when a call's labels can be a function's: the same labels in order, with
    /// parameters left out that may have defaults, and a trailing closure for the last.
    static func labelsFit(_ call: [String], _ function: [String]) -> Bool {
        guard call.count <= function.count else { return false }
        var k = 0
        for label in call {
            while k < function.count && function[k] != label { k += 1 }
            guard k < function.count else { return false }
            k += 1
        }
        return true
    }
}
