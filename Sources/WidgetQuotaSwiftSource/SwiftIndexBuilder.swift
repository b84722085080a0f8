import Foundation

/// Builds a `SwiftFileIndex` from a file's tokens in one pass, with a stack of open brackets.
struct SwiftIndexBuilder {
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
    /// The name token of that `var`, when it is declared in a type's body or at the top level:
    /// its accessor block is a getter (`SwiftFunction.isGetter`).
    var pendingVarName: Int?
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

    /// True for a keyword used as an argument label: `for` in `user(for: id)` or in
    /// `func user(for id: String)`, which opens no loop.
    func isArgumentLabel(_ k: Int) -> Bool {
        guard k > 0, k + 1 < t.count, t[k - 1].is("(") || t[k - 1].is(",") else { return false }
        return t[k + 1].is(":") || (t[k + 1].kind == .identifier && k + 2 < t.count && t[k + 2].is(":"))
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
        case .keyword where isArgumentLabel(k):
            break
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
                let inTypeBody = currentBlock.map { blocks[$0].kind == .typeBody && !isProtocolBody($0) } ?? true
                pendingVarName = inTypeBody && k + 1 < t.count && t[k + 1].kind == .identifier ? k + 1 : nil
            case "let":
                let previous = k > 0 ? t[k - 1] : nil
                let binding = previous.map { ["if", "guard", "while", "case"].contains($0.text) || $0.is(",") || $0.is("(") } ?? false
                if !binding {
                    declareConstant(k)
                } else if let previous, previous.text != "case", !previous.is("(") {
                    declareBinding(k)
                }
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
            if p.kind == .accessor, let name = pendingVarName, k + 1 < t.count, !["willSet", "didSet"].contains(t[k + 1].text) {
                functions.append(
                    SwiftFunction(
                        name: t[name].text, labels: [], typeName: enclosingTypeName, location: t[name].location, body: blocks.count,
                        returnType: name + 2 < t.count && t[name + 1].is(":") ? typeName(at: name + 2) : nil, isGetter: true))
                block.function = functions.count - 1
            }
            pendingVarName = nil
        } else if let inner = currentBlock, blocks[inner].kind == .accessor, let keyword = accessorKeyword(before: k) {
            block.kind = .accessor
            // A getter is its `get { … }` alone: what `set { … }` does runs on an assignment.
            if keyword == "get", let getter = blocks[inner].function, functions[getter].isGetter {
                functions[getter].body = blocks.count
                block.function = getter
                blocks[inner].function = nil
            }
        } else {
            block.kind = .closure
            if k > 0, t[k - 1].is(")"), let c = callByClose[k - 1] {
                block.call = c
                calls[c].trailingClosure = blocks.count
            } else if k > 0, t[k - 1].kind == .identifier || (t[k - 1].isKeyword("init") && k > 1 && t[k - 2].is(".")),
                !t[k - 1].text.hasPrefix("#"), !(k > 1 && (t[k - 2].is(":") || t[k - 2].is("->")))
            {
                // `x.y { … }`, `super.init { … }`: a call with a trailing closure and no parentheses.
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
                } else if t[j].is("@") {
                    // An attribute on a conformance (`@preconcurrency P`, `@MainActor P`,
                    // `@unchecked Sendable`, `@retroactive P`) is not part of the protocol's name.
                    j += j + 1 < t.count && t[j + 1].kind == .identifier ? 2 : 1
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
            if s.is("->") {
                functions[functions.count - 1].returnType = typeName(at: n + 1)
            } else if s.is("-"), n + 1 < t.count, t[n + 1].is(">") {
                functions[functions.count - 1].returnType = typeName(at: n + 2)
            }
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

    /// The last name of the type written at `k` (`Store` for `any Store`, `Module.Store`,
    /// `Store?`); nil for a tuple, collection, function type or lowercase name.
    func typeName(at k: Int) -> String? {
        var j = k
        if j < t.count, t[j].text == "any" || t[j].text == "some" { j += 1 }
        guard j < t.count, t[j].kind == .identifier || t[j].isKeyword("Self"), let first = t[j].text.unicodeScalars.first,
            CharacterSet.uppercaseLetters.contains(first)
        else { return nil }
        var name = t[j].text
        while j + 2 < t.count, t[j + 1].is("."), t[j + 2].kind == .identifier {
            name = t[j + 2].text
            j += 2
        }
        return name
    }

    /// The accessor keyword before the `{` at `k`: `get`, `set`, `willSet`, `didSet`, `_read`,
    /// `_modify`, with a getter's effects between (`get async throws {`); nil for anything else.
    func accessorKeyword(before k: Int) -> String? {
        var j = k - 1
        while j > 0 && (t[j].text == "async" || t[j].text == "throws") { j -= 1 }
        guard j >= 0, ["get", "set", "willSet", "didSet", "_modify", "_read"].contains(t[j].text) else { return nil }
        return t[j].text
    }

    /// True when block `b` is a protocol's body (its `var`s are requirements).
    func isProtocolBody(_ b: Int) -> Bool { blocks[b].type.map { types[$0].keyword == "protocol" } ?? false }

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

    /// `if let next = expr {`, `guard let x = expr else`, `while let …`, and `, let y = …` in
    /// their condition lists: the bound name holds its expression where the body can use it (a
    /// timeline policy's `.after(next)`). The value ends at the condition's `{`, `,` or `else`.
    mutating func declareBinding(_ k: Int) {
        guard k + 2 < t.count, t[k + 1].kind == .identifier else { return }
        var j = k + 2
        if t[j].is(":") {
            // A type annotation: to the `=` at its own nesting.
            while j < t.count && j < k + 64 && !t[j].is("=") && !t[j].is("{") && !t[j].is(",") {
                if t[j].is("(") || t[j].is("[") || t[j].is("<") { j = t[j].is("<") ? skipGenerics(j) - 1 : match[j] }
                j += 1
            }
        }
        guard j < t.count, t[j].is("=") else { return }
        var end = j + 1
        while end < t.count && end < j + 1_000 {
            let s = t[end]
            if s.is("{") || s.is(",") || s.is("}") || s.is(")") || s.is("]") || s.isKeyword("else") { break }
            if s.is("(") || s.is("[") { end = match[end] }
            end += 1
        }
        guard end > j + 1 else { return }
        constants.append(
            SwiftConstant(name: t[k + 1].text, location: t[k + 1].location, value: (j + 1)..<min(end, t.count), block: currentBlock))
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
