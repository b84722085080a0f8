import Foundation
import WidgetQuotaSwiftSource

/// Requests one fetch sends: those it sends once, those it sends once per item of a list (a
/// thumbnail per topic, arrivals per bookmark), and those it sends only when a stored copy is
/// missing (`if let cached = loadFromCache(…) { return cached }` before the request).
struct RequestCount: Equatable {
    var once = 0
    var perItem = 0
    var onMiss = 0
    /// Sent by a singleton's `init` on its first use in a process (`Store.shared.load()`): once
    /// a fetch however many items a list around it has (a widget's process is often new for
    /// each reload).
    var perProcess = 0

    /// The requests sent on every fetch (a list counted once).
    var total: Int { once + perItem + perProcess }

    static func + (a: Self, b: Self) -> Self {
        Self(once: a.once + b.once, perItem: a.perItem + b.perItem, onMiss: a.onMiss + b.onMiss, perProcess: a.perProcess + b.perProcess)
    }

    /// Each part at most `cap`.
    func capped(_ cap: Int) -> Self {
        Self(once: min(once, cap), perItem: min(perItem, cap), onMiss: min(onMiss, cap), perProcess: min(perProcess, cap))
    }
}

extension DesignCodeReader {
    /// Requests one fetch from `entry` sends: those sent once, plus those sent per item times
    /// the list's size when the entry states it (`prefix(6)`, `suffix(6)`), else times
    /// `assumedListSize` (and `fansOut` is set, so the field is listed as assumed).
    mutating func requestsPerFetch(from entry: Entry) -> Int {
        let n = count(entry.fileNumber, block: entry.block)
        guard n.perItem > 0 else { return n.total }
        guard let items = listSize(entry) else {
            fansOut = true
            return min(n.once + n.perItem * Self.assumedListSize + n.perProcess, Self.countCap)
        }
        return min(n.once + n.perItem * items + n.perProcess, Self.countCap)
    }

    /// The largest list size the entry's code states: `prefix(n)`/`suffix(n)` of a constant,
    /// bound to a `let` or `var` of a list (`let topics = Array(all.prefix(6))`, not
    /// `String(title.prefix(40))`) that the entry uses afterwards.
    func listSize(_ entry: Entry) -> Int? {
        let index = tree.swiftFiles[entry.fileNumber].index
        let t = index.tokens
        let close = index.blocks[entry.block].close
        let sizes = callsInside(entry.fileNumber, entry.block).compactMap { c -> Int? in
            let call = index.calls[c]
            guard call.name == "prefix" || call.name == "suffix", call.arguments.count == 1, call.arguments[0].label == nil,
                let n = index.numericValue(call.arguments[0].tokens), n >= 1, n <= Double(Self.countCap)
            else { return nil }
            // The statement's `let name =` / `var name =`, on the call's line.
            var k = call.token - 1
            while k > 2 && t[k].location.line == call.location.line && !(t[k].is("=") && t[k - 1].kind == .identifier) { k -= 1 }
            guard k > 2, t[k].is("="), t[k - 2].isKeyword("let") || t[k - 2].isKeyword("var"),
                !["String", "Substring"].contains(t[k + 1].text)
            else { return nil }
            let name = t[k - 1].text
            guard (call.token..<close).contains(where: { t[$0].text == name && t[$0].kind == .identifier }) else { return nil }
            return Int(n)
        }
        return sizes.max()
    }

