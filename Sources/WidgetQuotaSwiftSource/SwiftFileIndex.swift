import Foundation

/// What one Swift file declares and does, built from its tokens in one pass with a stack of
/// open braces and parentheses: types, functions, calls with the blocks around them,
/// member assignments, string literals, constants, returns and comments.
package struct SwiftFileIndex: Sendable {
    /// The file's path as shown in findings.
    package var path: String
    /// Every token but comments.
    package var tokens: [SwiftToken]
    package var comments: [SwiftComment] = []
    package var blocks: [SwiftBlock] = []
    package var types: [SwiftTypeDecl] = []
    package var functions: [SwiftFunction] = []
    package var calls: [SwiftCall] = []
    /// Indices into `calls`, ordered by the callee's token: the calls in a stretch of the source
    /// are found by binary search, so asking each function for its calls stays linear in the file.
    package private(set) var callsByToken: [Int] = []
    package var assignments: [SwiftAssignment] = []
    package var strings: [SwiftStringLiteral] = []
    package var constants: [SwiftConstant] = []
    package var returns: [SwiftReturn] = []

    /// Lexes and indexes `source`.
    package init(path: String, source: String) {
        self.init(path: path, tokens: SwiftLexer.tokens(source))
    }

    /// Indexes already lexed tokens.
    package init(path: String, tokens all: [SwiftToken]) {
        self.path = path
        var code = [SwiftToken]()
        code.reserveCapacity(all.count)
        for t in all {
            if t.kind == .comment {
                comments.append(SwiftComment(text: t.text, location: t.location))
            } else {
                code.append(t)
            }
        }
        tokens = code
        var builder = SwiftIndexBuilder(tokens: code)
        builder.run()
        blocks = builder.blocks
        types = builder.types
        functions = builder.functions
        calls = builder.calls
        callsByToken = calls.indices.sorted { (calls[$0].token, $0) < (calls[$1].token, $1) }
        assignments = builder.assignments
        strings = builder.strings
        constants = builder.constants
        returns = builder.returns
    }
}

extension SwiftFileIndex {
    /// Adds a call (`isPropertyRead`) for every read of a computed property named in `getters`
    /// (the tree's getters, `SwiftFunction.isGetter`) on a stated receiver: `match.gameLobby`,
    /// `self.gameLobby`, `Store.shared.items`. Not a read: a bare name (a local or a parameter may
    /// shadow the property), a declaration, an assignment (`x.gameLobby =`), a key path
    /// (`\.gameLobby`, `\Match.gameLobby`), an implicit member (`.gameLobby`, an enum case), a member
    /// of a call's result, or a name already read as a call.
    package mutating func addPropertyReads(of getters: Set<String>) {
        guard !getters.isEmpty else { return }
        let t = tokens
        let named = Set(calls.map(\.token))
        var added = false
        for k in t.indices where k >= 2 && t[k].kind == .identifier && getters.contains(t[k].text) && !named.contains(k) {
            guard t[k - 1].is(".") else { continue }
            if k + 1 < t.count, t[k + 1].is("(") || (t[k + 1].is("=") && !(k + 2 < t.count && t[k + 2].is("="))) { continue }
            // The dotted path before the name: `a.b.name`. After anything else (an implicit member
            // `.name`, a call's result `f().name`) the receiver's type is not stated.
            var parts = [t[k].text]
            var j = k - 1
            var stated = true
            while j >= 0 && t[j].is(".") {
                var n = j - 1
                while n >= 0 && (t[n].is("?") || t[n].is("!")) { n -= 1 }
                guard n >= 0, t[n].kind == .identifier || t[n].isKeyword("self") || t[n].isKeyword("Self") || t[n].isKeyword("super")
                else {
                    stated = false
                    break
                }
                parts.append(t[n].text)
                j = n - 1
            }
            // A key path names the property without reading it.
            guard stated, !(j >= 0 && t[j].is("\\")) else { continue }
            let callee = parts.reversed().joined(separator: ".")
            var call = SwiftCall(
                callee: callee, arguments: [], token: k, location: t[k].location, block: innermostBlock(containing: k),
                trailingClosure: nil, receiverCall: nil)
            call.isPropertyRead = true
            calls.append(call)
            added = true
        }
        if added { callsByToken = calls.indices.sorted { (calls[$0].token, $0) < (calls[$1].token, $1) } }
    }
}

