import Foundation

/// What kind of braces a block is.
package enum SwiftBlockKind: String, Sendable, CaseIterable {
    /// The body of a `struct`, `class`, `enum`, `actor`, `extension` or `protocol`.
    case typeBody
    /// The body of a `func` or `init`.
    case function
    /// A closure: an argument, a trailing closure, or a closure value.
    case closure
    /// A computed property or its `get`/`set`/`willSet`/`didSet`.
    case accessor
    case forLoop, whileLoop, repeatLoop
    /// The `then` branch of an `if`.
    case ifBranch
    /// An `else` branch of an `if`.
    case elseBranch
    /// The `else` of a `guard`.
    case guardElse
    case doBlock, catchBlock, deferBlock
    /// The braces of a `switch`.
    case switchBody
    /// Any other braces (a `#if` region does not open one).
    case other

    /// True for `for`, `while` and `repeat` loops.
    package var isLoop: Bool { self == .forLoop || self == .whileLoop || self == .repeatLoop }
}

/// A pair of braces in a file.
package struct SwiftBlock: Sendable, Equatable {
    package var kind: SwiftBlockKind
    /// The innermost block around this one.
    package var parent: Int?
    /// Token indices of `{` and of its `}` (the token count when the file ends first).
    package var open: Int
    package var close: Int
    package var location: SourceLocation
    /// For `.function`: the function's index in `functions`.
    package var function: Int?
    /// For `.typeBody`: the type's index in `types`.
    package var type: Int?
    /// For `.closure`: the call it is passed to (as an argument or trailing closure).
    package var call: Int?
}

/// A type declaration or extension.
package struct SwiftTypeDecl: Sendable, Equatable {
    /// `struct`, `class`, `enum`, `actor`, `extension` or `protocol`.
    package var keyword: String
    /// The name (for an extension, the extended type as written: `Foo.Bar`).
    package var name: String
    /// The inheritance and conformance list as written, generic arguments left out.
    package var inherited: [String]
    package var location: SourceLocation
    /// The body's block, when it has one.
    package var body: Int?
}

/// A `func` or `init` declaration.
package struct SwiftFunction: Sendable, Equatable {
    /// `getTimeline`, or `init`.
    package var name: String
    /// Argument labels, `_` for none.
    package var labels: [String]
    /// The enclosing type or extension's name.
    package var typeName: String?
    package var location: SourceLocation
    /// The body's block (nil for a protocol requirement).
    package var body: Int?

    /// `getTimeline(in:completion:)`.
    package var selector: String { name + "(" + labels.map { $0 + ":" }.joined() + ")" }
}

/// One argument of a call.
package struct SwiftArgument: Sendable, Equatable {
    /// The label, or nil.
    package var label: String?
    /// The argument's tokens (after the label and colon).
    package var tokens: Range<Int>
}

/// A call: `name(…)`, `a.b.c(…)`, or a trailing-closure call `a.b { … }`.
package struct SwiftCall: Sendable, Equatable {
    /// The callee as written, its dotted names only: `URLSession.shared.data`; a chain after
    /// a call or an implicit member starts with `.` (`.resume`, `.after`).
    package var callee: String
    /// The argument list (trailing closures not included).
    package var arguments: [SwiftArgument]
    /// The token of the callee's last name.
    package var token: Int
    package var location: SourceLocation
    /// The innermost block around the call.
    package var block: Int?
    /// The trailing closure's block, when it has one.
    package var trailingClosure: Int?
    /// The call whose result this call is made on (`dataTask(with:)` for `.resume`).
    package var receiverCall: Int?

    /// The callee's last name: `data` for `URLSession.shared.data`.
    package var name: Substring {
        // The text after the last dot, without splitting the whole path (rules ask this of every call).
        // By UTF-8 code unit: a dot is one byte, and this avoids grapheme breaking.
        if let dot = callee.utf8.lastIndex(of: UInt8(ascii: ".")), callee.utf8.index(after: dot) < callee.endIndex {
            return callee[callee.utf8.index(after: dot)...]
        }
        return callee.split(separator: ".").last ?? Substring(callee)
    }
    /// Argument labels with `_` for none: `["for", "delegate"]`.
    package var labels: [String] { arguments.map { $0.label ?? "_" } }
}