    /// Requests one fetch starting at `block` of file `f` sends: a direct request counts 1, a
    /// call of a requesting function counts what that function's body reaches (of several it may
    /// run, the largest of those that surely request, a protocol's live conformer rather than its
    /// preview double; the first when all are matched by name), a closure property's call what
    /// the closure given to it sends. Each function and closure is counted once (memoised) and at
    /// most `countCap`, so the walk is linear and a large app's shared client cannot multiply. A
    /// request inside a loop with a numeric bound is a retry loop: its bound goes to `attempts`;
    /// one inside a loop over a collection (`for stop in stops`, `forEach`, a task group's
    /// `addTask` in a loop) is sent per item; one in a `catch` is an error path's, not counted.
    mutating func count(_ f: Int, block: Int) -> RequestCount {
        let index = tree.swiftFiles[f].index
        // Of an `if … else if … else` chain, one branch runs: its largest count is taken.
        let alternative = Self.alternatives(index, in: block)
        var total = RequestCount()
        var byBranch = [Int: RequestCount]()
        for c in callsInside(f, block) {
            guard let one = count(call: c, inFile: f) else { continue }
            if let branch = Self.outermostAlternative(index, index.calls[c].block, alternative, within: block) {
                byBranch[branch] = (byBranch[branch] ?? RequestCount()) + one
            } else {
                total = total + one
            }
        }
        // Per chain (keyed by its first branch), its largest branch.
        var largest = [Int: RequestCount]()
        for (branch, n) in byBranch.sorted(by: { $0.key < $1.key }) {
            guard let head = alternative[branch] else { continue }
            if n.total + n.onMiss > (largest[head].map { $0.total + $0.onMiss } ?? -1) { largest[head] = n }
        }
        for head in largest.keys.sorted() { total = total + largest[head]! }
        return total.capped(Self.countCap)
    }

    /// The branches of the `if … else` chains inside `block` that end in an `else` (one of them
    /// runs), each mapped to its chain's first branch.
    static func alternatives(_ index: SwiftFileIndex, in block: Int) -> [Int: Int] {
        let t = index.tokens
        var byOpen = [Int: Int]()
        var b = block + 1
        while b < index.blocks.count && index.blocks[b].open < index.blocks[block].close {
            byOpen[index.blocks[b].open] = b
            b += 1
        }
        var chainOf = [Int: Int]()
        for (_, head) in byOpen.sorted(by: { $0.key < $1.key }) where index.blocks[head].kind == .ifBranch && chainOf[head] == nil {
            var chain = [head]
            var current = head
            var endsInElse = false
            while true {
                let close = index.blocks[current].close
                guard close + 2 < t.count, t[close + 1].isKeyword("else") else { break }
                if t[close + 2].is("{"), let last = byOpen[close + 2] {
                    chain.append(last)
                    endsInElse = true
                    break
                }
                // `else if …`: the next branch opens after its condition.
                guard t[close + 2].isKeyword("if"),
                    let next = byOpen.filter({ $0.key > close + 2 && index.blocks[$0.value].kind == .ifBranch }).min(by: { $0.key < $1.key }
                    )?.value
                else { break }
                chain.append(next)
                current = next
            }
            guard endsInElse else { continue }
            for branch in chain { chainOf[branch] = head }
        }
        return chainOf
    }

    /// The outermost branch of `alternatives` around `block`, inside `within`.
    static func outermostAlternative(_ index: SwiftFileIndex, _ block: Int?, _ alternatives: [Int: Int], within: Int) -> Int? {
        guard !alternatives.isEmpty else { return nil }
        var found: Int?
        var b = block
        while let k = b, k != within {
            if alternatives[k] != nil { found = k }
            b = index.blocks[k].parent
        }
        return found
    }