// MARK: - Queries

extension SwiftFileIndex {
    /// Functions called `name` (`getTimeline`), or with the selector `name` (`getTimeline(in:completion:)`).
    package func functions(named name: String) -> [SwiftFunction] {
        functions.filter { name.contains("(") ? $0.selector == name : $0.name == name }
    }

    /// Calls whose callee's last name is `name` (`reloadAllTimelines`), or whose callee ends
    /// with the dotted `name` (`shared.data`, `URLSession.shared.data`).
    package func calls(named name: String) -> [SwiftCall] {
        if name.contains(".") {
            return calls.filter { $0.callee == name || $0.callee.hasSuffix("." + name) }
        }
        return calls.filter { $0.name == name }
    }

    /// The calls inside `function`'s body, closures included.
    package func calls(inside function: SwiftFunction) -> [SwiftCall] {
        guard let body = function.body else { return [] }
        return calls(inside: body)
    }

    /// The calls inside `block`, nested blocks included, in `calls`' order.
    package func calls(inside block: Int) -> [SwiftCall] {
        callIndices(inside: block).map { calls[$0] }
    }

    /// Indices into `calls` of the calls inside `block` (their callee's token between its braces:
    /// the block itself or one nested in it), in `calls`' order.
    package func callIndices(inside block: Int) -> [Int] {
        guard blocks.indices.contains(block) else { return [] }
        return callIndices(between: blocks[block].open, and: blocks[block].close)
    }

    /// Indices into `calls` of the calls whose callee's token lies strictly between the tokens
    /// `open` and `close`, in `calls`' order.
    package func callIndices(between open: Int, and close: Int) -> [Int] {
        var low = 0
        var high = callsByToken.count
        while low < high {
            let mid = (low + high) / 2
            if calls[callsByToken[mid]].token <= open { low = mid + 1 } else { high = mid }
        }
        var found = [Int]()
        var k = low
        while k < callsByToken.count, calls[callsByToken[k]].token < close {
            found.append(callsByToken[k])
            k += 1
        }
        return found.sorted()
    }

    /// True when `block` is `outer` or nested in it.
    package func isBlock(_ block: Int?, inside outer: Int) -> Bool {
        var b = block
        while let k = b {
            if k == outer { return true }
            if k < outer { return false }  // blocks are numbered in source order
            b = blocks[k].parent
        }
        return false
    }

