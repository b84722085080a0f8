import Foundation
import WidgetQuotaModel
import WidgetQuotaSwiftSource

/// `timeline-no-completion`: every path of a widget's `getTimeline`/`getSnapshot` calls its
/// completion.
///
/// In the widget extension, a completion-handler `getTimeline(…completion:)` or
/// `getSnapshot(…completion:)` is read with the name its completion parameter has inside the
/// function; a call of a function declared in the body that calls it (`finish()`) is a use too.
/// In the function's body and in each closure inside it that uses the completion (calls it or
/// hands it on), unless a `defer` there calls it, a finding is
/// - a bare `return` with no use of the completion before it on its path (in its own block or
///   one around it, or in a closure passed along that path);
/// - a `catch` block that neither uses the completion nor throws, with no use before or after
///   the `do` statement on its path.
///
/// WidgetKit waits for the completion: until it comes the widget keeps its old timeline, and it
/// asks again only when the system gives up on the call. A path that falls off the end of the
/// function (an `if let` without `else`, a `switch` case that only logs) is not read.
package struct TimelineCompletionRule: LintRule {
    package static let description = LintRuleDescription(
        .timelineWithoutCompletion, title: "Every getTimeline path calls its completion", severity: .warning,
        rationale:
            "A getTimeline that returns without calling its completion leaves WidgetKit waiting: the widget keeps its old timeline, stale, and no reload is scheduled."
    )
    package init() {}

    /// The completion-handler provider methods.
    static let providerMethods: Set<String> = ["getTimeline", "getSnapshot"]

    package func check(_ source: LintSource) -> [Finding] {
        var findings = [Finding]()
        for file in source.tree.swiftFiles where file.role == .widgetExtension {
            let index = file.index
            for function in index.functions where Self.providerMethods.contains(function.name) {
                guard let body = function.body, let name = Self.completionName(index, function) else { continue }
                let uses = Self.uses(of: name, in: index, body: body)
                guard !uses.isEmpty else { continue }
                let what = "`\(function.name)`"
                for exit in Self.exitsWithoutCompletion(index, body: body, uses: uses) {
                    findings.append(
                        exit.isCatch
                            ? finding(
                                file.path, exit.location,
                                "a `catch` in \(what) that never calls `\(name)`: when the fetch fails, WidgetKit keeps waiting "
                                    + "and the widget keeps its old timeline, with no reload scheduled",
                                fix:
                                    "Call `\(name)` in the `catch` too: a timeline of the last good (or placeholder) entry, with `.after` a retry interval"
                            )
                            : finding(
                                file.path, exit.location,
                                "`return` in \(what) before `\(name)` is called: on this path WidgetKit keeps waiting and the "
                                    + "widget keeps its old timeline, with no reload scheduled",
                                fix:
                                    "Call `\(name)` before returning: a timeline of the last good (or placeholder) entry, with `.after` a retry interval"
                            ))
                }
            }
        }
        return findings
    }

    /// The name of `function`'s `completion` parameter inside its body (`completion`, or
    /// `handler` in `completion handler: …`); nil when it has none.
    static func completionName(_ index: SwiftFileIndex, _ function: SwiftFunction) -> String? {
        let names = BGTaskCompletionHandlers.parameterNames(index, function)
        guard names.count == function.labels.count, let k = function.labels.firstIndex(of: "completion") else { return nil }
        return names[k]
    }

    /// Tokens in `body` that use the completion: its name, not as a member of something else,
    /// and calls of the functions declared in `body` that use it (`finish()`).
    static func uses(of name: String, in index: SwiftFileIndex, body: Int) -> [Int] {
        let t = index.tokens
        let block = index.blocks[body]
        let range = block.open + 1..<min(block.close, t.count)
        func named(_ word: String) -> [Int] {
            range.filter { k in
                t[k].kind == .identifier && t[k].text == word && !(k > 0 && t[k - 1].is(".") && !(k > 1 && t[k - 2].text == "self"))
            }
        }
        var uses = named(name)
        for local in index.functions {
            guard let inner = local.body, inner != body, index.isBlock(inner, inside: body),
                uses.contains(where: { $0 > index.blocks[inner].open && $0 < index.blocks[inner].close })
            else { continue }
            uses += named(local.name).filter { k in k + 1 < t.count && t[k + 1].is("(") && !(k > 0 && t[k - 1].isKeyword("func")) }
        }
        return uses.sorted()
    }

    /// The scopes (function body or closure) where a `defer` uses the completion, with the
    /// token its `defer` opens at: every exit after it completes.
    static func deferredScopes(_ index: SwiftFileIndex, body: Int, uses: [Int]) -> [Int: Int] {
        var out = [Int: Int]()
        for use in uses {
            var b = index.innermostBlock(containing: use)
            while let k = b, index.blocks[k].kind != .closure, index.blocks[k].kind != .function {
                if index.blocks[k].kind == .deferBlock, let scope = responsibleScope(index, k, body: body, uses: uses) {
                    out[scope] = min(out[scope] ?? .max, index.blocks[k].open)
                }
                b = index.blocks[k].parent
            }
        }
        return out
    }

    /// A path that ends without the completion: a bare `return` or a `catch` block.
    struct Exit {
        var location: SourceLocation
        var isCatch: Bool
    }

    static func exitsWithoutCompletion(_ index: SwiftFileIndex, body: Int, uses: [Int]) -> [Exit] {
        let t = index.tokens
        var exits = [Exit]()
        let close = index.blocks[body].close
        let deferred = deferredScopes(index, body: body, uses: uses)
        func completesOnExit(_ scope: Int, _ token: Int) -> Bool { deferred[scope].map { $0 < token } ?? false }
        // Bare returns.
        for ret in index.returns where ret.token > index.blocks[body].open && ret.token < close {
            let next = ret.token + 1
            let bare = next >= t.count || t[next].is("}") || t[next].is(";") || t[next].location.line > ret.location.line
            guard bare, let block = ret.block, let scope = responsibleScope(index, block, body: body, uses: uses),
                !completesOnExit(scope, ret.token),
                !uses.contains(where: { $0 < ret.token && $0 > index.blocks[scope].open && reaches(index, $0, block) })
            else { continue }
            exits.append(Exit(location: ret.location, isCatch: false))
        }
        // Catch blocks that neither complete nor throw, with nothing before or after the `do` that completes.
        var k = body + 1
        while k < index.blocks.count && index.blocks[k].open < close {
            defer { k += 1 }
            let catchBlock = index.blocks[k]
            guard catchBlock.kind == .catchBlock, let parent = catchBlock.parent,
                let scope = responsibleScope(index, k, body: body, uses: uses), !completesOnExit(scope, catchBlock.open),
                !uses.contains(where: { $0 > catchBlock.open && $0 < catchBlock.close }),
                !(catchBlock.open..<catchBlock.close).contains(where: { j in
                    t[j].isKeyword("throw") || t[j].isKeyword("return") || ["fatalError", "preconditionFailure"].contains(t[j].text)
                }),
                // A use before the `do` or after it, on the catch's path.
                !uses.contains(where: { u in
                    (u < catchBlock.open || u > catchBlock.close) && u > index.blocks[scope].open && u < index.blocks[scope].close
                        && reaches(index, u, parent)
                })
            else { continue }
            exits.append(Exit(location: catchKeyword(index, catchBlock) ?? catchBlock.location, isCatch: true))
        }
        return exits.sorted { $0.location < $1.location }
    }

    /// The function body or closure that `block` runs in, when it is `body` or a closure inside
    /// it (not a nested function) that uses the completion; nil otherwise.
    static func responsibleScope(_ index: SwiftFileIndex, _ block: Int, body: Int, uses: [Int]) -> Int? {
        var b: Int? = block
        while let k = b {
            if k == body { return body }
            let kind = index.blocks[k].kind
            if kind == .function || kind == .typeBody || k < body { return nil }
            if kind == .closure {
                let blk = index.blocks[k]
                return uses.contains(where: { $0 > blk.open && $0 < blk.close }) ? k : nil
            }
            b = index.blocks[k].parent
        }
        return nil
    }

    /// True when the use at token `use` runs on the way to `target`: its block is `target` or
    /// one around it, or it sits in closures handed along such a block.
    static func reaches(_ index: SwiftFileIndex, _ use: Int, _ target: Int) -> Bool {
        var b = index.innermostBlock(containing: use)
        while let k = b {
            if index.isBlock(target, inside: k) { return true }
            guard index.blocks[k].kind == .closure else { return false }
            b = index.blocks[k].parent
        }
        return false
    }

    /// The `catch` keyword before a catch block's brace.
    static func catchKeyword(_ index: SwiftFileIndex, _ block: SwiftBlock) -> SourceLocation? {
        var j = block.open - 1
        while j >= 0 && j > block.open - 24 {
            if index.tokens[j].isKeyword("catch") { return index.tokens[j].location }
            j -= 1
        }
        return nil
    }

    package func hasSomethingToCheck(_ source: LintSource) -> Bool {
        source.tree.swiftFiles.contains { file in
            file.role == .widgetExtension && file.index.functions.contains { Self.providerMethods.contains($0.name) }
        }
    }

    package var examples: [LintRuleExample] {
        let provider = { (timeline: String) in
            """
            import WidgetKit
            struct QuoteEntry: TimelineEntry { let date: Date; let price: Double }
            struct Provider: TimelineProvider {
                func placeholder(in context: Context) -> QuoteEntry { QuoteEntry(date: Date(), price: 0) }
                func getSnapshot(in context: Context, completion: @escaping (QuoteEntry) -> Void) {
                    completion(placeholder(in: context))
                }
            \(timeline)
            }
            """
        }
        return [
            LintRuleExample(
                "a guard that returns before the request, and one in its callback",
                files: [
                    "Widget/Provider.swift": provider(
                        """
                            func getTimeline(in context: Context, completion: @escaping (Timeline<QuoteEntry>) -> Void) {
                                guard let url = URL(string: "https://api.example.com/quote") else { ↓return }
                                URLSession.shared.dataTask(with: url) { data, _, _ in
                                    guard let data, let price = Double(String(decoding: data, as: UTF8.self)) else { ↓return }
                                    completion(Timeline(entries: [QuoteEntry(date: Date(), price: price)], policy: .after(Date().addingTimeInterval(3600))))
                                }.resume()
                            }
                        """)
                ]),
            LintRuleExample(
                "a catch that only logs, with the completion named differently inside",
                files: [
                    "Widget/Provider.swift": provider(
                        """
                            func getTimeline(in context: Context, completion handler: @escaping (Timeline<QuoteEntry>) -> Void) {
                                Task {
                                    do {
                                        let (data, _) = try await URLSession.shared.data(from: URL(string: "https://api.example.com/quote")!)
                                        let price = Double(String(decoding: data, as: UTF8.self)) ?? 0
                                        handler(Timeline(entries: [QuoteEntry(date: Date(), price: price)], policy: .atEnd))
                                    } ↓catch {
                                        print("quote failed: \\(error)")
                                    }
                                }
                            }
                        """)
                ]),
            LintRuleExample(
                "every path completes: a fallback timeline before each return and in the catch; a closure that returns a value",
                files: [
                    "Widget/Provider.swift": provider(
                        """
                            func getTimeline(in context: Context, completion: @escaping (Timeline<QuoteEntry>) -> Void) {
                                let retry = Timeline(entries: [placeholder(in: context)], policy: .after(Date().addingTimeInterval(900)))
                                guard let url = URL(string: "https://api.example.com/quote") else {
                                    completion(retry)
                                    return
                                }
                                Task {
                                    do {
                                        let (data, _) = try await URLSession.shared.data(from: url)
                                        let prices = String(decoding: data, as: UTF8.self).split(separator: ",").compactMap { part -> Double? in
                                            guard !part.isEmpty else { return nil }
                                            return Double(part)
                                        }
                                        guard let price = prices.first else { return completion(retry) }
                                        completion(Timeline(entries: [QuoteEntry(date: Date(), price: price)], policy: .atEnd))
                                    } catch {
                                        completion(retry)
                                    }
                                }
                            }
                        """)
                ]),
            LintRuleExample(
                "a defer that completes, a completion before a refresh whose catch logs, a local function that completes",
                files: [
                    "Widget/Provider.swift": provider(
                        """
                            func getTimeline(in context: Context, completion: @escaping (Timeline<QuoteEntry>) -> Void) {
                                var entries = [placeholder(in: context)]
                                defer { completion(Timeline(entries: entries, policy: .after(Date().addingTimeInterval(900)))) }
                                guard let text = UserDefaults(suiteName: "group.quotes")?.string(forKey: "price") else { return }
                                do {
                                    entries = [QuoteEntry(date: Date(), price: try Self.parse(text))]
                                } catch {
                                    print("bad price: \\(error)")
                                }
                            }
                            func getTimelineWithRefresh(in context: Context, completion: @escaping (Timeline<QuoteEntry>) -> Void) {
                                func finish(_ price: Double) {
                                    completion(Timeline(entries: [QuoteEntry(date: Date(), price: price)], policy: .atEnd))
                                }
                                guard let cached = UserDefaults(suiteName: "group.quotes")?.double(forKey: "price") else {
                                    finish(0)
                                    return
                                }
                                Task {
                                    finish(cached)
                                    do {
                                        try await QuoteStore.refresh()
                                    } catch {
                                        print("refresh failed: \\(error)")
                                    }
                                }
                            }
                            static func parse(_ text: String) throws -> Double { Double(text) ?? 0 }
                        """)
                ]),
            LintRuleExample(
                "a completion handed on to a loader, after which the function returns",
                files: [
                    "Widget/Provider.swift": provider(
                        """
                            func getTimeline(in context: Context, completion: @escaping (Timeline<QuoteEntry>) -> Void) {
                                if context.isPreview {
                                    completion(Timeline(entries: [placeholder(in: context)], policy: .never))
                                    return
                                }
                                QuoteLoader.load(completion: completion)
                                return
                            }
                        """)
                ]),
        ]
    }
}
