import Foundation
import WidgetQuotaModel
import WidgetQuotaSwiftSource

/// `reload-before-write`: the app writes the store the widget reads before it asks for a reload.
///
/// For each `reloadAllTimelines()` / `reloadTimelines(ofKind:)` not in a `defer` (which runs
/// last), in the function or closure it runs in, a finding is
/// - a store write after it on its path (not in another branch of its `if`, `switch` or `do`,
///   nor after a `return` or `throw` that leaves its block): `set(_:forKey:)` or
///   `setValue(_:forKey:)` of a key the widget extension reads, on defaults other than
///   `.standard`; in a file that opens the App Group, `write(to:)`/`write(toFile:)`,
///   `createFile(atPath:…)` or a receiver's `save()`; or a call of a function of the tree that
///   does one of these (two calls deep);
/// - work started before it on its path and not awaited — a `Task { … }`, `Task.detached { … }`
///   or a dispatch queue's `async { … }` — that writes such a store: the reload runs while that
///   work is still going.
///
/// The widget then rebuilds its timeline from the old data, and the new data waits for its next
/// reload (the reload-budget notes: "Write the store before you ask for a reload").
package struct ReloadBeforeWriteRule: LintRule {
    package static let description = LintRuleDescription(
        .reloadBeforeWrite, title: "Write the store before asking for a reload", severity: .warning,
        rationale:
            "A reload asked for before the App Group store is written lets the widget rebuild from the old data; the new data waits for a reload the budget may not allow."
    )
    package init() {}

    /// Calls that start work and return before it is done.
    static let unstructured: Set<String> = ["Task", "Task.detached", "detached"]

    package func check(_ source: LintSource) -> [Finding] {
        let tree = source.tree
        let context = source.refresh
        let keys = Self.keysTheWidgetReads(tree)
        var findings = [Finding]()
        for (f, file) in tree.swiftFiles.enumerated() {
            let index = file.index
            // A file that opens the App Group: its file writes and saves may be the widget's store.
            let groupFile = Self.opensAppGroup(index)
            for reload in index.calls where SourceVocabulary.reloadCalls.contains(String(reload.name)) {
                // A deferred reload runs last.
                guard !index.isInside(block: reload.block, .deferBlock), let scope = Self.scope(index, reload.block) else { continue }
                let calls = context.calls(inFile: f, inside: scope).filter { Self.scope(index, $0.block) == scope }
                let what = "`\(reload.name)`"
                if let write = calls.first(where: {
                    $0.token > reload.token && Self.runsAfter(index, reload, $0)
                        && Self.writes(context, $0, inFile: f, keys: keys, groupFile: groupFile, depth: 0)
                }) {
                    findings.append(
                        finding(
                            file.path, reload.location,
                            "\(what) before the store is written (`\(write.name)(…)` at line \(write.location.line)): the widget may rebuild its "
                                + "timeline from the old data, and the new data waits for its next reload",
                            fix: "Write the App Group store first, then ask for the reload"))
                } else if let started = calls.last(where: {
                    $0.token < reload.token && (Self.unstructured.contains($0.callee) || Self.isQueueAsync($0))
                }),
                    // Started on the reload's path: in its block or one around it.
                    index.isBlock(reload.block, inside: started.block ?? scope),
                    !Self.exits(index, between: started.token, and: reload.token),
                    let closure = Self.closure(of: started, in: index),
                    !index.isBlock(reload.block, inside: closure),
                    !(index.blocks[closure].close..<reload.token).contains(where: { index.tokens[$0].isKeyword("await") }),
                    context.calls(inFile: f, inside: closure).contains(where: {
                        Self.writes(context, $0, inFile: f, keys: keys, groupFile: groupFile, depth: 0)
                    })
                {
                    findings.append(
                        finding(
                            file.path, reload.location,
                            "\(what) right after starting `\(started.callee) { … }` (line \(started.location.line)), which writes the store "
                                + "the widget reads: the reload runs before that work is done, so the widget rebuilds from the old data",
                            fix: "Ask for the reload at the end of that work, after the store is written"))
                }
            }
        }
        return findings
    }

    /// The innermost function body or closure around `block`.
    static func scope(_ index: SwiftFileIndex, _ block: Int?) -> Int? {
        var b = block
        while let k = b {
            let kind = index.blocks[k].kind
            if kind == .function || kind == .closure || kind == .accessor { return k }
            if kind == .typeBody { return nil }
            b = index.blocks[k].parent
        }
        return nil
    }

    /// `DispatchQueue.main.async { … }`, `queue.async { … }`.
    static func isQueueAsync(_ call: SwiftCall) -> Bool {
        (call.name == "async" || call.name == "asyncAfter") && call.callee.contains(".")
    }

    /// The closure a call starts: its trailing closure, or a closure argument.
    static func closure(of call: SwiftCall, in index: SwiftFileIndex) -> Int? {
        if let trailing = call.trailingClosure { return trailing }
        guard let argument = call.arguments.last, let first = argument.tokens.first, index.tokens[first].is("{") else { return nil }
        return index.innermostBlock(containing: first + 1)
    }

    /// True when `write` runs after `reload` has: not in another branch of the `if`, `switch`
    /// or `do` statement the reload is in.
    static func runsAfter(_ index: SwiftFileIndex, _ reload: SwiftCall, _ write: SwiftCall) -> Bool {
        if exits(index, between: reload.token, and: write.token) { return false }
        var c = reload.block
        while let k = c, !index.isBlock(write.block, inside: k) { c = index.blocks[k].parent }
        guard let common = c else { return false }
        var b = write.block
        while let k = b, k != common {
            if index.blocks[k].kind == .elseBranch || index.blocks[k].kind == .catchBlock { return false }
            b = index.blocks[k].parent
        }
        guard index.blocks[common].kind == .switchBody else { return true }
        // Another case of the same switch.
        return !(reload.token..<write.token).contains { j in
            (index.tokens[j].isKeyword("case") || index.tokens[j].isKeyword("default")) && index.innermostBlock(containing: j) == common
        }
    }

    /// True when a `return` or `throw` between the two tokens leaves the block the first is in
    /// (or one around it): what follows does not run after the first on that path.
    static func exits(_ index: SwiftFileIndex, between first: Int, and last: Int) -> Bool {
        let t = index.tokens
        let firstBlock = index.innermostBlock(containing: first)
        return (first + 1..<last).contains { k in
            guard t[k].isKeyword("return") || t[k].isKeyword("throw"), let block = index.innermostBlock(containing: k) else { return false }
            return index.isBlock(firstBlock, inside: block)
        }
    }

    /// True when the file opens an App Group (a suite or a group container) or names one.
    static func opensAppGroup(_ index: SwiftFileIndex) -> Bool {
        index.calls.contains { call in
            call.arguments.contains { $0.label == "suiteName" || $0.label == "forSecurityApplicationGroupIdentifier" }
        } || index.strings.contains { $0.value.hasPrefix("group.") }
    }

    /// Keys the widget extension reads from defaults (`string(forKey:)` and the other getters,
    /// `@AppStorage`), as written: in files not built into the app alone.
    static func keysTheWidgetReads(_ tree: AppSourceTree) -> Set<String> {
        var keys = Set<String>()
        for file in tree.swiftFiles where file.role != .app || file.targets.count > 1 {
            for call in file.index.calls where !["set", "setValue", "removeObject"].contains(String(call.name)) {
                if let key = call.arguments.first(where: { $0.label == "forKey" }) {
                    keys.insert(WidgetStandardDefaultsRule.key(file.index, key.tokens))
                }
            }
            for storage in WidgetStandardDefaultsRule.appStorages(file.index) { keys.insert(storage.key) }
        }
        return keys
    }

    /// True when `call` writes a store the widget reads, itself or through functions of the tree it runs.
    static func writes(
        _ context: RefreshRulesIndex, _ call: SwiftCall, inFile file: Int, keys: Set<String>, groupFile: Bool, depth: Int
    ) -> Bool {
        if isStoreWrite(call, context.index(file), keys: keys, groupFile: groupFile) { return true }
        guard depth < 2 else { return false }
        return context.functions(calledBy: call, inFile: file).contains { g, body, _ in
            let group = opensAppGroup(context.index(g))
            return context.calls(inFile: g, inside: body).contains {
                writes(context, $0, inFile: g, keys: keys, groupFile: group, depth: depth + 1)
            }
        }
    }

    /// A write the widget may read: a key of the widget's in shared defaults; a file written, or
    /// a persistent store saved, in a file that opens the App Group.
    static func isStoreWrite(_ call: SwiftCall, _ index: SwiftFileIndex, keys: Set<String>, groupFile: Bool) -> Bool {
        let labels = call.labels
        switch call.name {
        case "set", "setValue":
            guard let key = call.arguments.first(where: { $0.label == "forKey" }), !call.callee.contains("standard") else { return false }
            return keys.contains(WidgetStandardDefaultsRule.key(index, key.tokens))
        case "write":
            return groupFile && (labels.first == "to" || labels.first == "toFile")
        case "createFile":
            return groupFile && labels.first == "atPath"
        case "save":
            return groupFile && call.arguments.isEmpty && call.callee.contains(".")
        default:
            return false
        }
    }

    package func hasSomethingToCheck(_ source: LintSource) -> Bool {
        source.tree.swiftFiles.contains { file in file.index.calls.contains { SourceVocabulary.reloadCalls.contains(String($0.name)) } }
    }

    package var examples: [LintRuleExample] {
        let store = """
            import Foundation
            enum QuoteStore {
                static let defaults = UserDefaults(suiteName: "group.com.example.quotes")
                static func refresh() async {
                    guard let (data, _) = try? await URLSession.shared.data(from: URL(string: "https://api.example.com/quote")!) else { return }
                    save(data)
                }
                static func save(_ data: Data) {
                    defaults?.set(data, forKey: "quote")
                }
            }
            """
        let reader = """
            import WidgetKit
            struct Provider: TimelineProvider {
                func getTimeline(in context: Context, completion: @escaping (Timeline<QuoteEntry>) -> Void) {
                    let data = UserDefaults(suiteName: "group.com.example.quotes")?.data(forKey: "quote")
                    completion(Timeline(entries: [QuoteEntry(date: Date(), data: data)], policy: .never))
                }
            }
            """
        return [
            LintRuleExample(
                "a reload before the defaults are written, and one right after starting the task that refreshes",
                files: [
                    "App/QuoteStore.swift": store,
                    "Widget/Provider.swift": reader,
                    "App/Sync.swift": """
                    import WidgetKit
                    enum Sync {
                        static func store(_ data: Data) {
                            WidgetCenter.shared.↓reloadTimelines(ofKind: "Quote")
                            QuoteStore.save(data)
                        }
                        static func refresh() {
                            Task { await QuoteStore.refresh() }
                            WidgetCenter.shared.↓reloadAllTimelines()
                        }
                    }
                    """,
                ]),
            LintRuleExample(
                "a file written after the reload",
                files: [
                    "App/Sync.swift": """
                    import WidgetKit
                    enum Sync {
                        static let url = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: "group.com.example.quotes")!
                            .appendingPathComponent("quote.json")
                        static func store(_ data: Data) throws {
                            WidgetCenter.shared.↓reloadAllTimelines()
                            try data.write(to: url, options: .atomic)
                        }
                    }
                    """
                ]),
            LintRuleExample(
                "the store written first; the reload at the end of the task, deferred, or on a path that returns; a task awaited, in another branch, or sending analytics; a log file; bookkeeping the widget never reads; another case of a switch",
                files: [
                    "App/QuoteStore.swift": store,
                    "Widget/Provider.swift": reader,
                    "App/Sync.swift": """
                    import WidgetKit
                    enum Sync {
                        static func store(_ data: Data) {
                            QuoteStore.save(data)
                            WidgetCenter.shared.reloadTimelines(ofKind: "Quote")
                            UserDefaults.standard.set(Date(), forKey: "lastReload")
                            QuoteStore.defaults?.set(Date(), forKey: "reloadedAt")
                        }
                        static func apply(_ result: Result<Data, Error>) {
                            switch result {
                            case .success(let data):
                                QuoteStore.save(data)
                                WidgetCenter.shared.reloadAllTimelines()
                            case .failure:
                                QuoteStore.save(Data())
                            }
                        }
                        static func refresh() {
                            Task {
                                await QuoteStore.refresh()
                                WidgetCenter.shared.reloadAllTimelines()
                            }
                        }
                        static func storeDeferred(_ data: Data) {
                            defer { WidgetCenter.shared.reloadAllTimelines() }
                            QuoteStore.save(data)
                        }
                        static func storeUnlessEmpty(_ data: Data) {
                            guard !data.isEmpty else {
                                WidgetCenter.shared.reloadAllTimelines()
                                return
                            }
                            QuoteStore.save(data)
                        }
                        static func refreshIfStale(_ stale: Bool) {
                            if stale {
                                Task { await QuoteStore.refresh() }
                            } else {
                                WidgetCenter.shared.reloadAllTimelines()
                            }
                        }
                        static func logAndReload(_ log: URL) throws {
                            Task { _ = try? await URLSession.shared.data(from: URL(string: "https://api.example.com/analytics")!) }
                            WidgetCenter.shared.reloadAllTimelines()
                            try Data("reloaded".utf8).write(to: log)
                        }
                        static func refreshAndWait() async {
                            let work = Task { await QuoteStore.refresh() }
                            await work.value
                            WidgetCenter.shared.reloadAllTimelines()
                        }
                    }
                    """,
                ]),
        ]
    }
}
