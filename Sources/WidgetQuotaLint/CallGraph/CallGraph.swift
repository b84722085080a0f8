import Foundation
import WidgetQuotaSwiftSource

/// A function of the tree: its file and its index among the file's `functions`.
package struct FunctionRef: Hashable, Sendable, Comparable {
    package var file: Int
    package var function: Int

    package init(file: Int, function: Int) {
        self.file = file
        self.function = function
    }

    package static func < (a: FunctionRef, b: FunctionRef) -> Bool { (a.file, a.function) < (b.file, b.function) }
}

/// Where one call goes: the functions of the tree it may run.
package struct CallTarget: Sendable, Equatable {
    /// The functions, in tree order.
    package var functions: [FunctionRef]
    /// True when the call was matched by its name and labels alone: its receiver's type is not
    /// stated where the file can be read, so any reachable function of that name counts.
    package var byNameOnly: Bool
    /// For a call that runs none of the tree's functions but a method of a type the tree does
    /// not declare whose names read as a network client's (`LibraryClients`): that type.
    package var library: String? = nil

    static let none = CallTarget(functions: [], byNameOnly: false)
}

/// Why a function sends a request: the call in its body that does, or that leads to one.
package struct RequestWitness: Sendable, Equatable {
    /// The call (index in the function's file's `calls`).
    package var call: Int
    /// The function that call runs, for a call that reaches a request through another function.
    package var via: FunctionRef?
    /// True when the request is reached only through calls matched by name.
    package var byNameOnly: Bool
}

