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

/// A `func` or `init` declaration, or a computed property's getter (`var gameLobby: Lobby { … }`,
/// read as a function of no arguments that runs when the property is read).
package struct SwiftFunction: Sendable, Equatable {
    /// `getTimeline`, `init`, or the property's name.
    package var name: String
    /// Argument labels, `_` for none.
    package var labels: [String]
    /// The enclosing type or extension's name.
    package var typeName: String?
    package var location: SourceLocation
    /// The body's block (nil for a protocol requirement).
    package var body: Int?
    /// The last name of the result type written after `->` (`Store` for `-> any Store`,
    /// `Store?`), or a getter's type; nil when none is written or it is not a named type.
    package var returnType: String? = nil
    /// True for a computed property's getter (its accessor block, `get` and `set` included).
    package var isGetter = false

    /// `getTimeline(in:completion:)`; a getter's name alone.
    package var selector: String { isGetter ? name : name + "(" + labels.map { $0 + ":" }.joined() + ")" }
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
    /// True for a read of a computed property the tree declares (`match.gameLobby`), which runs
    /// its getter: no parentheses, no arguments (`SwiftFileIndex.addPropertyReads`).
    package var isPropertyRead = false

    /// The callee's last name: `data` for `URLSession.shared.data`.
    package var name: Substring {
        // The text after the last dot, without splitting the whole path (rules ask this of every call).
        // By UTF-8 code unit: a dot is one byte, and this avoids grapheme breaking.
        guard let dot = callee.utf8.lastIndex(of: UInt8(ascii: ".")) else { return Substring(callee) }
        if callee.utf8.index(after: dot) < callee.endIndex { return callee[callee.utf8.index(after: dot)...] }
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
