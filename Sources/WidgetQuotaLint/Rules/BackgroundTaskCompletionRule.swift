import Foundation
import WidgetQuotaModel
import WidgetQuotaSwiftSource

/// `bgtask-completion`: each background task handler sets `expirationHandler` and calls
/// `setTaskCompleted(success:)` on every path.
///
/// A handler is what `BGTaskScheduler.shared.register(forTaskWithIdentifier:using:launchHandler:)`
/// runs: its trailing closure (or `launchHandler:` closure or function name), followed into the
/// functions it hands the task to (`Self.handle(task as! BGAppRefreshTask)`, three levels deep).
/// No `….expirationHandler =` anywhere on that path is a finding at the `register` call; no
/// `setTaskCompleted` at all is another. A `return` on the path (in the handler, its functions,
/// or a `Task { … }` they start; not in other closures) with no `setTaskCompleted` before it in
/// its block or the blocks around it, and no `defer` that completes the task, is a finding at the
/// `return`.
///
/// Blind spots: a path that falls off the end of a branch without completing (only `return`s are
/// followed), the task handed over through a property, completion in a callback of another type.
package struct BackgroundTaskCompletionRule: LintRule {
    package static let description = LintRuleDescription(
        .backgroundTaskCompletion, title: "Background tasks expire and complete on every path", severity: .warning,
        rationale: "A task that never completes, or has no expiration handler, is throttled by iOS and runs less and less.")
    package init() {}

    package func check(_ source: LintSource) -> [Finding] {
        let tree = source.tree
        let context = source.refresh
        let expirations = tree.swiftFiles.map { $0.index.assignments.filter { $0.target.hasSuffix("expirationHandler") } }
        var findings = [Finding]()
        for handler in BGTaskCompletionHandlers.handlers(context) {
            let path = tree.swiftFiles[handler.file].path
            let regions = handler.regions
            func indexOf(_ r: BGTaskCompletionHandlers.Region) -> SwiftFileIndex { tree.swiftFiles[r.file].index }
            let setsExpiration = regions.contains { r in
                expirations[r.file].contains { indexOf(r).isBlock($0.block, inside: r.block) }
            }
            // Where each region completes the task: `setTaskCompleted`, or a call of the callback
            // that wraps it (`completion(…)`, `completion?(…)`), as token and block.
            let completions = regions.indices.map { r -> [(token: Int, block: Int?)] in
                let index = indexOf(regions[r])
                var done = context.calls(inFile: regions[r].file, inside: regions[r].block).filter { $0.name == "setTaskCompleted" }
                    .map { (token: $0.token, block: $0.block) }
                if let callback = handler.callbacks[r] {
                    let t = index.tokens
                    let block = index.blocks[regions[r].block]
                    for k in block.open..<max(block.open, min(block.close, t.count - 2))
                    where t[k].text == callback && !(k > 0 && t[k - 1].is("."))
                        && (t[k + 1].is("(") || (t[k + 1].is("?") && t[k + 2].is("(")))
                    {
                        done.append((k, index.innermostBlock(containing: k)))
                    }
                }
                return done
            }
            if !setsExpiration {
                findings.append(
                    finding(
                        path, handler.register.location,
                        "the handler of \(handler.identifier) sets no `expirationHandler`: iOS ends the task without the app knowing",
                        fix: "Set `task.expirationHandler` to cancel the work and call `task.setTaskCompleted(success: false)`"))
            }
            if completions.allSatisfy({ $0.isEmpty }) {
                findings.append(
                    finding(
                        path, handler.register.location,
                        "the handler of \(handler.identifier) never calls `setTaskCompleted(success:)`",
                        fix: "Call `task.setTaskCompleted(success:)` when the work ends, on success and on failure"))
                continue
            }
            for (r, region) in regions.enumerated() {
                let index = indexOf(region)
                let done = completions[r]
                if done.contains(where: { index.isInside(block: $0.block, .deferBlock) }) { continue }
                let open = index.blocks[region.block].open
                let close = index.blocks[region.block].close
                for ret in index.returns
                where ret.token > open && ret.token < close && BGTaskCompletionHandlers.isOnPath(ret.block, of: region.block, in: index) {
                    let completedBefore = done.contains { c in
                        c.token < ret.token && (c.block.map { index.isBlock(ret.block, inside: $0) } ?? false)
                    }
                    if !completedBefore {
                        findings.append(
                            finding(
                                tree.swiftFiles[region.file].path, ret.location,
                                "this path of the \(handler.identifier) handler returns without `setTaskCompleted(success:)`",
                                fix: "Call `task.setTaskCompleted(success:)` before returning (or once, in a `defer`)"))
                    }
                }
            }
        }
        return findings
    }

    package var examples: [LintRuleExample] {
        /// The app's refresh task, whose handler runs `handler`; `flagged` marks the `register` call as
        /// where a finding must be.
        func app(_ handler: String, extra: String = "", flagged: Bool = false) -> [String: String] {
            [
                "App/App.swift": """
                import BackgroundTasks
                enum Refresh {
                    static func register() {
                        BGTaskScheduler.shared.\(flagged ? "↓" : "")register(forTaskWithIdentifier: "com.example.refresh", using: nil) { task in
                            Refresh.handle(task as! BGAppRefreshTask)
                        }
                    }

                    static func handle(_ task: BGAppRefreshTask) {
                \(handler)
                    }
                \(extra)
                }
                """
            ]
        }
        return [
            LintRuleExample(
                "a handler with a capture list hands the task to a helper that sets the expiration handler; a forwarding wrapper",
                files: [
                    "App/Fetcher.swift": """
                    import BackgroundTasks
                    protocol BGTaskScheduling {
                        func register(forTaskWithIdentifier identifier: String, launchHandler: @escaping (BGTask) -> Void) -> Bool
                    }
                    extension BGTaskScheduler: BGTaskScheduling {
                        func register(forTaskWithIdentifier identifier: String, launchHandler: @escaping (BGTask) -> Void) -> Bool {
                            register(forTaskWithIdentifier: identifier, using: nil, launchHandler: launchHandler)
                        }
                    }
                    final class Fetcher {
                        func registerHandler() {
                            BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refresh", using: nil) { [weak self] task in
                                guard let self else {
                                    task.setTaskCompleted(success: false)
                                    return
                                }
                                handle(task: task)
                            }
                        }
                        func handle(task: BGTask) {
                            let work = Task { task.setTaskCompleted(success: true) }
                            task.expirationHandler = { work.cancel() }
                        }
                    }
                    """
                ]),
            LintRuleExample(
                "the task cast in a guard and handed on; completed through a completion handler that wraps setTaskCompleted",
                files: [
                    "App/Sync.swift": """
                    import BackgroundTasks
                    final class Sync {
                        func registerTask() {
                            BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.sync", using: nil) { [weak self] task in
                                guard let refreshTask = task as? BGAppRefreshTask else {
                                    task.setTaskCompleted(success: false)
                                    return
                                }
                                self?.handle(refreshTask)
                            }
                        }
                        private func handle(_ task: BGAppRefreshTask) {
                            task.expirationHandler = { task.setTaskCompleted(success: false) }
                            refresh(completion: { ok in task.setTaskCompleted(success: ok) })
                        }
                        private func refresh(completion: ((Bool) -> Void)?) {
                            load { data in self.store(data, completion: completion) }
                        }
                        private func store(_ data: Data?, completion: ((Bool) -> Void)?) {
                            guard let data else {
                                completion?(false)
                                return
                            }
                            print(data.count)
                            completion?(true)
                        }
                        private func load(_ done: @escaping (Data?) -> Void) { done(nil) }
                    }
                    """
                ]),
            LintRuleExample(
                "no expirationHandler, and a guard that returns without completing",
                files: app(
                    """
                            guard Cache().isStale else { ↓return }
                            Task {
                                try? await Fetcher().fetch()
                                task.setTaskCompleted(success: true)
                            }
                    """, flagged: true)),
            LintRuleExample(
                "a trailing-closure handler that never completes the task",
                files: app(
                    """
                            task.expirationHandler = { print("expired") }
                            Task { try? await Fetcher().fetch() }
                    """, flagged: true)),
            LintRuleExample(
                "expiration handled, completed on success, failure and an early return",
                files: app(
                    """
                            let work = Task {
                                guard Cache().isStale else {
                                    task.setTaskCompleted(success: true)
                                    return
                                }
                                do {
                                    try await Fetcher().fetch()
                                    task.setTaskCompleted(success: true)
                                } catch {
                                    task.setTaskCompleted(success: false)
                                }
                            }
                            task.expirationHandler = {
                                work.cancel()
                                task.setTaskCompleted(success: false)
                            }
                    """)),
            LintRuleExample(
                "a defer completes every path; returns in unrelated closures do not count",
                files: app(
                    """
                            task.expirationHandler = { task.setTaskCompleted(success: false) }
                            defer { task.setTaskCompleted(success: true) }
                            let names = ["a"].map { name -> String in return name }
                            guard !names.isEmpty else { return }
                            // task.setTaskCompleted is called by the defer; `return` here is prose
                    """)),
        ]
    }
}