/// The tree's calls resolved to functions, once per lint run, and the functions that send a
/// request through it. Every rule and the design reader ask this one graph, so they agree.
///
/// A call is resolved without type checking, as the compiler would pick it where the source
/// says enough: only functions compiled into a target the calling file is built into, or in a
/// module it imports (see `Reachability`); with argument labels that fit; in the receiver's
/// type when the file states it (`self`, `Self`, a capitalised type, `Type()`, `Type.shared`, a
/// property or local declared with a type, see `DeclaredTypes`). A type's `init`, an accessor
/// (`set(newValue) {`), an implicit member (`.placeholder()`) and a method on a type the tree
/// does not declare (`UserDefaults`, `AVAudioEngine`) run no function of the tree. A call on a
/// receiver whose type is not stated matches every reachable function of its name and labels,
/// marked `byNameOnly` — unless the name is one of Foundation's, SwiftUI's or UIKit's common
/// method names (`FrameworkNames`), which it then is taken to be.
///
/// Built in time linear in the tree's calls (times the candidates sharing a name), and walked
/// once to a fixed point for the requesting functions.
package struct CallGraph: Sendable {
    /// Per file, per call: where it goes.
    package let targets: [[CallTarget]]
    /// The functions that send a request, each with its witness.
    package let requesting: [FunctionRef: RequestWitness]
    /// Per file, per call: true when the call itself sends a request (`SourceVocabulary.isDirectRequest`).
    package let direct: [[Bool]]
    let tree: AppSourceTree
    /// Per file: call index by its name token, to find a `SwiftCall` value's index.
    private let callByToken: [[Int: Int]]

    package init(_ tree: AppSourceTree) {
        self.tree = tree
        let files = tree.swiftFiles
        let reach = Reachability(tree)
        let declared = files.map { DeclaredTypes($0.index) }
        var functionsByName = [String: [FunctionRef]]()
        var declaredTypes = Set<String>()
        var inherited = [String: Set<String>]()
        var properties = [String: [String: Set<String>]]()
        var globals = [String: Set<String>]()
        for (f, file) in files.enumerated() {
            for (k, function) in file.index.functions.enumerated() where function.body != nil {
                functionsByName[function.name, default: []].append(FunctionRef(file: f, function: k))
            }
            for type in file.index.types {
                let name = Self.lastName(type.name)
                declaredTypes.insert(name)
                inherited[name, default: []].formUnion(type.inherited.map(Self.lastName))
            }
            for (name, types) in declared[f].globals { globals[name, default: []].formUnion(types) }
            for (type, names) in declared[f].properties {
                for (name, types) in names { properties[Self.lastName(type), default: [:]][name, default: []].formUnion(types) }
            }
        }
        var heirs = [String: Set<String>]()
        for (type, parents) in inherited {
            for parent in parents { heirs[parent, default: []].insert(type) }
        }
        let resolver = CallResolver(
            tree: tree, reach: reach, declared: declared, functionsByName: functionsByName, declaredTypes: declaredTypes,
            inherited: inherited, heirs: heirs, properties: properties, globals: globals,
            owners: files.map { $0.index.functions.map { $0.typeName.map(Self.lastName) } })
        var targets = [[CallTarget]]()
        var direct = [[Bool]]()
        var byToken = [[Int: Int]]()
        targets.reserveCapacity(files.count)
        for (f, file) in files.enumerated() {
            var row = [CallTarget]()
            var directRow = [Bool]()
            var tokens = [Int: Int]()
            row.reserveCapacity(file.index.calls.count)
            for (c, call) in file.index.calls.enumerated() {
                let isDirect =
                    SourceVocabulary.isDirectRequest(call) || resolver.isSessionSelfRequest(call, in: file.index)
                    || SourceVocabulary.isRemoteContentsRead(call, in: file.index)
                directRow.append(isDirect)
                row.append(isDirect ? .none : resolver.resolve(call, inFile: f))
                tokens[call.token] = c
            }
            targets.append(row)
            direct.append(directRow)
            byToken.append(tokens)
        }
        self.targets = targets
        self.direct = direct
        callByToken = byToken
        requesting = Self.requestingFunctions(tree, targets: targets, direct: direct)
    }

    /// The fixed point: a function requests when a call in its body (closures included) sends
    /// a request or runs a function that does. A function reached only through calls matched by
    /// name is marked so; one reached by a resolved call as well is not.
    static func requestingFunctions(_ tree: AppSourceTree, targets: [[CallTarget]], direct: [[Bool]]) -> [FunctionRef: RequestWitness] {
        var result = [FunctionRef: RequestWitness]()
        // Callers of each function: (caller, call index, by name only).
        var callers = [FunctionRef: [(caller: FunctionRef, call: Int, byName: Bool)]]()
        var pending = [FunctionRef]()
        for (f, file) in tree.swiftFiles.enumerated() {
            let index = file.index
            for (c, call) in index.calls.enumerated() {
                var b = call.block
                while let k = b {
                    if let fn = index.blocks[k].function {
                        let me = FunctionRef(file: f, function: fn)
                        if targets[f][c].library != nil {
                            // A library client's request: known by its names only.
                            if result[me] == nil {
                                pending.append(me)
                                result[me] = RequestWitness(call: c, via: nil, byNameOnly: true)
                            }
                        } else if direct[f][c] {
                            // A direct request is the best witness; the first in the body.
                            let existing = result[me]
                            if existing == nil { pending.append(me) }
                            if existing.map({ $0.via != nil || $0.byNameOnly || $0.call > c }) ?? true {
                                result[me] = RequestWitness(call: c, via: nil, byNameOnly: false)
                            }
                        } else {
                            for target in targets[f][c].functions where target != me {
                                callers[target, default: []].append((me, c, targets[f][c].byNameOnly))
                            }
                        }
                    }
                    b = index.blocks[k].parent
                }
            }
        }
        // Walk callers from every requesting function. A by-name witness is
        // upgraded, and its callers walked again, when a definite path turns up.
        var queue = pending.sorted()
        var k = 0
        while k < queue.count {
            let callee = queue[k]
            k += 1
            let calleeByName = result[callee]?.byNameOnly ?? true
            for edge in callers[callee] ?? [] {
                let byName = calleeByName || edge.byName
                let candidate = RequestWitness(call: edge.call, via: callee, byNameOnly: byName)
                if let existing = result[edge.caller] {
                    // Upgrade a by-name witness to a definite one; re-walk its callers.
                    if existing.byNameOnly && !byName {
                        result[edge.caller] = candidate
                        queue.append(edge.caller)
                    }
                } else {
                    result[edge.caller] = candidate
                    queue.append(edge.caller)
                }
            }
        }
        return result
    }

    // MARK: Queries

    /// The index of `call` in file `file`'s calls.
    package func callIndex(_ call: SwiftCall, inFile file: Int) -> Int? { callByToken[file][call.token] }

    /// Where `call` (of file `file`) goes.
    package func target(of call: SwiftCall, inFile file: Int) -> CallTarget {
        callIndex(call, inFile: file).map { targets[file][$0] } ?? .none
    }

    /// How `call` reaches a request: nil when it does not; `.direct` when it sends one;
    /// `.through` the first requesting function it runs.
    package func request(_ call: SwiftCall, inFile file: Int) -> RequestRoute? {
        guard let c = callIndex(call, inFile: file) else { return SourceVocabulary.isDirectRequest(call) ? .direct : nil }
        return request(call: c, inFile: file)
    }

    /// `request(_:inFile:)` by call index.
    package func request(call c: Int, inFile file: Int) -> RequestRoute? {
        if direct[file][c] { return .direct }
        let target = targets[file][c]
        if let library = target.library { return .library(library) }
        // A definite requesting function first, then any.
        let hits = target.functions.filter { requesting[$0] != nil }
        guard !hits.isEmpty else { return nil }
        let definite = hits.first { requesting[$0]?.byNameOnly == false }
        let chosen = definite ?? hits[0]
        let byName = target.byNameOnly || (definite == nil)
        return .through(chosen, byNameOnly: byName, candidates: hits)
    }

    /// True when `call` sends a request or runs a function that does.
    package func isRequest(_ call: SwiftCall, inFile file: Int) -> Bool { request(call, inFile: file) != nil }

    /// The function at `ref`.
    package func function(_ ref: FunctionRef) -> SwiftFunction { tree.swiftFiles[ref.file].index.functions[ref.function] }

    /// `Type.name(labels:)` (Shared/Store.swift:12): how a message names a matched function.
    package func describe(_ ref: FunctionRef) -> String {
        let f = function(ref)
        let owner = f.typeName.map { $0 + "." } ?? ""
        return "`\(owner)\(f.selector)` (\(tree.swiftFiles[ref.file].path):\(f.location.line))"
    }

    /// The direct request a requesting function ends in, following witnesses: its file and call.
    package func finalRequest(from ref: FunctionRef) -> (file: Int, call: Int)? {
        var current = ref
        var seen = Set<FunctionRef>()
        while let w = requesting[current], seen.insert(current).inserted {
            guard let next = w.via else { return (current.file, w.call) }
            current = next
        }
        return nil
    }

    /// A sentence part naming how `call` reaches a request: "`store.load()` runs
    /// `Store.load()` (Shared/Store.swift:12), which sends a request (`session.data` at
    /// Shared/Client.swift:40)", with a note when it was matched by name only.
    package func explain(_ route: RequestRoute, call: SwiftCall) -> String {
        switch route {
        case .direct:
            // `Data(contentsOf:)` by its label: `Data` alone does not say what it does.
            let shown = call.arguments.first?.label == "contentsOf" ? "\(call.callee)(contentsOf:)" : call.callee
            return "`\(shown)` sends a request"
        case .library(let type):
            return "`\(call.callee)` calls `\(type).\(call.name)` of a library the tree does not hold, a network client by its names "
                + "(the tool cannot see inside it)"
        case .through(let ref, let byName, let candidates):
            var text = "`\(call.callee)` runs \(describe(ref))"
            if let (file, c) = finalRequest(from: ref) {
                let request = tree.swiftFiles[file].index.calls[c]
                text += ", which sends a request (`\(request.callee)` at \(tree.swiftFiles[file].path):\(request.location.line))"
            } else {
                text += ", which sends a request"
            }
            if byName {
                let others = candidates.count > 1 ? " (or one of \(candidates.count - 1) other functions of that name)" : ""
                text += "\(others); matched by name only: the receiver's type is not stated where the call is"
            }
            return text
        }
    }

    static func lastName(_ name: String) -> String {
        guard let dot = name.lastIndex(of: ".") else { return name }
        return String(name[name.index(after: dot)...])
    }
}

/// How a call reaches a request.
package enum RequestRoute: Sendable, Equatable {
    /// It sends one itself.
    case direct
    /// It calls a method of a library's network client (`LibraryClients`), known by names only.
    case library(String)
    /// It runs `function`, which sends one (through its own calls); `byNameOnly` when the call
    /// or the path from it was matched by name; `candidates` are every requesting function it may run.
    case through(FunctionRef, byNameOnly: Bool, candidates: [FunctionRef])

    /// True when matched by name somewhere on the way.
    package var byNameOnly: Bool {
        switch self {
        case .direct: return false
        case .library: return true
        case .through(_, let byName, _): return byName
        }
    }
}
