import Foundation
import WidgetQuotaModel
import WidgetQuotaSwiftSource

/// The design an app's source tree implements, read from its code: what the simulation needs to
/// project it, which fields the code did not show, and a sentence that says it.
package struct DesignInference: Sendable, Equatable {
    /// The design, starting from `preset` with every field the code shows replaced.
    package var design: Design
    /// The preset the design starts from (`direct`, `cache-bgtask` or `cache-on-open`).
    package var preset: String
    /// Fields the code did not show, which keep the preset's (or the scenario's) value.
    package var assumedFields: [String]
    /// The longest `timeoutInterval` a request runs with (60 s for a request that sets none),
    /// nil when the tree builds no `URLRequest`.
    package var timeoutSeconds: Double?
    /// The largest output-token cap written in a request body, nil when there is none.
    package var outputTokenCap: Int?
    /// Attempts one refresh makes when a request keeps failing (the retry loop's bound), 1 without a loop.
    package var attemptsPerRefresh: Int
    /// The design in one sentence, lower-case first ("the widget calls the API itself on every
    /// getTimeline and reloads after 10 min").
    package var sentence: String
    /// The model a string literal of the code names, when the price table knows it; nil keeps
    /// the scenario's (`api.model` is then among `assumedFields`).
    package var model: String? = nil

    /// A scenario whose only design is this one, its baseline, with the request timeout and the
    /// output-token cap the code shows.
    package func scenario(base: Scenario = Scenario()) -> Scenario {
        var s = base
        s.designs = [design]
        s.baseline = design.name
        if let timeoutSeconds { s.api.timeoutSeconds = timeoutSeconds }
        if let model { s.api.model = model }
        if let cap = outputTokenCap {
            // The default's shape (20–40–80 under a cap of 80), scaled to the cap.
            let c = Double(cap)
            s.api.outputTokensPerRequest = .triangular(min: c / 4, mode: c / 2, max: c)
        }
        return s
    }
}