    /// What call `c` of file `f` sends, as `count(_:block:)` counts it; nil for a call that sends nothing.
    mutating func count(call c: Int, inFile f: Int) -> RequestCount? {
        let index = tree.swiftFiles[f].index
        guard let route = graph.request(call: c, inFile: f) else { return nil }
        let call = index.calls[c]
        // The app's properties, like its objects, are set up once and outlive a fetch.
        if countingApp && call.isPropertyRead { return nil }
        // An error path's requests (a failure report in a `catch`) are not a typical fetch's.
        if index.isInside(call, .catchBlock) { return nil }
        var one: RequestCount
        switch route {
        case .direct, .session, .library, .possiblyRemoteContents:
            one = RequestCount(once: 1)
        case .closure(let witness):
            one = count(closure: witness)
        case .through(let chosen, let byName, let candidates):
            // A call that is not a construction runs an `init` only as a singleton's first use
            // (`Store.shared.load()`): that `init` runs once a process, beside the method.
            let construction = call.name == "init" || DeclaredTypes.isTypeName(String(call.name))
            func isSingletonInit(_ ref: FunctionRef) -> Bool { !construction && graph.function(ref).name == "init" }
            let methods = candidates.filter { !isSingletonInit($0) }
            let singletons = candidates.filter(isSingletonInit)
            one = RequestCount()
            if let first = methods.first {
                let sure = methods.filter { graph.requesting[$0]?.byNameOnly == false }
                let picked = isSingletonInit(chosen) ? first : chosen
                one = (byName || sure.isEmpty ? [picked] : sure).map { count(function: $0) }.max { $0.total < $1.total } ?? RequestCount()
            }
            // The app's singletons are made once and outlive its fetches.
            if !countingApp, let made = singletons.map({ count(function: $0) }).max(by: { $0.total < $1.total }) {
                one = one + RequestCount(onMiss: made.onMiss, perProcess: made.total)
            }
            if countingApp && construction { return nil }
            if one == RequestCount() && methods.isEmpty { return nil }
        }
        if let bound = loopBound(index, call) {
            attempts = max(attempts, bound)
        } else if index.isInLoop(call)
            || ["forEach", "map", "compactMap", "flatMap"].contains(where: { index.isInsideClosure(of: call, passedTo: $0) })
        {
            one = RequestCount(perItem: one.once + one.perItem, onMiss: one.onMiss, perProcess: one.perProcess)
        }
        if Self.isBehindCacheHit(index, call) { one = RequestCount(onMiss: one.total + one.onMiss) }
        return one
    }

    /// True when `call` runs only when a stored copy is missing: before it, on its path, an `if`
    /// whose condition calls a function named for a cache (`loadFromCache`,
    /// `cache.load`, `cachedHolidays`) returns from the function in its own block, and the
    /// condition names no age (`isStale`, `ttl`, `expires`, a date, `shouldRefresh`): the
    /// request then runs on a cache miss only.
    /// NSCache's `object(forKey:)`, a memory cache a widget's new process starts without, is not one.
    static func isBehindCacheHit(_ index: SwiftFileIndex, _ call: SwiftCall) -> Bool {
        var body: Int?
        var b = call.block
        while let k = b {
            if index.blocks[k].kind == .function {
                body = k
                break
            }
            b = index.blocks[k].parent
        }
        guard let body else { return false }
        var k = body + 1
        while k < index.blocks.count && index.blocks[k].open < call.token {
            defer { k += 1 }
            let branch = index.blocks[k]
            // An `if` whose branch returns the cached value; a `guard`'s `else` returns when the
            // copy is missing, so what follows it runs on a hit.
            guard branch.kind == .ifBranch, branch.close < call.token, let parent = branch.parent,
                index.isBlock(call.block, inside: parent),
                index.returns.contains(where: { $0.block == k }),
                let keyword = conditionStart(index, branch)
            else { continue }
            let end = branch.open
            let condition = index.text(keyword..<end).lowercased()
            guard
                !["stale", "expir", "ttl", "fresh", "valid", "maxage", "date", "interval", "elapsed", "should", "needs", "outdated"]
                    .contains(where: condition.contains)
            else { continue }
            let namesCache = index.callIndices(between: keyword, and: end).contains { c in
                let name = index.calls[c].name
                return name != "object" && SourceVocabulary.camelWords(String(name)).contains { $0 == "cache" || $0 == "cached" }
                    || index.calls[c].callee.split(separator: ".").dropLast().contains { $0.lowercased().hasSuffix("cache") }
                        && name != "object"
            }
            if namesCache { return true }
        }
        return false
    }