/// `a.b = …`: an assignment to a member.
package struct SwiftAssignment: Sendable, Equatable {
    /// The left-hand path: `request.timeoutInterval`.
    package var target: String
    package var location: SourceLocation
    /// The right-hand expression's tokens.
    package var value: Range<Int>
    package var block: Int?
}

/// A string literal.
package struct SwiftStringLiteral: Sendable, Equatable {
    /// Its static text (interpolations left out).
    package var value: String
    package var token: Int
    package var location: SourceLocation
    package var block: Int?
}

/// A `let` constant with a value: `let ttl: TimeInterval = 30 * 60`.
package struct SwiftConstant: Sendable, Equatable {
    package var name: String
    package var location: SourceLocation
    package var value: Range<Int>
    package var block: Int?
}

/// A `return` statement.
package struct SwiftReturn: Sendable, Equatable {
    package var token: Int
    package var location: SourceLocation
    package var block: Int?
}

/// A comment.
package struct SwiftComment: Sendable, Equatable {
    package var text: String
    package var location: SourceLocation
}

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
        assignments = builder.assignments
        strings = builder.strings
        constants = builder.constants
        returns = builder.returns
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
        return calls.filter { isBlock($0.block, inside: body) }
    }

    /// The calls inside `block`, nested blocks included.
    package func calls(inside block: Int) -> [SwiftCall] {
        calls.filter { isBlock($0.block, inside: block) }
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

// MARK: - Constant arithmetic

private struct SwiftConstantEvaluator {
    let index: SwiftFileIndex
    var depth: Int
    var k = 0
    var end = 0
    var nesting = 0

    init(index: SwiftFileIndex, depth: Int) {
        self.index = index
        self.depth = depth
    }

    mutating func evaluate(_ range: Range<Int>) -> Double? {
        guard depth < 16, range.lowerBound >= 0, range.upperBound <= index.tokens.count else { return nil }
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
            if clean.hasPrefix("0x"), let v = Int(clean.dropFirst(2), radix: 16) { return Double(v) }
            return Double(clean)
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
            guard let c = index.constant(named: t.text) else { return nil }
            var inner = SwiftConstantEvaluator(index: index, depth: depth + 1)
            return inner.evaluate(c.value)
        }
        return nil
    }
}

// MARK: - Building

private struct SwiftIndexBuilder {
    let t: [SwiftToken]
    var blocks: [SwiftBlock] = []
    var types: [SwiftTypeDecl] = []
    var functions: [SwiftFunction] = []
    var calls: [SwiftCall] = []
    var assignments: [SwiftAssignment] = []
    var strings: [SwiftStringLiteral] = []
    var constants: [SwiftConstant] = []
    var returns: [SwiftReturn] = []

    /// An open `(`, `[` or `{`.
    struct Open {
        var token: Int
        /// For `{`: its block.
        var block: Int?
        /// For `(`: the call whose arguments it holds.
        var call: Int?
    }

    var stack: [Open] = []
    /// A block kind waiting for its `{`, at a nesting depth.
    var pending: (kind: SwiftBlockKind, depth: Int, function: Int?, type: Int?)?
    var lastClosedKind: SwiftBlockKind?
    /// The line of the `var` whose accessor block may follow.
    var pendingVarLine = 0
    /// The call whose argument list a `)` closed, by the `)`'s token index.
    var callByClose: [Int: Int] = [:]

    /// For each `(`, `[` or `{`: the index of its closing bracket (or the token count).
    let match: [Int]