/// Background task handlers, as `bgtask-completion` and `retry-loop` follow them.
enum BGTaskCompletionHandlers {
    /// Code a handler runs: a block of a file (the launch closure, or a function body).
    struct Region: Equatable {
        var file: Int
        var block: Int
    }

    struct Handler {
        /// The file of the `register` call.
        var file: Int
        var register: SwiftCall
        /// The identifier: its value in backquotes where a literal or a constant gives it
        /// (`` `com.example.refresh` ``), else as written (`QuoteRefresh.identifier`).
        var identifier: String
        /// The launch closure first, then the functions the task is handed to.
        var regions: [Region]
        /// For each region, the name whose call completes the task there: a completion handler
        /// the task's `setTaskCompleted` was wrapped in (`refresh(completion: { r in
        /// task.setTaskCompleted(success: r) })`), or nil.
        var callbacks: [String?] = []
    }

    /// True when a `register(forTaskWithIdentifier:…)` call passes on its enclosing function's
    /// own parameter as the identifier: a wrapper (a protocol's forwarding method), not a
    /// registration. Its callers' registrations are the real ones.
    static func isForwarding(_ call: SwiftCall, _ index: SwiftFileIndex) -> Bool {
        guard let argument = call.arguments.first, argument.tokens.count == 1, let function = index.enclosingFunction(of: call)
        else { return false }
        return parameterNames(index, function).contains(index.tokens[argument.tokens.lowerBound].text)
    }