    /// The `if` or `guard` keyword of a branch's condition.
    static func conditionStart(_ index: SwiftFileIndex, _ branch: SwiftBlock) -> Int? {
        var k = branch.open - 1
        var depth = 0
        while k >= 0 && k > branch.open - 80 {
            let t = index.tokens[k]
            if t.is(")") || t.is("]") || t.is("}") { depth += 1 }
            if t.is("(") || t.is("[") || t.is("{") {
                if depth == 0 { return nil }
                depth -= 1
            }
            if depth == 0 && (t.isKeyword("if") || t.isKeyword("guard")) { return k }
            k -= 1
        }
        return nil
    }

    /// The most requests one function's body is counted for (each part).
    static let countCap = 50

    /// `count(_:block:)` of a function's body, memoised; nothing while it is being counted (recursion).
    mutating func count(function ref: FunctionRef) -> RequestCount {
        if let known = counted[ref] { return known }
        counted[ref] = RequestCount()
        guard let body = graph.function(ref).body else { return RequestCount() }
        let n = count(ref.file, block: body)
        counted[ref] = n
        return n
    }

    /// What the closure given to a closure property sends, memoised; one request when the
    /// closure is not found (a function reference given instead).
    mutating func count(closure witness: ClosureWitness) -> RequestCount {
        let index = tree.swiftFiles[witness.file].index
        guard let brace = BGTaskCompletionHandlers.tokenIndex(index, witness.location), index.tokens[brace].is("{"),
            let block = index.innermostBlock(containing: brace + 1), index.blocks[block].open == brace
        else { return count(reference: witness) }
        let key = [witness.file, block]
        if let known = countedClosures[key] { return known }
        countedClosures[key] = RequestCount()
        let counted = count(witness.file, block: block)
        let n = counted == RequestCount() ? RequestCount(once: 1) : counted
        countedClosures[key] = n
        return n
    }

    /// What a function given by reference to a closure property sends (`toggle: liveToggle(token:id:)`):
    /// the largest count of the requesting functions of that name; one request when none is found.
    mutating func count(reference witness: ClosureWitness) -> RequestCount {
        let index = tree.swiftFiles[witness.file].index
        guard let k = BGTaskCompletionHandlers.tokenIndex(index, witness.location), index.tokens[k].kind == .identifier else {
            return RequestCount(once: 1)
        }
        let name = index.tokens[k].text
        let candidates = graph.requesting.keys.filter { graph.function($0).name == name }.sorted()
        let counts = candidates.map { count(function: $0) }.filter { $0.total > 0 }
        return counts.max { $0.total < $1.total } ?? RequestCount(once: 1)
    }

    /// The number of times the innermost loop around `call` runs, when its header states it:
    /// `for _ in 0..<3`, `for _ in 1...3`, `while attempt < 3`, `while attempt <= 2`.
    func loopBound(_ index: SwiftFileIndex, _ call: SwiftCall) -> Int? {
        var b = call.block
        while let k = b {
            let block = index.blocks[k]
            if block.kind == .function { return nil }
            if block.kind.isLoop {
                var start = block.open - 1
                while start > 0 && start > block.open - 20 {
                    let t = index.tokens[start]
                    if t.kind == .keyword && (t.text == "for" || t.text == "while") { break }
                    start -= 1
                }
                let header = Array(index.tokens[start..<block.open])
                for (i, t) in header.enumerated() where i + 1 < header.count {
                    guard let high = Int(header[i + 1].text.replacingOccurrences(of: "_", with: "")) else { continue }
                    let low = i > 0 ? Int(header[i - 1].text) ?? 0 : 0
                    switch t.text {
                    case "..<": return max(1, high - low)
                    case "...": return max(1, high - low + 1)
                    case "<": return max(1, high)
                    case "<=": return max(1, high + 1)
                    default: continue
                    }
                }
                return nil
            }
            b = block.parent
        }
        return nil
    }
}