    init(tokens: [SwiftToken]) {
        t = tokens
        var match = [Int](repeating: tokens.count, count: tokens.count)
        var open = [Int]()
        for (k, s) in tokens.enumerated() where s.kind == .punctuation {
            switch s.text {
            case "(", "[", "{": open.append(k)
            case ")", "]", "}":
                // A `}` closes any `(` or `[` left open inside its braces.
                while let o = open.last {
                    open.removeLast()
                    match[o] = k
                    if tokens[o].text == "{" || s.text != "}" { break }
                }
            default: break
            }
        }
        self.match = match
    }

    /// The open blocks, innermost last, each with the name of the type around it.
    var openBlocks: [(block: Int, typeName: String?)] = []
    /// The block whose `}` is at a token index.
    var blockByClose: [Int: Int] = [:]

    var currentBlock: Int? { openBlocks.last?.block }

    var enclosingTypeName: String? { openBlocks.last?.typeName }

    func isName(_ k: Int) -> Bool {
        k >= 0 && k < t.count
            && (t[k].kind == .identifier || t[k].isKeyword("self") || t[k].isKeyword("Self") || t[k].isKeyword("super")
                || t[k].isKeyword("init"))
    }

    mutating func run() {
        var k = 0
        while k < t.count {
            step(&k)
        }
    }

    mutating func step(_ k: inout Int) {
        let tok = t[k]
        let depth = stack.count
        // A stored property: its accessor block would have opened on its line.
        if let p = pending, p.kind == .accessor, tok.startsLine, tok.location.line > pendingVarLine, !tok.is("{") {
            pending = nil
        }
        switch tok.kind {
        case .keyword:
            switch tok.text {
            case "struct", "class", "enum", "actor", "extension", "protocol":
                if k + 1 < t.count, t[k + 1].kind == .identifier {
                    declareType(&k)
                    return
                }
            case "func":
                declareFunction(&k, nameToken: k + 1)
                return
            case "init" where k == 0 || !t[k - 1].is("."):
                declareFunction(&k, nameToken: k)
                return
            case "for": pending = (.forLoop, depth, nil, nil)
            case "while":
                if !(k > 0 && t[k - 1].is("}") && lastClosedKind == .repeatLoop) { pending = (.whileLoop, depth, nil, nil) }
            case "repeat": pending = (.repeatLoop, depth, nil, nil)
            case "if": pending = (.ifBranch, depth, nil, nil)
            case "guard": pending = (.guardElse, depth, nil, nil)
            case "else":
                if pending?.kind == .guardElse && pending?.depth == depth {
                    pending = (.guardElse, depth, nil, nil)
                } else {
                    pending = (.elseBranch, depth, nil, nil)
                }
            case "do": pending = (.doBlock, depth, nil, nil)
            case "catch": pending = (.catchBlock, depth, nil, nil)
            case "defer": pending = (.deferBlock, depth, nil, nil)
            case "switch": pending = (.switchBody, depth, nil, nil)
            case "var":
                pending = (.accessor, depth, nil, nil)
                pendingVarLine = tok.location.line
            case "let":
                let previous = k > 0 ? t[k - 1] : nil
                let binding = previous.map { ["if", "guard", "while", "case"].contains($0.text) || $0.is(",") || $0.is("(") } ?? false
                if !binding { declareConstant(k) }
            case "return":
                returns.append(SwiftReturn(token: k, location: tok.location, block: currentBlock))
            default: break
            }
        case .string:
            strings.append(SwiftStringLiteral(value: tok.value ?? "", token: k, location: tok.location, block: currentBlock))
        case .operator:
            if tok.text == "=" {
                if pending?.kind == .accessor && pending?.depth == depth { pending = nil }
                assignment(at: k)
            }
        case .punctuation:
            switch tok.text {
            case "(":
                var open = Open(token: k)
                if k > 0, isName(k - 1), t[k - 1].location.line == tok.location.line, !t[k - 1].text.hasPrefix("#"),
                    !(k > 1 && (t[k - 2].isKeyword("func") || t[k - 2].isKeyword("case") || t[k - 2].is("@")))
                {
                    open.call = recordCall(nameToken: k - 1, open: k)
                }
                stack.append(open)
            case "[":
                stack.append(Open(token: k))
            case "{":
                openBrace(k)
            case ")", "]":
                if let last = stack.last, !t[last.token].is("{") {
                    stack.removeLast()
                    if let c = last.call, tok.is(")") {
                        closeArgument(call: c, at: k)
                        callByClose[k] = c
                    }
                }
            case "}":
                closeBrace(k)
            case ",":
                if let last = stack.last, let c = last.call {
                    closeArgument(call: c, at: k)
                    calls[c].arguments.append(argument(startingAfter: k))
                }
            default: break
            }
        default: break
        }
        k += 1
    }