/// Reads the design an app's source tree implements (see docs/lint.md, "The design read from
/// the code", for each inference rule).
///
/// What counts as a request is the call graph's (`CallGraph`): a `URLSession` send, a model SDK
/// call, or a call of a function that makes one, to any depth.
package enum DesignReader {
    /// The model `tree`'s string literals name, of `priced`: a whole word of a literal (not
    /// `gemini-2.5-flash` inside `gemini-2.5-flash-lite`), the longest in each literal; the first
    /// in sorted order when literals name several.
    static func modelNamed(in tree: AppSourceTree, priced: [String]) -> String? {
        func isNameByte(_ c: UInt8) -> Bool {
            (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x2E || c == 0x2D || c == 0x5F
        }
        var found = Set<String>()
        for file in tree.swiftFiles {
            for literal in file.index.strings where literal.value.contains(where: { $0.isLetter }) {
                let text = Array(literal.value.utf8)
                var best: String?
                for model in priced {
                    let m = Array(model.utf8)
                    guard m.count <= text.count else { continue }
                    for start in 0...(text.count - m.count) where text[start..<(start + m.count)].elementsEqual(m) {
                        let before = start == 0 || !isNameByte(text[start - 1])
                        let after = start + m.count == text.count || !isNameByte(text[start + m.count])
                        if before && after && m.count > (best?.utf8.count ?? 0) { best = model }
                    }
                }
                if let best { found.insert(best) }
            }
        }
        return found.sorted().first
    }

    /// Output-token cap keys of the model APIs.
    static let capKeys = ["maxOutputTokens", "max_tokens", "max_output_tokens", "max_completion_tokens", "maxTokens"]
    /// SwiftUI modifiers whose closures can run when the app comes to the foreground.
    static let foregroundModifiers: Set<String> = ["onAppear", "task", "onChange", "onReceive"]
    /// Functions the system calls when the app comes to the foreground.
    static let foregroundFunctions: Set<String> = [
        "applicationDidBecomeActive", "sceneDidBecomeActive", "applicationWillEnterForeground", "sceneWillEnterForeground",
    ]

    /// The design `tree` implements, called `name`; nil when no code in the tree sends a request.
    package static func read(_ tree: AppSourceTree, name: String) -> DesignInference? {
        read(LintSource(tree), name: name)
    }

    /// The design `source`'s tree implements, with the requesting functions the rules found.
    package static func read(_ source: LintSource, name: String) -> DesignInference? {
        var reader = DesignCodeReader(source: source)
        return reader.infer(name: name)
    }

    /// A design name made of `folder`'s last component (lower-case letters, digits and `-`);
    /// `from-source` when that leaves nothing, and `…-from-source` when it is a preset's name.
    package static func designName(forFolder folder: String) -> String {
        let last = URL(fileURLWithPath: folder).standardizedFileURL.lastPathComponent.lowercased()
        var name = String(last.map { $0.isLetter || $0.isNumber ? $0 : "-" })
        while name.contains("--") { name = name.replacingOccurrences(of: "--", with: "-") }
        name = name.trimmingCharacters(in: CharacterSet(charactersIn: "-"))
        if name.isEmpty || !name.allSatisfy(\.isASCII) { return "from-source" }
        return DesignPresets.named(name) == nil ? name : name + "-from-source"
    }
}

/// The reading itself: the tree, its requesting functions, and what was found so far.
struct DesignCodeReader {
    let tree: AppSourceTree
    let graph: CallGraph
    /// Loop bounds of retry loops met while counting requests.
    var attempts = 1
    /// Requests each requesting function's body reaches (`count(function:)`), memoised.
    var counted = [FunctionRef: RequestCount]()
    /// Requests each closure given to a closure property sends, by file and block, memoised.
    var countedClosures = [[Int]: RequestCount]()
    /// True when a fetch sends a request per item of a list whose size the code does not state.
    var fansOut = false
    /// The items of a list whose size the code does not state (a user's bookmarks, a feed's
    /// thumbnails): an assumption with a wide range (1 to 7 on the judged apps, 2 to 4 typical;
    /// see `docs/sources.md`), listed as assumed where it is used.
    static let assumedListSize = 3
    /// True while the app's fetches are counted: what an `init` or a computed property's getter
    /// on the way sends is left out (an app's objects, singletons and lazily made services are set
    /// up once and outlive a fetch; a widget's process is often new for each reload, so its
    /// timelines count them).
    var countingApp = false

    /// The App Intents the widget's controls run.
    let intents: WidgetIntents

    init(source: LintSource) {
        intents = source.intents
        tree = source.tree
        graph = source.graph
    }

    /// True when call `c` of file `f` sends a request or runs a function that does.
    func isRequest(_ c: Int, inFile f: Int) -> Bool { graph.request(call: c, inFile: f) != nil }

    /// A place a fetch starts from: a file (its number in the tree) and a block (a function body or a closure).
    struct Entry {
        var fileNumber: Int
        var block: Int
    }

    /// The calls of file `f` between `block`'s braces, as call indices.
    func callsInside(_ f: Int, _ block: Int) -> [Int] {
        tree.swiftFiles[f].index.callIndices(inside: block)
    }

    mutating func infer(name: String) -> DesignInference? {
        let anyRequest = tree.swiftFiles.indices.contains { f in
            tree.swiftFiles[f].index.calls.indices.contains { isRequest($0, inFile: f) }
        }
        guard anyRequest else { return nil }
        var assumed = [String]()

        // Fetch triggers.
        let timelineEntries = widgetTimelineEntries()
        // A timeline whose requests all wait on a cache miss reads the store on a typical reload.
        var widgetRequests = [Entry]()
        for entry in timelineEntries where requests(in: entry) && count(entry.fileNumber, block: entry.block).total > 0 {
            widgetRequests.append(entry)
        }
        // A file compiled into the app as well may be there only for the app to call.
        let appTargets = Set(tree.targets.filter { $0.role == .app }.map(\.name))
        // A widget button's intent requests per tap, not per getTimeline.
        let performs = intents.performBodies
        // Counting calls outside the timelines (the extension's other files, the intents) must
        // not set the fetch's retries.
        let fetchAttempts = attempts
        var widgetAnyRequest = false
        for (f, file) in tree.swiftFiles.enumerated()
        where !widgetAnyRequest && file.role == .widgetExtension && file.targets.allSatisfy({ !appTargets.contains($0) }) {
            for c in file.index.calls.indices
            where graph.requestInExtension(call: c, inFile: f) != nil
                && !(performs[f] ?? []).contains(where: { file.index.isBlock(file.index.calls[c].block, inside: $0) })
                && !file.index.isPreviewCode(file.index.calls[c].block)
            {
                // Not one that waits on a cache miss.
                if (count(call: c, inFile: f)?.total ?? 1) > 0 {
                    widgetAnyRequest = true
                    break
                }
            }
        }
        // Requests a tap's intent sends in `perform()`: the most of any intent's.
        var requestsPerTap = 0
        for (f, bodies) in performs.sorted(by: { $0.key < $1.key }) {
            for body in bodies where callsInside(f, body).contains(where: { graph.requestInExtension(call: $0, inFile: f) != nil }) {
                requestsPerTap = max(requestsPerTap, max(1, count(f, block: body).total))
            }
        }
        attempts = fetchAttempts
        let foregroundBlocks = foregroundEntries()
        let foreground = foregroundBlocks.filter { requests(in: $0) }
        let background = backgroundEntries().filter { requests(in: $0) }
        let push = pushEntries().filter { requests(in: $0) }
        var triggers = [Design.Trigger]()
        if !widgetRequests.isEmpty || widgetAnyRequest { triggers.append(.getTimeline) }
        if !foreground.isEmpty { triggers.append(.appForeground) }
        if !background.isEmpty { triggers.append(.backgroundTask) }
        if !push.isEmpty { triggers.append(.push) }

        let preset: Design =
            triggers.contains(.getTimeline)
            ? DesignPresets.direct : triggers.contains(.backgroundTask) ? DesignPresets.cacheBGTask : DesignPresets.cacheOnOpen
        var design = preset
        design.name = name
        design.summary = ""
        design.source = "read from the source code by widget-quota lint"
        if triggers.isEmpty {
            assumed.append("fetchTriggers")
        } else {
            design.fetchTriggers = triggers
        }

        // A tap on the widget's buttons reloads it, after the requests its intent sends.
        if requestsPerTap > 0 {
            design.interactive = true
            design.requestsPerTap = requestsPerTap
        }

        // Cache TTL: a widget that fetches in getTimeline without looking at a TTL or a
        // staleness flag fetches every time, whatever the app's cache does.
        let ttl = ttlConstant()
        let widgetChecksCache = widgetRequests.contains { checksCache($0, ttlName: ttl?.name) }
        if triggers.contains(.getTimeline) && !widgetChecksCache {
            design.cacheTTLMinutes = nil
        } else if let ttl {
            design.cacheTTLMinutes = ttl.seconds / 60
        } else {
            assumed.append("cacheTTLMinutes")
        }

        // Reload policy.
        if let policy = reloadPolicy(preferring: widgetRequests) {
            design.reloadPolicy = policy
            if case .after(let minutes) = policy { design.entrySpacingMinutes = minutes }
        } else {
            assumed.append("reloadPolicy")
        }

        // Reload calls.
        design.reloadCalls = reloadCalls(foreground: foregroundBlocks)

        // Background interval.
        if triggers.contains(.backgroundTask) {
            if let seconds = earliestBeginSeconds() {
                design.backgroundIntervalHours = seconds / 3600
            } else {
                assumed.append("backgroundIntervalHours")
            }
        }

        // Requests per fetch and retries, counted from every place a fetch starts; a widget that
        // fetches itself is counted from its timelines alone (the app's fetches are its own),
        // though a retry loop anywhere counts. The widget's timelines are counted first.
        var perFetch = 0
        let widgetOnly = triggers.contains(.getTimeline) && !widgetRequests.isEmpty
        for entry in widgetRequests { perFetch = max(perFetch, requestsPerFetch(from: entry)) }
        let widgetFansOut = fansOut
        countingApp = true
        counted = [:]
        countedClosures = [:]
        for entry in foreground + background + push {
            let n = requestsPerFetch(from: entry)
            if !widgetOnly { perFetch = max(perFetch, n) }
        }
        if widgetOnly { fansOut = widgetFansOut }
        design.requestsPerFetch = max(1, perFetch)
        // One request per item of a list the code does not size (favourites, topics): counted once.
        if fansOut { assumed.append("requestsPerFetch") }
        if attempts > 1 {
            design.retry = .backoff(maxRetries: attempts - 1, baseSeconds: 1, jitter: false)
            assumed.append("retry.baseSeconds")
        } else {
            design.retry = .nextOpportunity
        }

        let timeout = timeoutSeconds()
        if timeout == nil { assumed.append("api.timeoutSeconds") }
        let cap = outputTokenCap()
        if cap == nil { assumed.append("api.outputTokensPerRequest") }
        // The model: one the price table prices, named in a string literal (`"gemini-2.5-flash"`,
        // `…/models/gemini-2.5-flash-lite:generateContent`); else the scenario's, assumed.
        let model = DesignReader.modelNamed(in: tree, priced: Array(PriceTable.bundled.prices.keys))
        if model == nil { assumed.append("api.model") }

        return DesignInference(
            design: design, preset: preset.name, assumedFields: assumed, timeoutSeconds: timeout, outputTokenCap: cap,
            attemptsPerRefresh: attempts, sentence: Self.sentence(design, assumed: Set(assumed)), model: model)
    }

    // MARK: Where fetches start

    /// The bodies of the timeline providers' `getTimeline(in:completion:)` / `timeline(for:in:)`.
    func widgetTimelineEntries() -> [Entry] {
        var out = [Entry]()
        for (n, file) in tree.swiftFiles.enumerated() where file.role == .widgetExtension {
            for f in file.index.functions where f.name == "getTimeline" || (f.name == "timeline" && f.labels.contains("in")) {
                if let body = f.body { out.append(Entry(fileNumber: n, block: body)) }
            }
        }
        return out
    }

    /// Closures and functions run when the app comes to the foreground: `onChange(of: scenePhase)`
    /// under a condition naming `.active` (or none), `onAppear`, `.task`, `onReceive` of a
    /// did-become-active notification, and the app and scene delegates' callbacks.
    func foregroundEntries() -> [Entry] {
        var out = [Entry]()
        for (n, file) in tree.swiftFiles.enumerated() where file.role != .widgetExtension {
            let index = file.index
            for f in index.functions where DesignReader.foregroundFunctions.contains(f.name) {
                if let body = f.body { out.append(Entry(fileNumber: n, block: body)) }
            }
            for (k, call) in index.calls.enumerated() {
                let name = String(call.name)
                guard DesignReader.foregroundModifiers.contains(name), let closure = closureIndex(index, k) else { continue }
                switch name {
                case "onAppear", "task":
                    guard call.callee.hasPrefix(".") || call.callee.contains(".") else { continue }
                    out.append(Entry(fileNumber: n, block: closure))
                case "onChange":
                    let subject = call.arguments.first.map { index.text($0.tokens) } ?? ""
                    guard subject.lowercased().contains("scenephase") else { continue }
                    out.append(contentsOf: Self.activeBlocks(index, in: closure).map { Entry(fileNumber: n, block: $0) })
                case "onReceive":
                    let subject = call.arguments.first.map { index.text($0.tokens) } ?? ""
                    if subject.contains("didBecomeActive") || subject.contains("willEnterForeground") {
                        out.append(Entry(fileNumber: n, block: closure))
                    }
                default: continue
                }
            }
        }
        return out
    }

    /// The blocks of `closure` that run when the phase is `.active`: `if` branches whose condition
    /// names `.active`, or the whole closure when it has no condition on the phase.
    static func activeBlocks(_ index: SwiftFileIndex, in closure: Int) -> [Int] {
        var branches = [Int]()
        var conditional = false
        for (k, block) in index.blocks.enumerated() where block.kind == .ifBranch && index.isBlock(k, inside: closure) {
            let condition = conditionText(index, block)
            if condition.contains("active") || condition.contains("background") || condition.contains("inactive") {
                conditional = true
            }
            if condition.contains(".active") { branches.append(k) }
        }
        return conditional ? branches : [closure]
    }

    /// The text between the `if` before `block` and its `{`.
    static func conditionText(_ index: SwiftFileIndex, _ block: SwiftBlock) -> String {
        var k = block.open - 1
        while k >= 0 && k > block.open - 40 {
            let t = index.tokens[k]
            if t.kind == .keyword && t.text == "if" { return index.text(k + 1..<block.open) }
            if t.is("{") || t.is("}") { break }
            k -= 1
        }
        return ""
    }

    /// Handlers of `BGTaskScheduler.register(forTaskWithIdentifier:…)` and SwiftUI's `.backgroundTask`.
    func backgroundEntries() -> [Entry] {
        var out = [Entry]()
        for (n, file) in tree.swiftFiles.enumerated() where file.role != .widgetExtension {
            for (k, call) in file.index.calls.enumerated() {
                let isRegister = call.name == "register" && call.labels.contains("forTaskWithIdentifier")
                guard isRegister || call.name == "backgroundTask", let closure = closureIndex(file.index, k) else { continue }
                out.append(Entry(fileNumber: n, block: closure))
            }
        }
        return out
    }

    /// `application(_:didReceiveRemoteNotification:…)` bodies.
    func pushEntries() -> [Entry] {
        var out = [Entry]()
        for (n, file) in tree.swiftFiles.enumerated() where file.role != .widgetExtension {
            for f in file.index.functions where f.selector.contains("didReceiveRemoteNotification") {
                if let body = f.body { out.append(Entry(fileNumber: n, block: body)) }
            }
        }
        return out
    }

    /// The block index of the closure passed to call `k`.
    func closureIndex(_ index: SwiftFileIndex, _ k: Int) -> Int? {
        if let t = index.calls[k].trailingClosure { return t }
        guard let block = index.closureArgument(of: index.calls[k]) else { return nil }
        return index.blocks.firstIndex { $0.open == block.open }
    }

    func requests(in entry: Entry) -> Bool {
        // A widget's code runs in the extension: what only the app builds does not run there.
        let widget = tree.swiftFiles[entry.fileNumber].role == .widgetExtension
        return callsInside(entry.fileNumber, entry.block).contains { c in
            widget ? graph.requestInExtension(call: c, inFile: entry.fileNumber) != nil : isRequest(c, inFile: entry.fileNumber)
        }
    }
}