    /// True when the tree registers or requests a background task.
    static func anyTask(in tree: AppSourceTree) -> Bool {
        tree.swiftFiles.contains { file in
            file.index.calls.contains { call in
                (call.name == "register" && call.labels.first == "forTaskWithIdentifier")
                    || call.name == "BGAppRefreshTaskRequest" || call.name == "BGProcessingTaskRequest"
            }
        }
    }

    /// Every `register(forTaskWithIdentifier:…)` call of the tree with its handler (forwarding
    /// wrappers left out, `isForwarding`).
    static func handlers(_ context: RefreshRulesIndex) -> [Handler] {
        let tree = context.tree
        var out = [Handler]()
        for (f, file) in tree.swiftFiles.enumerated() {
            let index = file.index
            for call in index.calls where call.name == "register" && call.labels.first == "forTaskWithIdentifier" {
                if isForwarding(call, index) { continue }
                // The id itself where a constant holds it (`Self.refreshID` → `com.example.refresh`).
                let written = index.text(call.arguments[0].tokens)
                let identifier = index.appGroupRuleString(call.arguments[0].tokens, tree: tree).map { "`\($0)`" } ?? written
                var regions = [Region]()
                var taskNames = [String]()
                var callbacks = [String?]()
                if let closure = call.trailingClosure ?? launchClosure(call, index) {
                    regions.append(Region(file: f, block: closure))
                    taskNames.append(closureParameter(index, closure) ?? "$0")
                    callbacks.append(nil)
                } else if let name = call.arguments.first(where: { $0.label == "launchHandler" }).flatMap({ lastName(index, $0.tokens) }) {
                    for (g, body, params) in context.functions(named: name) {
                        regions.append(Region(file: g, block: body))
                        taskNames.append(params.first ?? "task")
                        callbacks.append(nil)
                    }
                }
                // Follow the task into the functions it is passed to.
                var k = 0
                while k < regions.count && regions.count < 8 {
                    let r = regions[k]
                    let rIndex = tree.swiftFiles[r.file].index
                    let names = castNames(rIndex, r.block, of: taskNames[k])
                    let callback = callbacks[k]
                    k += 1
                    for c in context.calls(inFile: r.file, inside: r.block) {
                        guard
                            let position = c.arguments.firstIndex(where: { a in
                                a.tokens.contains { names.contains(rIndex.tokens[$0].text) && !rIndex.tokens[$0].inInterpolation }
                            })
                        else { continue }
                        if c.name == "setTaskCompleted" || names.contains(where: { c.callee.hasPrefix($0 + ".") }) { continue }
                        // A closure that completes the task, or a callback handed on, makes the
                        // parameter it is given to a callback that completes it.
                        let argument = c.arguments[position].tokens
                        let wraps =
                            rIndex.tokens[argument.lowerBound].is("{")
                            && rIndex.callIndices(between: argument.lowerBound, and: argument.upperBound).contains {
                                rIndex.calls[$0].name == "setTaskCompleted"
                            }
                        let handsOn = callback != nil && argument.count == 1 && rIndex.tokens[argument.lowerBound].text == callback
                        for (g, body, params) in context.functions(calledBy: c, inFile: r.file)
                        where !regions.contains(Region(file: g, block: body)) {
                            let parameter = position < params.count ? params[position] : "task"
                            regions.append(Region(file: g, block: body))
                            taskNames.append(parameter)
                            callbacks.append(wraps || handsOn ? parameter : nil)
                        }
                    }
                }
                out.append(Handler(file: f, register: call, identifier: identifier, regions: regions, callbacks: callbacks))
            }
        }
        return out
    }