    mutating func openBrace(_ k: Int) {
        let depth = stack.count
        var block = SwiftBlock(kind: .other, parent: currentBlock, open: k, close: t.count, location: t[k].location)
        if let p = pending, p.depth == depth {
            block.kind = p.kind
            block.function = p.function
            block.type = p.type
            pending = nil
        } else if let inner = currentBlock, blocks[inner].kind == .accessor, k > 0,
            ["get", "set", "willSet", "didSet", "_modify", "_read"].contains(t[k - 1].text)
        {
            block.kind = .accessor
        } else {
            block.kind = .closure
            if k > 0, t[k - 1].is(")"), let c = callByClose[k - 1] {
                block.call = c
                calls[c].trailingClosure = blocks.count
            } else if k > 0, t[k - 1].kind == .identifier, !t[k - 1].text.hasPrefix("#"),
                !(k > 1 && (t[k - 2].is(":") || t[k - 2].is("->")))
            {
                // `x.y { … }`: a call with a trailing closure and no parentheses.
                let c = recordCall(nameToken: k - 1, open: nil)
                block.call = c
                calls[c].trailingClosure = blocks.count
            } else if let o = stack.last, let c = o.call {
                block.call = c
            }
        }
        if block.kind == .function, let f = block.function { functions[f].body = blocks.count }
        if block.kind == .typeBody, let ty = block.type { types[ty].body = blocks.count }
        let typeName = block.type.map { types[$0].name } ?? enclosingTypeName
        openBlocks.append((blocks.count, typeName))
        stack.append(Open(token: k, block: blocks.count))
        blocks.append(block)
    }

    mutating func closeBrace(_ k: Int) {
        // Close any unbalanced ( or [ left inside the braces.
        while let last = stack.last, !t[last.token].is("{") { stack.removeLast() }
        guard let last = stack.popLast(), let b = last.block else { return }
        openBlocks.removeLast()
        blocks[b].close = k
        blockByClose[k] = b
        lastClosedKind = blocks[b].kind
        if pending?.depth ?? -1 > stack.count { pending = nil }
    }

    /// Records a call whose last name is at `nameToken`; `open` is its `(` when it has one.
    mutating func recordCall(nameToken: Int, open: Int?) -> Int {
        var parts = [t[nameToken].text]
        var j = nameToken - 1
        var receiver: Int?
        var leadingDot = false
        while j >= 0 && t[j].is(".") {
            var n = j - 1
            while n >= 0 && (t[n].is("?") || t[n].is("!")) { n -= 1 }
            if n >= 0 && isName(n) {
                parts.append(t[n].text)
                j = n - 1
            } else {
                if n >= 0 && t[n].is(")") { receiver = callByClose[n] }
                if n >= 0 && t[n].is("}"), let b = blockByClose[n] { receiver = blocks[b].call }
                leadingDot = true
                break
            }
        }
        let callee = (leadingDot ? "." : "") + parts.reversed().joined(separator: ".")
        var call = SwiftCall(
            callee: callee, arguments: [], token: nameToken, location: t[nameToken].location, block: currentBlock,
            trailingClosure: nil, receiverCall: receiver)
        if let open {
            call.arguments = []
            if open + 1 < t.count && !t[open + 1].is(")") {
                call.arguments.append(argument(startingAfter: open))
            }
        }
        calls.append(call)
        return calls.count - 1
    }

