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
    /// For a `URLSession` method (`data(for:)`, `dataTask(with:)`) on a value of `URLSession`'s
    /// type or of a protocol `URLSession` conforms to in the tree (`extension URLSession:
    /// DataLoader {}`): that type. The call sends a request as `URLSession`'s own does.
    package var session: String? = nil
    /// For a call of a closure property (`model.fetchTopics()`, see `ClosureProperties`) that runs
    /// no function of the tree: the closure given to it that sends a request.
    package var closure: ClosureWitness? = nil

    /// For `Data(contentsOf:)` of a URL named as a remote resource is but not shown to be one
    /// (`SourceVocabulary.isPossiblyRemoteContentsRead`): true. A request known by its name only.
    package var possiblyRemote = false

    /// True when the call sends a request itself or through a closure, before the functions it runs.
    package var requestsOnItsOwn: Bool { session != nil || library != nil || closure != nil || possiblyRemote }

    static let none = CallTarget(functions: [], byNameOnly: false)
}

/// A closure property's implementation that sends a request: where it is given, and whether
/// other implementations given to the same name do not (then the call is matched by name only).
package struct ClosureWitness: Sendable, Equatable {
    /// The closure property's name.
    package var property: String
    /// The file and place of the closure or function reference given to it.
    package var file: Int
    package var location: SourceLocation
    /// True when some implementation given to that name sends no request (a preview's or a test's),
    /// or the call's receiver does not say which type's implementations it runs.
    package var byNameOnly: Bool
    /// True when implementations given to that name send no request (the message says so).
    package var othersSilent = false
    /// True when every implementation that sends a request is in a file only the app builds: the
    /// widget extension never runs it.
    package var onlyInApp = false
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
    /// Last names of the protocols the tree declares.
    let protocols: Set<String>

    package init(_ tree: AppSourceTree) {
        self.tree = tree
        let files = tree.swiftFiles
        protocols = Set(files.flatMap { $0.index.types.filter { $0.keyword == "protocol" }.map { Self.lastName($0.name) } })
        let reach = Reachability(tree)
        let declared = files.map { DeclaredTypes($0.index) }
        var functionsByName = [String: [FunctionRef]]()
        var gettersByName = [String: [FunctionRef]]()
        var declaredTypes = Set<String>()
        var inherited = [String: Set<String>]()
        var properties = [String: [String: Set<String>]]()
        var globals = [String: Set<String>]()
        var singletons = [String: Set<String>]()
        for (f, file) in files.enumerated() {
            for (type, name) in Self.singletons(file.index) { singletons[type, default: []].insert(name) }
            for (k, function) in file.index.functions.enumerated() where function.body != nil {
                if function.isGetter {
                    gettersByName[function.name, default: []].append(FunctionRef(file: f, function: k))
                } else {
                    functionsByName[function.name, default: []].append(FunctionRef(file: f, function: k))
                }
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
            tree: tree, reach: reach, declared: declared, functionsByName: functionsByName, gettersByName: gettersByName,
            declaredTypes: declaredTypes,
            inherited: inherited, heirs: heirs, properties: properties, globals: globals,
            owners: files.map { $0.index.functions.map { $0.typeName.map(Self.lastName) } },
            initializers: (functionsByName["init"] ?? []).reduce(into: [:]) { byType, ref in
                if let type = files[ref.file].index.functions[ref.function].typeName {
                    byType[Self.lastName(type), default: []].append(ref)
                }
            },
            callByToken: files.map { file in
                Dictionary(file.index.calls.enumerated().map { ($1.token, $0) }, uniquingKeysWith: { a, _ in a })
            }, singletons: singletons)
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
                    !call.isPropertyRead
                    && (SourceVocabulary.isDirectRequest(call) || resolver.isSessionSelfRequest(call, in: file.index)
                        || SourceVocabulary.isRemoteContentsRead(call, in: file.index))
                directRow.append(isDirect)
                var target = isDirect ? CallTarget.none : resolver.resolve(call, inFile: f)
                target.possiblyRemote =
                    !isDirect && !call.isPropertyRead && SourceVocabulary.isPossiblyRemoteContentsRead(call, in: file.index)
                row.append(target)
                tokens[call.token] = c
            }
            targets.append(row)
            direct.append(directRow)
            byToken.append(tokens)
        }
        self.direct = direct
        callByToken = byToken
        let definedTypes = Self.definedTypes(tree)
        var requesting = Self.requestingFunctions(tree, targets: targets, direct: direct, definedTypes: definedTypes)
        // Closure properties: a call of one runs the closures given to it; rounds until no call
        // changes, as a closure may request through a function that calls another closure.
        let closures = ClosureProperties(tree)
        for _ in 0..<4 where !closures.implementations.isEmpty {
            let found = Self.closureCalls(tree, closures, resolver: resolver, targets: targets, direct: direct, requesting: requesting)
            guard !found.isEmpty else { break }
            for (f, c, witness) in found { targets[f][c].closure = witness }
            requesting = Self.requestingFunctions(tree, targets: targets, direct: direct, definedTypes: definedTypes)
        }
        self.targets = targets
        self.requesting = requesting
    }

    /// The calls of closure properties, not yet marked, whose implementations send a request.
    /// A call on a value of a stated type runs what that type's initialisers are given; one on
    /// `self` of a type whose property a dependency key path names (`@Dependency(\.client.fetch)
    /// var load`) runs what `fetch` is given anywhere, by name; one on a value of unknown type
    /// runs what any initialiser gives that name, by name.
    static func closureCalls(
        _ tree: AppSourceTree, _ closures: ClosureProperties, resolver: CallResolver, targets: [[CallTarget]], direct: [[Bool]],
        requesting: [FunctionRef: RequestWitness]
    ) -> [(file: Int, call: Int, witness: ClosureWitness)] {
        func requests(_ g: Int, _ c: Int) -> Bool {
            direct[g][c] || targets[g][c].requestsOnItsOwn || targets[g][c].functions.contains { requesting[$0] != nil }
        }
        func sends(_ implementation: ClosureProperties.Implementation) -> Bool {
            switch implementation {
            case .closure(let g, let tokens, _):
                return tree.swiftFiles[g].index.callIndices(between: tokens.lowerBound, and: tokens.upperBound).contains { requests(g, $0) }
            case .function(let g, let name, let labels, _):
                return (resolver.functionsByName[name] ?? []).contains { ref in
                    resolver.reach.reaches(g, ref.file) && requesting[ref] != nil
                        && labels.map { $0 == tree.swiftFiles[ref.file].index.functions[ref.function].labels } ?? true
                }
            }
        }
        var found = [(file: Int, call: Int, witness: ClosureWitness)]()
        for (f, file) in tree.swiftFiles.enumerated() {
            let index = file.index
            for (c, call) in index.calls.enumerated() {
                let target = targets[f][c]
                guard !call.isPropertyRead, !direct[f][c], !target.requestsOnItsOwn, target.functions.isEmpty else { continue }
                var name = String(call.name)
                guard closures.declared[name] != nil || !closures.dependencyAliases.isEmpty else { continue }
                let enclosing = resolver.enclosingTypeName(index, call.block)
                // The types whose initialisers' implementations the call may run; nil for any.
                var types: Set<String>?
                var byName = false
                switch resolver.receiver(of: call, in: index, file: f, enclosing: enclosing) {
                case .typed(let stated):
                    let family = stated.reduce(into: Set<String>()) { $0.formUnion(resolver.family($1)) }
                    guard !(closures.declared[name] ?? []).isDisjoint(with: family) else { continue }
                    types = family
                case .own:
                    guard let enclosing else { continue }
                    if let target = closures.dependencyAliases[enclosing]?[name] {
                        name = target
                        byName = true
                    } else if closures.declared[name]?.contains(enclosing) == true {
                        types = resolver.family(enclosing)
                    } else {
                        continue
                    }
                case .unknown:
                    byName = true
                case .implicit, .parent:
                    continue
                }
                guard let given = closures.implementations[name] else { continue }
                let candidates = given.filter { g in types.map { types in g.type.map(types.contains) ?? true } ?? true }
                let sending = candidates.filter { sends($0.implementation) }
                func place(_ given: ClosureProperties.Given) -> (file: Int, location: SourceLocation) {
                    switch given.implementation {
                    case .closure(let file, _, let at): return (file, at)
                    case .function(let file, _, _, let at): return (file, at)
                    }
                }
                func appOnly(_ file: Int) -> Bool { tree.swiftFiles[file].role == .app && !tree.swiftFiles[file].targets.isEmpty }
                // One the extension can run first.
                guard let first = sending.first(where: { !appOnly(place($0).file) }) ?? sending.first else { continue }
                let (g, location) = place(first)
                var witness = ClosureWitness(
                    property: name, file: g, location: location, byNameOnly: byName || sending.count < candidates.count)
                witness.othersSilent = sending.count < candidates.count
                witness.onlyInApp = sending.allSatisfy { appOnly(place($0).file) }
                found.append((f, c, witness))
            }
        }
        return found
    }

    /// `BGTaskScheduler.register(forTaskWithIdentifier:…)` and SwiftUI's `.backgroundTask(…)`:
    /// their closures run when the task launches.
    package static func isTaskRegistration(_ call: SwiftCall) -> Bool {
        (call.name == "register" && call.labels.first == "forTaskWithIdentifier")
            || (call.name == "backgroundTask" && call.callee.hasPrefix("."))
    }

    /// True when `call` is an initialiser that keeps the closures it is given for later (an
    /// error handler, a mapping): `super.init { … }`, `self.init(handler: { … })`, or a type the
    /// tree defines (`definedTypes`: not one it only extends) made with one (`Mapper { … }`). A
    /// `Task`'s, a stream's or a future's closure runs at once.
    package static func storesClosure(_ call: SwiftCall, definedTypes: Set<String>) -> Bool {
        if call.callee == "super.init" || call.callee == "self.init" { return true }
        let name = String(call.name)
        guard DeclaredTypes.isTypeName(name), definedTypes.contains(name) else { return false }
        return !["Task", "AsyncStream", "AsyncThrowingStream", "Future", "Deferred"].contains(name)
    }

    /// Last names of the types the tree defines (`struct`, `class`, `enum`, `actor`,
    /// `protocol`), not those it only extends.
    package static func definedTypes(_ tree: AppSourceTree) -> Set<String> {
        Set(tree.swiftFiles.flatMap { $0.index.types.filter { $0.keyword != "extension" }.map { lastName($0.name) } })
    }

    /// The fixed point: a function requests when a call in its body (closures included) sends
    /// a request or runs a function that does (a background task's handler aside). A function reached only through calls matched by
    /// name is marked so; one reached by a resolved call as well is not.
    static func requestingFunctions(
        _ tree: AppSourceTree, targets: [[CallTarget]], direct: [[Bool]], definedTypes: Set<String>
    ) -> [FunctionRef: RequestWitness] {
        var result = [FunctionRef: RequestWitness]()
        // Callers of each function: (caller, call index, by name only).
        var callers = [FunctionRef: [(caller: FunctionRef, call: Int, byName: Bool)]]()
        var pending = [FunctionRef]()
        for (f, file) in tree.swiftFiles.enumerated() {
            let index = file.index
            for (c, call) in index.calls.enumerated() {
                var b = call.block
                while let k = b {
                    // A background task's handler runs when the task launches, not in the
                    // function that registers it.
                    if index.blocks[k].kind == .closure, let owner = index.blocks[k].call,
                        Self.isTaskRegistration(index.calls[owner]) || Self.storesClosure(index.calls[owner], definedTypes: definedTypes)
                    {
                        break
                    }
                    if let fn = index.blocks[k].function {
                        let me = FunctionRef(file: f, function: fn)
                        if let closure = targets[f][c].closure, !direct[f][c] {
                            // A closure property's implementation that requests.
                            let existing = result[me]
                            if existing == nil { pending.append(me) }
                            if existing.map({ $0.via != nil || ($0.byNameOnly && !closure.byNameOnly) }) ?? true {
                                result[me] = RequestWitness(call: c, via: nil, byNameOnly: closure.byNameOnly)
                            }
                        } else if targets[f][c].session != nil && !direct[f][c] {
                            // A session reached through a protocol: as definite as a direct request.
                            if result[me].map({ $0.via != nil || $0.byNameOnly || $0.call > c }) ?? true {
                                if result[me] == nil { pending.append(me) }
                                result[me] = RequestWitness(call: c, via: nil, byNameOnly: false)
                            }
                        } else if targets[f][c].library != nil || targets[f][c].possiblyRemote {
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
    package func request(call c: Int, inFile file: Int) -> RequestRoute? { request(call: c, inFile: file, inExtension: false) }

    /// `request(call:inFile:)` as the widget extension runs the call: functions of files only the
    /// app builds are left out (the extension builds its own function of that name, or none).
    package func requestInExtension(call c: Int, inFile file: Int) -> RequestRoute? {
        request(call: c, inFile: file, inExtension: true)
    }

    /// `requestInExtension(call:inFile:)` for a call value.
    package func requestInExtension(_ call: SwiftCall, inFile file: Int) -> RequestRoute? {
        guard let c = callIndex(call, inFile: file) else { return SourceVocabulary.isDirectRequest(call) ? .direct : nil }
        return requestInExtension(call: c, inFile: file)
    }

    func request(call c: Int, inFile file: Int, inExtension: Bool) -> RequestRoute? {
        if direct[file][c] { return .direct }
        let target = targets[file][c]
        if let session = target.session { return .session(session) }
        if let closure = target.closure { return inExtension && closure.onlyInApp ? nil : .closure(closure) }
        if target.possiblyRemote { return .possiblyRemoteContents }
        if let library = target.library { return .library(library) }
        let functions = inExtension ? target.functions.filter { !isAppOnly($0.file) } : target.functions
        // A definite requesting function first, then any.
        let hits = functions.filter { requesting[$0] != nil }
        guard !hits.isEmpty else { return nil }
        let definite = hits.first { requesting[$0]?.byNameOnly == false }
        let chosen = definite ?? hits[0]
        // A value of a protocol with conformers that send nothing (a local store beside a remote
        // one) may run either: which one is decided where the value is made. Test doubles aside.
        let silent = functions.contains { isSilentAlternative($0) }
        let byName = target.byNameOnly || (definite == nil) || silent
        return .through(chosen, byNameOnly: byName, candidates: hits)
    }

    /// True when `ref` sends no request and is a real alternative to the requesting function a
    /// call may run: not test code, not a protocol's default implementation (a conformer's own
    /// method shadows it), not a test or preview double (`MockStore`, `PreviewClient`).
    func isSilentAlternative(_ ref: FunctionRef) -> Bool {
        guard requesting[ref] == nil, !tree.neverShips(tree.swiftFiles[ref.file]) else { return false }
        let owner = function(ref).typeName.map(Self.lastName) ?? ""
        if protocols.contains(owner) { return false }
        return !["Mock", "Fake", "Stub", "Preview", "Dummy", "Spy"].contains { owner.contains($0) }
    }

    /// True for a file that a project says only the app builds.
    func isAppOnly(_ file: Int) -> Bool {
        let f = tree.swiftFiles[file]
        return f.role == .app && !f.targets.isEmpty
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
    package func explain(_ route: RequestRoute, call: SwiftCall, inFile file: Int? = nil) -> String {
        switch route {
        case .direct:
            // `Data(contentsOf:)` by its label: `Data` alone does not say what it does.
            let shown = call.arguments.first?.label == "contentsOf" ? "\(call.callee)(contentsOf:)" : call.callee
            return "`\(shown)` sends a request"
        case .session(let type):
            if type == "URLSession" { return "`\(call.callee)` sends a request (a `URLSession`)" }
            return "`\(call.callee)` sends a request: `\(call.name)` of a `\(type)`, which `URLSession` conforms to in the tree"
        case .possiblyRemoteContents:
            return "`\(call.callee)(contentsOf:)` reads a URL named as a remote resource is, which the code does not show to be a file: "
                + "a synchronous request if it is remote (matched by name only)"
        case .closure(let witness):
            var text =
                "`\(call.callee)` runs the closure given to `\(witness.property)` at \(tree.swiftFiles[witness.file].path):\(witness.location.line), which sends a request"
            if witness.othersSilent {
                text += " (other closures given to `\(witness.property)` send none: which one runs is decided where the value is made)"
            } else if witness.byNameOnly {
                text += " (matched by name only: the call's receiver does not say whose closure it runs)"
            }
            return text
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
            let all = file.flatMap { f in callIndex(call, inFile: f).map { targets[f][$0] } }
            let silent = (all?.functions ?? []).filter(isSilentAlternative)
            if let all, !all.byNameOnly, !silent.isEmpty, requesting[ref]?.byNameOnly == false {
                text +=
                    " (one of \(candidates.count + silent.count) functions the call may run; \(describe(silent[0]))"
                    + (silent.count > 1 ? " and \(silent.count - 1) more send none" : " sends none")
                    + ": which one runs is decided where the value is made)"
            } else if byName {
                let others = candidates.count > 1 ? " (or one of \(candidates.count - 1) other functions of that name)" : ""
                text += "\(others); matched by name only: the receiver's type is not stated where the call is"
            }
            return text
        }
    }

    /// The singletons a file's types make of themselves: `static let shared = Store()` (or
    /// `static var`, `= Self()`, `= .init()`, `= Store.init(…)`) in `Store`'s body, as (type, name).
    static func singletons(_ index: SwiftFileIndex) -> [(type: String, name: String)] {
        let t = index.tokens
        var found = [(type: String, name: String)]()
        for k in t.indices.dropLast(4) where t[k].isKeyword("static") {
            guard t[k + 1].isKeyword("let") || t[k + 1].isKeyword("var"), FrameworkNames.singletons.contains(t[k + 2].text),
                let b = index.innermostBlock(containing: k), index.blocks[b].kind == .typeBody, let ty = index.blocks[b].type
            else { continue }
            let type = lastName(index.types[ty].name)
            // `= value`, after an optional type annotation.
            var j = k + 3
            if t[j].is(":"), j + 2 < t.count { j += 2 }
            guard j + 2 < t.count, t[j].is("=") else { continue }
            let first = t[j + 1]
            let next = t[j + 2]
            if (first.text == type || first.text == "Self") && (next.is("(") || next.is(".")) || (first.is(".") && next.text == "init") {
                found.append((type, t[k + 2].text))
            }
        }
        return found
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
    /// It calls a `URLSession` method on a value of `URLSession`'s type or of a protocol that
    /// `URLSession` conforms to in the tree (the type named).
    case session(String)
    /// It reads `Data(contentsOf:)` of a URL named as a remote resource is (known by its name only).
    case possiblyRemoteContents
    /// It calls a closure property whose implementation sends a request (`ClosureProperties`).
    case closure(ClosureWitness)
    /// It calls a method of a library's network client (`LibraryClients`), known by names only.
    case library(String)
    /// It runs `function`, which sends one (through its own calls); `byNameOnly` when the call
    /// or the path from it was matched by name; `candidates` are every requesting function it may run.
    case through(FunctionRef, byNameOnly: Bool, candidates: [FunctionRef])

    /// True when matched by name somewhere on the way.
    package var byNameOnly: Bool {
        switch self {
        case .direct, .session: return false
        case .library, .possiblyRemoteContents: return true
        case .closure(let witness): return witness.byNameOnly
        case .through(_, let byName, _): return byName
        }
    }
}

extension CallGraph {
    /// The functions the widget extension's own code runs: those of files only the extension
    /// builds, those of the extension's files that nothing in the tree calls (what the system
    /// calls: `getTimeline`, an intent's `perform()`), and every function their calls (and the
    /// calls of top-level code there) reach, leaving out functions of files only the app builds.
    package func reachedFromExtension() -> Set<FunctionRef> {
        var called = Set<FunctionRef>()
        for row in targets { for target in row { called.formUnion(target.functions) } }
        var reached = Set<FunctionRef>()
        var pending = [FunctionRef]()
        func visit(_ f: Int, _ calls: [Int]) {
            for c in calls {
                for ref in targets[f][c].functions where !isAppOnly(ref.file) && reached.insert(ref).inserted { pending.append(ref) }
            }
        }
        for (f, file) in tree.swiftFiles.enumerated() where file.role == .widgetExtension {
            for k in file.index.functions.indices {
                let ref = FunctionRef(file: f, function: k)
                if file.targets.count <= 1 || !called.contains(ref), reached.insert(ref).inserted { pending.append(ref) }
            }
            visit(f, file.index.calls.indices.filter { file.index.enclosingFunction(of: file.index.calls[$0]) == nil })
        }
        while let ref = pending.popLast() {
            guard let body = function(ref).body else { continue }
            visit(ref.file, tree.swiftFiles[ref.file].index.callIndices(inside: body))
        }
        return reached
    }
}