    /// `task` and the names the block binds to it cast (`guard let refresh = task as? BGAppRefreshTask`).
    static func castNames(_ index: SwiftFileIndex, _ block: Int, of task: String) -> Set<String> {
        let t = index.tokens
        var names: Set<String> = [task]
        let close = min(index.blocks[block].close, t.count)
        var k = index.blocks[block].open
        while k + 4 < close {
            if t[k].isKeyword("let") || t[k].isKeyword("var"), t[k + 1].kind == .identifier, t[k + 2].is("="), t[k + 3].text == task,
                t[k + 4].isKeyword("as") || t[k + 4].text.hasPrefix("as")
            {
                names.insert(t[k + 1].text)
            }
            k += 1
        }
        return names
    }

    /// The block of a `launchHandler: { … }` argument.
    static func launchClosure(_ call: SwiftCall, _ index: SwiftFileIndex) -> Int? {
        guard let a = call.arguments.first(where: { $0.label == "launchHandler" }), let first = a.tokens.first, index.tokens[first].is("{")
        else { return nil }
        return index.blocks.firstIndex { $0.open == first }
    }

    /// The last name of a function reference: `handle` in `Self.handle` or `handle(_:)`.
    static func lastName(_ index: SwiftFileIndex, _ range: Range<Int>) -> String? {
        range.last { index.tokens[$0].kind == .identifier && !(($0 > range.lowerBound) && index.tokens[$0 - 1].is("(")) }
            .map { index.tokens[$0].text }
    }

    /// The closure's first parameter: `task` in `{ task in` or `{ (task) in`.
    static func closureParameter(_ index: SwiftFileIndex, _ block: Int) -> String? {
        let t = index.tokens
        var k = index.blocks[block].open + 1
        // A capture list first: `{ [weak self] task in`.
        if k < t.count && t[k].is("[") {
            var depth = 0
            while k < t.count {
                if t[k].is("[") { depth += 1 } else if t[k].is("]") { depth -= 1 }
                k += 1
                if depth == 0 { break }
            }
        }
        if k < t.count && t[k].is("(") { k += 1 }
        guard k < t.count, t[k].kind == .identifier else { return nil }
        var j = k + 1
        while j < t.count && j < k + 8 && !t[j].isKeyword("in") && !t[j].is("{") && !t[j].is("}") { j += 1 }
        return j < t.count && t[j].isKeyword("in") ? t[k].text : nil
    }

    /// The parameter names of `function` (`task` in `handle(_ task: BGAppRefreshTask)`).
    static func parameterNames(_ index: SwiftFileIndex, _ function: SwiftFunction) -> [String] {
        let t = index.tokens
        guard var k = tokenIndex(index, function.location) else { return [] }
        while k < t.count && !t[k].is("(") {
            if t[k].is("{") { return [] }
            k += 1
        }
        var depth = 0
        var names = [String]()
        var named = false
        while k < t.count {
            let s = t[k]
            if s.is("(") || s.is("[") {
                depth += 1
            } else if s.is(")") || s.is("]") {
                depth -= 1
                if depth == 0 { break }
            } else if depth == 1 && s.is(",") {
                named = false
            } else if depth == 1 && s.is(":") && !named {
                named = true
                names.append(t[k - 1].text)
            }
            k += 1
        }
        return names
    }

    /// The index of the token at `location`, by binary search.
    static func tokenIndex(_ index: SwiftFileIndex, _ location: SourceLocation) -> Int? {
        var lo = 0
        var hi = index.tokens.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if index.tokens[mid].location < location { lo = mid + 1 } else { hi = mid }
        }
        return lo < index.tokens.count && index.tokens[lo].location == location ? lo : nil
    }

    /// True when `block` is `root` or nested in it through blocks that run as part of it: not
    /// through a closure other than one passed to `Task` / `Task.detached`.
    static func isOnPath(_ block: Int?, of root: Int, in index: SwiftFileIndex) -> Bool {
        var b = block
        while let k = b {
            if k == root { return true }
            let blk = index.blocks[k]
            if blk.kind == .closure {
                guard let c = blk.call, ["Task", "Task.detached", "detached"].contains(index.calls[c].callee) else { return false }
            }
            if blk.kind == .function || blk.kind == .typeBody || k < root { return false }
            b = blk.parent
        }
        return false
    }
}

extension BackgroundTaskCompletionRule {
    /// Something to check: a background task registered or requested.
    package func hasSomethingToCheck(_ source: LintSource) -> Bool { BGTaskCompletionHandlers.anyTask(in: source.tree) }
}