    /// An argument that starts after the `(` or `,` at `k`; its end is fixed when the next
    /// `,` or the `)` comes.
    func argument(startingAfter k: Int) -> SwiftArgument {
        var start = k + 1
        var label: String?
        if start + 1 < t.count, t[start].kind == .identifier || t[start].kind == .keyword, t[start + 1].is(":") {
            label = t[start].text
            start += 2
        }
        return SwiftArgument(label: label, tokens: start..<start)
    }

    /// Ends the call's last argument at the `,` or `)` at `k`.
    mutating func closeArgument(call c: Int, at k: Int) {
        guard let last = calls[c].arguments.indices.last else { return }
        let start = calls[c].arguments[last].tokens.lowerBound
        calls[c].arguments[last].tokens = start..<max(start, k)
    }

    mutating func declareType(_ k: inout Int) {
        let keyword = t[k].text
        var j = k + 1
        var name = t[j].text
        j += 1
        while j + 1 < t.count && t[j].is(".") && t[j + 1].kind == .identifier {
            name += "." + t[j + 1].text
            j += 2
        }
        var inherited = [String]()
        j = skipGenerics(j)
        if j < t.count && t[j].is(":") {
            j += 1
            var current = ""
            while j < t.count && !t[j].is("{") && !t[j].isKeyword("where") && !t[j].is("}") {
                if t[j].is(",") {
                    if !current.isEmpty { inherited.append(current) }
                    current = ""
                    j += 1
                } else if t[j].is("<") {
                    j = skipGenerics(j)
                } else {
                    current += t[j].text
                    j += 1
                }
            }
            if !current.isEmpty { inherited.append(current) }
        }
        types.append(SwiftTypeDecl(keyword: keyword, name: name, inherited: inherited, location: t[k].location, body: nil))
        pending = (.typeBody, stack.count, nil, types.count - 1)
        k = j
    }

    /// The index after a `<…>` generic clause at `j`, or `j`.
    func skipGenerics(_ j: Int) -> Int {
        guard j < t.count, t[j].kind == .operator, t[j].text.hasPrefix("<") else { return j }
        var depth = 0
        var n = j
        while n < t.count {
            let s = t[n]
            if s.kind == .operator {
                for ch in s.text.utf8 {
                    if ch == 0x3C { depth += 1 } else if ch == 0x3E { depth -= 1 }
                }
            }
            if s.is("{") || s.is("}") { return n }
            n += 1
            if depth <= 0 { return n }
        }
        return n
    }

    mutating func declareFunction(_ k: inout Int, nameToken: Int) {
        guard nameToken < t.count else {
            k += 1
            return
        }
        let name = t[nameToken].text
        var j = nameToken + 1
        while j < t.count && (t[j].is("?") || t[j].is("!")) { j += 1 }
        j = skipGenerics(j)
        var labels = [String]()
        if j < t.count && t[j].is("(") {
            var depth = 0
            var expectLabel = true
            while j < t.count {
                let s = t[j]
                if s.is("(") || s.is("[") || (depth >= 1 && s.is("{")) {
                    // A `{` inside the parameters is a default value's closure (`= { _ in }`).
                    depth += 1
                } else if s.is(")") || s.is("]") || (depth >= 2 && s.is("}")) {
                    depth -= 1
                    if depth == 0 {
                        j += 1
                        break
                    }
                } else if s.is("{") || s.is("}") {
                    break
                } else if depth == 1 && s.is(",") {
                    expectLabel = true
                } else if depth == 1 && expectLabel && (s.kind == .identifier || s.kind == .keyword) {
                    labels.append(s.text)
                    expectLabel = false
                } else if depth == 1 && s.is("@") {
                    j += 1  // an attribute before the label: skip its name
                }
                j += 1
            }
        }
        functions.append(
            SwiftFunction(name: name, labels: labels, typeName: enclosingTypeName, location: t[nameToken].location, body: nil))
        // The body's `{` comes after the effects and result type; a requirement has none.
        var n = j
        var found = false
        while n < t.count {
            let s = t[n]
            if s.is("{") {
                found = true
                break
            }
            if s.is("}") || s.is(";") { break }
            if s.kind == .keyword && ["func", "var", "let", "init", "case", "static", "subscript", "typealias"].contains(s.text) { break }
            if s.is("@") { break }
            n += 1
        }
        if found {
            pending = (.function, stack.count, functions.count - 1, nil)
            k = n
        } else {
            k = j
        }
    }

