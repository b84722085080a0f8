import Foundation
import WidgetQuotaModel
import WidgetQuotaSwiftSource

/// `retry-loop`: no retry loop around a request in a background task or a timeline reload.
///
/// The code one refresh runs is a background task's handler (as `bgtask-completion` follows it)
/// and a provider's `getTimeline(in:completion:)` / `timeline(for:in:)`, with the functions they
/// call (as `CallGraph` resolves them), three calls deep. A loop there whose body holds a request
/// (`CallGraph`) is a finding at its keyword when it is a `while` or `repeat`
/// loop, or a `for` loop over a range (`0..<3`, `1...n`) or whose variable names an attempt or a
/// retry. The message says how many requests one refresh can make: the loop's bound (constant
/// arithmetic; for `while`/`repeat`, the right side of a `<`/`<=` in the condition) times the
/// requests in its body.
///
/// A `while`/`repeat` loop whose condition follows a page cursor (`continuation`, `cursor`,
/// `nextPage`, `pageToken`, `hasMore`) pages through results and is not a retry.
///
/// A function of those that sends a request and calls itself again with a counter argument
/// (`fetch(retries: retries - 1)`), from a `catch` block with no condition between them, or from a closure it schedules
/// (`asyncAfter`) is a retry too: a finding at that call.
///
/// Blind spots: a retry inside a helper library, a `for` over a collection
/// of URLs (several requests, but not a retry), a loop bound held in a `var`.
package struct RetryLoopRule: LintRule {
    package static let description = LintRuleDescription(
        .retryLoop, title: "No retry loop inside a background task or getTimeline", severity: .warning,
        rationale: "During an outage every device retries at once: one refresh becomes several requests exactly when the API is struggling."
    )
    package init() {}

    package func check(_ source: LintSource) -> [Finding] {
        let tree = source.tree
        let context = source.refresh
        typealias Region = BGTaskCompletionHandlers.Region
        var roots = [(regions: [Region], per: String, whereText: String)]()
        for handler in BGTaskCompletionHandlers.handlers(context) {
            roots.append((handler.regions, "background refresh", "the \(handler.identifier) background task"))
        }
        for (f, file) in tree.swiftFiles.enumerated() {
            for function in file.index.functions
            where function.selector == "getTimeline(in:completion:)" || function.selector == "timeline(for:in:)" {
                if let body = function.body { roots.append(([Region(file: f, block: body)], "timeline reload", "`\(function.name)`")) }
            }
        }
        var findings = [Finding]()
        var seen = Set<String>()
        for root in roots {
            var regions = root.regions
            var k = 0
            var depth = [Int](repeating: 0, count: regions.count)
            while k < regions.count && regions.count < 64 {
                let r = regions[k]
                let d = depth[k]
                k += 1
                guard d < 3 else { continue }
                for c in context.calls(inFile: r.file, inside: r.block) {
                    for (g, body, _) in context.functions(calledBy: c, inFile: r.file)
                    where !regions.contains(Region(file: g, block: body)) {
                        regions.append(Region(file: g, block: body))
                        depth.append(d + 1)
                    }
                }
            }
            for r in regions {
                let file = tree.swiftFiles[r.file]
                let index = file.index
                // A function that requests and calls itself again to retry.
                for call in Self.retryingRecursion(context, r) where seen.insert("\(r.file):call:\(call.token)").inserted {
                    let bound = Self.recursionBound(index, call)
                    let count =
                        bound.map { "up to \(PolicyShorterThanTTLRule.count($0 + 1)) attempts, each a request," }
                        ?? "attempts without a bound the code states, each a request,"
                    findings.append(
                        finding(
                            file.path, call.location,
                            "a retry by recursion (`\(call.callee)(…)` calls its own function again) around a request in \(root.whereText): "
                                + "\(count) per \(root.per), on every device at once during an outage",
                            fix:
                                "Make one attempt per refresh and let the next scheduled refresh retry (or retry once, with a short timeout)"
                        ))
                }
                for b in context.loops(inFile: r.file, inside: r.block) {
                    let requests = context.calls(inFile: r.file, inside: b).filter { context.isRequest($0, inFile: r.file) }
                    guard !requests.isEmpty, let loop = Self.loop(index, b), Self.isRetry(index, loop),
                        seen.insert("\(r.file):\(b)").inserted
                    else { continue }
                    let bound = Self.bound(tree, r.file, loop)
                    let count =
                        bound.map { "up to \(PolicyShorterThanTTLRule.count($0 * Double(requests.count))) requests" }
                        ?? "an unbounded number of requests"
                    findings.append(
                        finding(
                            file.path, index.tokens[loop.keyword].location,
                            "a retry loop around a request in \(root.whereText): \(count) per \(root.per), on every device at once during an outage",
                            fix:
                                "Make one attempt per refresh and let the next scheduled refresh retry (or retry once, with a short timeout)"
                        ))
                }
            }
        }
        return findings
    }

    /// Calls in region `r` (a function's body that sends a request) that run that same function
    /// again as a retry: with a counter argument (`retries - 1`, `attempt + 1`), or from a `catch`
    /// block, or from a closure scheduled for later (`asyncAfter`, `Timer.scheduledTimer`).
    static func retryingRecursion(_ context: RefreshRulesIndex, _ r: BGTaskCompletionHandlers.Region) -> [SwiftCall] {
        let index = context.tree.swiftFiles[r.file].index
        let calls = context.calls(inFile: r.file, inside: r.block)
        guard calls.contains(where: { context.isRequest($0, inFile: r.file) }) else { return [] }
        return calls.filter { call in
            guard context.functions(calledBy: call, inFile: r.file).contains(where: { $0.file == r.file && $0.body == r.block }) else {
                return false
            }
            return counterArgument(index, call) != nil || retriesAnyError(index, call)
                || ["asyncAfter", "scheduledTimer"].contains { index.isInsideClosure(of: call, passedTo: $0) }
        }
    }

    /// True when `call` is in a `catch` block with no condition between them: a retry on any
    /// error (a retry only after renewing credentials, under an `if`, is not one an outage makes).
    static func retriesAnyError(_ index: SwiftFileIndex, _ call: SwiftCall) -> Bool {
        var b = call.block
        while let k = b {
            switch index.blocks[k].kind {
            case .catchBlock: return true
            case .ifBranch, .elseBranch, .guardElse, .switchBody, .function: return false
            default: b = index.blocks[k].parent
            }
        }
        return false
    }

    /// The argument of a recursive call that counts attempts: a name that reads as a counter,
    /// minus or plus a number (`retries - 1`); its name.
    static func counterArgument(_ index: SwiftFileIndex, _ call: SwiftCall) -> (name: String, countsDown: Bool)? {
        let t = index.tokens
        for argument in call.arguments {
            let r = Array(argument.tokens)
            guard r.count == 3, t[r[0]].kind == .identifier, t[r[1]].kind == .operator, t[r[1]].text == "-" || t[r[1]].text == "+",
                t[r[2]].kind == .number
            else { continue }
            let name = t[r[0]].text.lowercased()
            if ["retr", "attempt", "tries", "remaining", "count", "left"].contains(where: name.contains) {
                return (t[r[0]].text, t[r[1]].text == "-")
            }
        }
        return nil
    }

    /// A counting-down recursion's bound: the default value of its counter parameter
    /// (`retries: Int = 3`), when the call decreases that counter (one counting up has none).
    static func recursionBound(_ index: SwiftFileIndex, _ call: SwiftCall) -> Double? {
        guard let counter = counterArgument(index, call), counter.countsDown, let function = index.enclosingFunction(of: call),
            let body = function.body
        else { return nil }
        let t = index.tokens
        // `counter: Int = 3` between the function's name and its body.
        var k = index.blocks[body].open - 1
        while k > 4 && !t[k].isKeyword("func") && !t[k].isKeyword("init") && !t[k].is("{") && !t[k].is("}") {
            if t[k].kind == .number, t[k - 1].is("="), t[k - 3].is(":"), t[k - 4].text == counter.name { return Double(t[k].text) }
            k -= 1
        }
        return nil
    }

    /// A loop's keyword token and its header (the tokens of its condition or sequence).
    struct Loop {
        var kind: SwiftBlockKind
        var keyword: Int
        var header: Range<Int>
    }

    static func loop(_ index: SwiftFileIndex, _ b: Int) -> Loop? {
        let t = index.tokens
        let block = index.blocks[b]
        if block.kind == .repeatLoop {
            guard block.open > 0, t[block.open - 1].isKeyword("repeat") else { return nil }
            var end = block.close + 2
            if block.close + 1 < t.count, t[block.close + 1].isKeyword("while") {
                while end < t.count && !t[end].startsLine && !t[end].is("}") { end += 1 }
                return Loop(kind: .repeatLoop, keyword: block.open - 1, header: (block.close + 2)..<min(end, t.count))
            }
            return Loop(kind: .repeatLoop, keyword: block.open - 1, header: block.close..<block.close)
        }
        var depth = 0
        var k = block.open - 1
        while k >= 0 && k > block.open - 200 {
            let s = t[k]
            if s.is(")") || s.is("]") || s.is("}") { depth += 1 }
            if s.is("(") || s.is("[") || s.is("{") { depth -= 1 }
            if depth == 0 && (s.isKeyword("for") || s.isKeyword("while")) {
                return Loop(kind: block.kind, keyword: k, header: (k + 1)..<block.open)
            }
            if depth < 0 { return nil }
            k -= 1
        }
        return nil
    }

    /// `while` and `repeat` loops retry; a `for` loop does over a range or an attempt counter.
    static func isRetry(_ index: SwiftFileIndex, _ loop: Loop) -> Bool {
        let t = index.tokens
        guard loop.kind == .forLoop else {
            // A `while`/`repeat` loop that follows a page cursor pages through results.
            return !loop.header.contains { k in
                t[k].kind == .identifier && pageWords.contains { t[k].text.lowercased().contains($0) }
            }
        }
        if loop.header.contains(where: { t[$0].kind == .operator && (t[$0].text == "..<" || t[$0].text == "...") }) { return true }
        let variable = loop.header.first.map { t[$0].text.lowercased() } ?? ""
        return ["attempt", "retry", "retries", "try"].contains { variable.contains($0) }
    }

    /// Words of a pagination loop's condition (`while continuation != nil`, `repeat … while hasMore`).
    static let pageWords = ["continuation", "cursor", "nextpage", "pagetoken", "hasmore", "morepages", "nextlink", "nexturl"]

    /// How many times the loop can run, when its bound is constant.
    static func bound(_ tree: AppSourceTree, _ file: Int, _ loop: Loop) -> Double? {
        let index = tree.swiftFiles[file].index
        let t = index.tokens
        let arithmetic = PolicyTTLArithmetic(tree: tree, file: file)
        let h = loop.header
        if loop.kind == .forLoop {
            guard let op = h.first(where: { t[$0].kind == .operator && (t[$0].text == "..<" || t[$0].text == "...") }),
                let inToken = h.first(where: { t[$0].isKeyword("in") }), inToken < op,
                let low = arithmetic.value((inToken + 1)..<op), let high = arithmetic.value((op + 1)..<h.upperBound)
            else { return nil }
            return max(0, high - low + (t[op].text == "..." ? 1 : 0))
        }
        guard let op = h.first(where: { t[$0].kind == .operator && (t[$0].text == "<" || t[$0].text == "<=") }) else { return nil }
        var end = op + 1
        while end < h.upperBound && !t[end].is(",") && !(t[end].kind == .operator && (t[end].text == "&&" || t[end].text == "||")) {
            end += 1
        }
        guard let n = arithmetic.value((op + 1)..<end) else { return nil }
        return t[op].text == "<=" ? n + 1 : n
    }

    /// A widget whose `getTimeline` runs `load()`, whose body is `body` (indented as in a file).
    static func provider(loading body: String) -> String {
        """
        import WidgetKit
        struct Provider: TimelineProvider {
            func getTimeline(in context: Context, completion: @escaping (Timeline<Entry>) -> Void) {
                Task { completion(Timeline(entries: [await load()], policy: .never)) }
            }
            func load() async -> Entry {
        \(body)
            }
        }
        """
    }

    package var examples: [LintRuleExample] {
        [
            LintRuleExample(
                "a retry by recursion with a counter, and one rescheduled from a catch; a recursion over pages is no retry",
                files: [
                    "Widget/Provider.swift": Self.provider(
                        loading: """
                                    let text = (try? await fetch()) ?? ""
                                    let more = await fetchLater()
                                    let all = await pages(from: 1)
                                    return Entry(date: .now, text: text + more + all)
                                }
                                func fetch(retries: Int = 3) async throws -> String {
                                    do {
                                        return String(decoding: try await URLSession.shared.data(from: URL(string: "https://api.example.com/q")!).0, as: UTF8.self)
                                    } catch where retries > 0 {
                                        return try await ↓fetch(retries: retries - 1)
                                    }
                                }
                                func fetchLater() async -> String {
                                    do {
                                        return String(decoding: try await URLSession.shared.data(from: URL(string: "https://api.example.com/r")!).0, as: UTF8.self)
                                    } catch {
                                        return await ↓fetchLater()
                                    }
                                }
                                func pages(from page: Int) async -> String {
                                    guard let (data, _) = try? await URLSession.shared.data(from: URL(string: "https://api.example.com/p?\\(page)")!),
                                        !data.isEmpty, page < 5 else { return "" }
                                    return String(decoding: data, as: UTF8.self) + (await pages(from: page + 1))
                            """)
                ]),
            LintRuleExample(
                "a for-attempt loop in a background task handler's function",
                files: [
                    "App/App.swift": """
                    import BackgroundTasks
                    enum Refresh {
                        static let attempts = 3
                        static func register() {
                            BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refresh", using: nil) { task in
                                Refresh.handle(task as! BGAppRefreshTask)
                            }
                        }
                        static func handle(_ task: BGAppRefreshTask) {
                            Task {
                                ↓for attempt in 0..<attempts {
                                    if (try? await URLSession.shared.data(from: URL(string: "https://api.example.com")!)) != nil { break }
                                    print(attempt)
                                }
                                task.setTaskCompleted(success: true)
                            }
                        }
                    }
                    """
                ]),
            LintRuleExample(
                "a while loop with a retry counter in a function getTimeline calls",
                files: [
                    "Widget/Provider.swift": Self.provider(
                        loading: """
                                    var retries = 0
                                    ↓while retries <= 4 {
                                        if let data = try? await URLSession.shared.data(from: URL(string: "https://api.example.com")!).0 { return Entry(data) }
                                        retries += 1
                                    }
                                    return Entry(nil)
                            """)
                ]),
            LintRuleExample(
                "a loop that pages through results with a continuation token is not a retry",
                files: [
                    "Widget/Provider.swift": Self.provider(
                        loading: """
                                    var continuation: String? = nil
                                    var pages = 0
                                    repeat {
                                        let url = URL(string: "https://api.example.com/stream?c=\\(continuation ?? "")")!
                                        continuation = (try? await URLSession.shared.data(from: url)).map { _ in nil } ?? nil
                                        pages += 1
                                    } while continuation != nil && pages < 40
                                    return Entry(nil)
                            """)
                ]),
            LintRuleExample(
                "one attempt per refresh, and a loop over cached items that makes no request",
                files: [
                    "App/App.swift": """
                    import BackgroundTasks
                    enum Refresh {
                        static func register() {
                            BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refresh", using: nil) { task in
                                Task {
                                    let ok = (try? await URLSession.shared.data(from: URL(string: "https://api.example.com")!)) != nil
                                    for k in 0..<3 { print(k) }
                                    task.setTaskCompleted(success: ok)
                                }
                            }
                        }
                    }
                    """
                ]),
            LintRuleExample(
                "a retry loop in a function no refresh runs, and one in a comment",
                files: [
                    "App/Settings.swift": """
                    import Foundation
                    struct Settings {
                        // for attempt in 0..<3 { try await URLSession.shared.data(from: url) } in getTimeline
                        func testConnection() async {
                            for attempt in 0..<3 {
                                if (try? await URLSession.shared.data(from: URL(string: "https://api.example.com")!)) != nil { return }
                                print(attempt)
                            }
                        }
                    }
                    """
                ]),
        ]
    }
}

extension RetryLoopRule {
    /// Something to check: a request sent.
    package func hasSomethingToCheck(_ source: LintSource) -> Bool {
        source.graph.direct.contains { $0.contains(true) }
    }
}