    /// The innermost block whose braces hold token `token`, or nil at the top level.
    package func innermostBlock(containing token: Int) -> Int? {
        // Blocks are numbered in source order: the last one opened before the token, then out
        // through its parents to one that closes after it.
        var lo = 0
        var hi = blocks.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if blocks[mid].open < token { lo = mid + 1 } else { hi = mid }
        }
        var b: Int? = lo > 0 ? lo - 1 : nil
        while let k = b, blocks[k].close <= token { b = blocks[k].parent }
        return b
    }

    /// The blocks around `block`, innermost first.
    package func enclosingBlocks(_ block: Int?) -> [SwiftBlock] {
        var out = [SwiftBlock]()
        var b = block
        while let k = b {
            out.append(blocks[k])
            b = blocks[k].parent
        }
        return out
    }

    /// The function whose body holds `block` (closures inside it included).
    package func enclosingFunction(_ block: Int?) -> SwiftFunction? {
        var b = block
        while let k = b {
            if let f = blocks[k].function { return functions[f] }
            b = blocks[k].parent
        }
        return nil
    }

    /// The function around a call.
    package func enclosingFunction(of call: SwiftCall) -> SwiftFunction? { enclosingFunction(call.block) }

    /// True when a block of `kind` is around `call`, looking out to the enclosing function's
    /// body (or further, with `acrossFunctions`).
    package func isInside(_ call: SwiftCall, _ kind: SwiftBlockKind, acrossFunctions: Bool = false) -> Bool {
        isInside(block: call.block, kind, acrossFunctions: acrossFunctions)
    }

    /// True when a block of `kind` is `block` or around it, out to the enclosing function's body.
    package func isInside(block: Int?, _ kind: SwiftBlockKind, acrossFunctions: Bool = false) -> Bool {
        var b = block
        while let k = b {
            let kk = blocks[k].kind
            if kk == kind || (kind == .forLoop && kk.isLoop) { return true }
            if kk == .function && !acrossFunctions { return false }
            b = blocks[k].parent
        }
        return false
    }

    /// True when any loop (`for`, `while`, `repeat`) is around `call` within its function.
    package func isInLoop(_ call: SwiftCall) -> Bool { isInside(call, .forLoop) }

    /// True when `block` is preview code: inside a type conforming to `PreviewProvider`, or the
    /// body of a `#Preview` macro (`#Preview { … }`, `#Preview("Name") { … }`).
    package func isPreviewCode(_ block: Int?) -> Bool {
        var b = block
        while let k = b {
            let open = blocks[k].open
            if blocks[k].kind == .typeBody, let type = blocks[k].type,
                types[type].inherited.contains(where: { $0 == "PreviewProvider" || $0.hasSuffix(".PreviewProvider") })
            {
                return true
            }
            if open > 0 {
                var j = open - 1
                if tokens[j].is(")") {
                    var depth = 0
                    while j >= 0 {
                        if tokens[j].is(")") { depth += 1 } else if tokens[j].is("(") { depth -= 1 }
                        if depth == 0 { break }
                        j -= 1
                    }
                    j -= 1
                }
                if j >= 0, tokens[j].text == "#Preview" || (j > 0 && tokens[j].text == "Preview" && tokens[j - 1].text == "#") {
                    return true
                }
            }
            b = blocks[k].parent
        }
        return false
    }

    /// True when `call` is inside a closure passed to a call named `callee` (last name or
    /// dotted suffix, as in `calls(named:)`), looking out to the enclosing function's body.
    package func isInsideClosure(of call: SwiftCall, passedTo callee: String) -> Bool {
        var b = call.block
        while let k = b {
            if blocks[k].kind == .function { return false }
            if blocks[k].kind == .closure, let c = blocks[k].call {
                let owner = calls[c]
                if owner.name == callee || owner.callee == callee || owner.callee.hasSuffix("." + callee) { return true }
            }
            b = blocks[k].parent
        }
        return false
    }

    /// The closure passed to `call`: its trailing closure, or else the first closure argument.
    package func closureArgument(of call: SwiftCall) -> SwiftBlock? {
        if let t = call.trailingClosure { return blocks[t] }
        for a in call.arguments {
            if let first = a.tokens.first, tokens[first].is("{"),
                let k = blocks.firstIndex(where: { $0.open == first })
            {
                return blocks[k]
            }
        }
        return nil
    }

    /// The source text of `range`, tokens joined by single spaces where the source had space.
    package func text(_ range: Range<Int>) -> String {
        var out = ""
        var previousEnd = -1
        for k in range where k < tokens.count {
            let t = tokens[k]
            if previousEnd >= 0 && t.start > previousEnd { out += " " }
            out += t.text
            previousEnd = t.end
        }
        return out
    }

    /// The string literal values among `range`'s tokens.
    package func stringValues(_ range: Range<Int>) -> [String] {
        range.compactMap { tokens[$0].kind == .string ? tokens[$0].value : nil }
    }

    /// The constant named `name` (the last one declared, when several are).
    package func constant(named name: String) -> SwiftConstant? {
        constants.last { $0.name == name }
    }

    /// The value of a constant arithmetic expression: number literals, `let` constants of this
    /// file, `+ - * /`, parentheses, and `TimeInterval(…)`/`Double(…)`/`Int(…)` wrappers;
    /// nil for anything else.
    package func numericValue(_ range: Range<Int>) -> Double? {
        var evaluator = SwiftConstantEvaluator(index: self, depth: 0)
        return evaluator.evaluate(range)
    }

    /// The value of the constant named `name`, evaluated like `numericValue(_:)`.
    package func numericValue(ofConstant name: String) -> Double? {
        guard let c = constant(named: name) else { return nil }
        return numericValue(c.value)
    }
}