    mutating func declareConstant(_ k: Int) {
        guard k + 1 < t.count, t[k + 1].kind == .identifier else { return }
        var j = k + 2
        // An optional type annotation: skip to `=` on the same nesting level.
        var depth = 0
        while j < t.count && j < k + 200 {
            let s = t[j]
            if s.kind == .keyword && (s.text == "let" || s.text == "var") { return }
            if s.is("(") || s.is("[") || s.is("<") {
                depth += 1
            } else if s.is(")") || s.is("]") || s.is(">") {
                depth -= 1
            } else if depth == 0 && (s.is("=") || s.is("{") || s.is("}") || s.is(",") || s.startsLine) {
                break
            }
            j += 1
        }
        guard j < t.count, t[j].is("=") else { return }
        let end = expressionEnd(from: j + 1)
        constants.append(SwiftConstant(name: t[k + 1].text, location: t[k + 1].location, value: (j + 1)..<end, block: currentBlock))
    }

    mutating func assignment(at k: Int) {
        guard k >= 3, isName(k - 1), t[k - 2].is(".") else { return }
        var parts = [t[k - 1].text]
        var j = k - 2
        while j >= 1 && t[j].is(".") && isName(j - 1) {
            parts.append(t[j - 1].text)
            j -= 2
        }
        if j >= 0 && (t[j].isKeyword("let") || t[j].isKeyword("var")) { return }
        let end = expressionEnd(from: k + 1)
        assignments.append(
            SwiftAssignment(
                target: parts.reversed().joined(separator: "."), location: t[j + 1].location, value: (k + 1)..<end, block: currentBlock))
    }

    /// Keywords that start a statement or declaration, so end an expression before them.
    static let statementKeywords: Set<String> = [
        "let", "var", "func", "return", "if", "guard", "for", "while", "repeat", "do", "defer", "switch", "case",
        "default", "struct", "class", "enum", "extension", "protocol", "import", "throw", "break", "continue",
    ]

    /// The end of an expression starting at `k`: the first token at its own nesting level that
    /// starts a new line (and is not a continuation: `.`, an infix operator, `{` of a trailing
    /// closure), or a `,`, `;`, or the bracket closing around it.
    func expressionEnd(from k: Int) -> Int {
        var j = k
        var steps = 0
        while j < t.count && steps < 1_000 {
            let s = t[j]
            if j > k && s.startsLine && !s.is(".") && !(s.kind == .operator && s.text != "!" && s.text != "?")
                && !(t[j - 1].kind == .operator && t[j - 1].text != "!" && t[j - 1].text != "?")
            {
                return j
            }
            if s.is(",") || s.is(";") || s.is(")") || s.is("]") || s.is("}") || s.is("=") { return j }
            if s.kind == .keyword && SwiftIndexBuilder.statementKeywords.contains(s.text) { return j }
            if s.is("(") || s.is("[") || s.is("{") {
                j = match[j]  // a bracketed group is skipped whole
            }
            j += 1
            steps += 1
        }
        return min(j, t.count)
    }
}
