import Foundation
import Testing
import WidgetQuotaSwiftSource

@Suite("Swift file index") struct SwiftFileIndexTests {
    /// Widget code in the shape of the Gemini widget report's provider and background refresh.
    static let provider = #"""
        import WidgetKit

        // URLSession.shared.data(for:) is not called here: this is a comment.
        struct Provider: TimelineProvider, Sendable {
            let cacheTTL: TimeInterval = 30 * 60
            let policyMinutes = cacheTTL / 60 + 5

            func placeholder(in context: Context) -> SimpleEntry { SimpleEntry(date: .now, text: "URLSession.shared") }

            func getTimeline(in context: Context, completion: @escaping (Timeline<SimpleEntry>) -> Void) {
                let entry = SimpleEntry(date: .now, text: SharedStore.load())
                let next = Calendar.current.date(byAdding: .minute, value: 30, to: .now)!
                completion(Timeline(entries: [entry], policy: .after(next)))
            }
        }

        func outside() { WidgetCenter.shared.reloadAllTimelines() }

        final class Refresher {
            func handle(task: BGAppRefreshTask) {
                task.expirationHandler = {
                    task.setTaskCompleted(success: false)
                }
                Task {
                    for attempt in 0..<3 {
                        do {
                            var request = URLRequest(url: url)
                            request.timeoutInterval = 10
                            let (data, _) = try await URLSession.shared.data(for: request)
                            SharedStore.save(data)
                            WidgetCenter.shared.reloadTimelines(ofKind: "Quote")
                            task.setTaskCompleted(success: true)
                            return
                        } catch {
                            WidgetCenter.shared.reloadAllTimelines()
                        }
                    }
                }
            }

            func register() {
                BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refresh", using: nil) { task in
                    self.handle(task: task as! BGAppRefreshTask)
                }
            }
        }
        """#

    static let index = SwiftFileIndex(path: "Provider.swift", source: provider)

    @Test("a name in a comment or a string is not a call")
    func notCalls() {
        #expect(Self.index.calls(named: "data").count == 1)
        #expect(Self.index.calls(named: "data").first?.location == SourceLocation(line: 29, column: 65))
        #expect(Self.index.comments.first?.text.contains("URLSession") == true)
        #expect(Self.index.strings.contains { $0.value == "URLSession.shared" })
    }

    @Test("types with their conformances, functions with their selectors and types")
    func declarations() throws {
        let i = Self.index
        #expect(i.types.map(\.name) == ["Provider", "Refresher"])
        #expect(i.types[0].inherited == ["TimelineProvider", "Sendable"])
        #expect(
            i.functions.map(\.selector) == ["placeholder(in:)", "getTimeline(in:completion:)", "outside()", "handle(task:)", "register()"])
        #expect(i.functions.map(\.typeName) == ["Provider", "Provider", nil, "Refresher", "Refresher"])
        let timeline = try #require(i.functions(named: "getTimeline(in:completion:)").first)
        #expect(timeline.location == SourceLocation(line: 10, column: 10))
    }

    /// An attribute on a conformance is not part of the protocol's name: a provider declared
    /// `: @preconcurrency TimelineProvider` is a timeline provider, and an extension's requests
    /// reachable through it are found.
    @Test("attributes on conformances are left out of the protocols' names")
    func attributedConformances() {
        let source = """
            struct A: @preconcurrency TimelineProvider, @unchecked Sendable {}
            extension URLSession: @retroactive @MainActor DataLoader {}
            final class C: NSObject, @MainActor WidgetBundle where T: Equatable {}
            """
        let i = SwiftFileIndex(path: "A.swift", tokens: SwiftLexer.tokens(utf8: Array(source.utf8)))
        #expect(i.types.map(\.inherited) == [["TimelineProvider", "Sendable"], ["DataLoader"], ["NSObject", "WidgetBundle"]])
    }

    @Test("a parameter's default closure is part of the signature: every label is read and the body is the function's")
    func defaultClosure() throws {
        let i = SwiftFileIndex(
            path: "Pixel.swift",
            source: """
                enum Pixel {
                    static func fire(pixel: String, headers: [String: String] = [:], onComplete: @escaping (Error?) -> Void = { _ in }, debounce: Int = 0) {
                        URLSession.shared.dataTask(with: URL(string: pixel)!).resume()
                    }
                }
                """)
        let fire = try #require(i.functions.first)
        #expect(fire.selector == "fire(pixel:headers:onComplete:debounce:)")
        let body = try #require(fire.body)
        #expect(i.calls(inside: body).contains { $0.name == "dataTask" })
    }

    @Test("a call inside getTimeline's braces is attributed to it; one after the closing brace is not")
    func attribution() throws {
        let i = Self.index
        let timeline = try #require(i.functions(named: "getTimeline").first)
        let inside = i.calls(inside: timeline).map(\.callee)
        #expect(inside == ["SimpleEntry", "SharedStore.load", "Calendar.current.date", "completion", "Timeline", ".after"])
        let reload = try #require(i.calls(named: "reloadAllTimelines").first)
        #expect(i.enclosingFunction(of: reload)?.name == "outside")
        #expect(!i.calls(inside: timeline).contains(reload))
    }

    @Test("callee paths, labels and argument text are as written")
    func callShapes() throws {
        let i = Self.index
        let register = try #require(i.calls(named: "BGTaskScheduler.shared.register").first)
        #expect(register.labels == ["forTaskWithIdentifier", "using"])
        #expect(i.stringValues(register.arguments[0].tokens) == ["com.example.refresh"])
        #expect(i.text(register.arguments[1].tokens) == "nil")
        let reload = try #require(i.calls(named: "reloadTimelines").first)
        #expect(reload.callee == "WidgetCenter.shared.reloadTimelines" && reload.labels == ["ofKind"])
        #expect(i.calls(named: "shared.data").count == 1)
    }

    @Test("calls report the blocks around them: catch, loop, do, closures and the call a closure is passed to")
    func contexts() throws {
        let i = Self.index
        let reloads = i.calls(named: "reloadAllTimelines")
        #expect(reloads.count == 2)
        let inCatch = try #require(reloads.last)
        #expect(i.isInside(inCatch, .catchBlock))
        #expect(i.isInLoop(inCatch))
        #expect(i.isInside(inCatch, .closure))
        #expect(i.enclosingFunction(of: inCatch)?.name == "handle")
        let afterFetch = try #require(i.calls(named: "reloadTimelines").first)
        #expect(i.isInside(afterFetch, .doBlock) && !i.isInside(afterFetch, .catchBlock))
        #expect(!i.isInside(reloads[0], .catchBlock) && !i.isInLoop(reloads[0]))
        let handle = try #require(i.calls(named: "handle").first)
        #expect(i.isInsideClosure(of: handle, passedTo: "register"))
        #expect(i.isInsideClosure(of: handle, passedTo: "BGTaskScheduler.shared.register"))
        #expect(!i.isInsideClosure(of: afterFetch, passedTo: "register"))
        let register = try #require(i.calls(named: "register").first)
        let closure = try #require(i.closureArgument(of: register))
        #expect(closure.kind == .closure && closure.location.line == 42)
        let task = try #require(i.calls.first { $0.callee == "Task" })
        #expect(task.trailingClosure != nil && task.arguments.isEmpty)
    }

    @Test("member assignments give their path and value; returns their block")
    func assignmentsAndReturns() throws {
        let i = Self.index
        let timeout = try #require(i.assignments.first { $0.target == "request.timeoutInterval" })
        #expect(i.text(timeout.value) == "10" && timeout.location.line == 28)
        let expiration = try #require(i.assignments.first { $0.target == "task.expirationHandler" })
        #expect(i.text(expiration.value).hasPrefix("{") && i.text(expiration.value).hasSuffix("}"))
        #expect(i.returns.count == 1)
        #expect(i.isInside(block: i.returns[0].block, .doBlock))
        #expect(i.enclosingFunction(i.returns[0].block)?.name == "handle")
    }

    @Test(
        "constant arithmetic of literals and named constants",
        arguments: [
            ("let ttl: TimeInterval = 30 * 60", "ttl", 1_800.0),
            ("let a = 15 * 60\nlet b = a * 2 + (10 - 4) / 3", "b", 1_802.0),
            ("let m = TimeInterval(5 * 60)", "m", 300.0),
            ("let n = 1_000", "n", 1_000.0),
            ("let h = -0x10", "h", -16.0),
        ])
    func constants(source: String, name: String, value: Double) {
        let i = SwiftFileIndex(path: "c.swift", source: source)
        #expect(i.numericValue(ofConstant: name) == value)
    }

    @Test(
        "a value that is not constant arithmetic has none", arguments: ["let x = y * 2", "let x = f(3)", "let x = 1 / 0", "let x = \"60\""])
    func notConstant(source: String) {
        #expect(SwiftFileIndex(path: "c.swift", source: source).numericValue(ofConstant: "x") == nil)
    }

    @Test("constants built from constants evaluate once each: 15 levels of four uses give 4^15")
    func constantChains() {
        var lines = ["let c0 = 1"]
        for level in 1...15 { lines.append("let c\(level) = " + Array(repeating: "c\(level - 1)", count: 4).joined(separator: " + ")) }
        let index = SwiftFileIndex(path: "c.swift", source: lines.joined(separator: "\n"))
        #expect(index.numericValue(ofConstant: "c15") == 1_073_741_824)
        // Past the depth bound a chain has no value, and a shallower use of the same constant still does.
        lines.append("let c16 = c15")
        lines.append("let c17 = c16 + c2")
        let deeper = SwiftFileIndex(path: "d.swift", source: lines.joined(separator: "\n"))
        #expect(deeper.numericValue(ofConstant: "c17") == nil)
        #expect(deeper.numericValue(ofConstant: "c2") == 16)
    }

    @Test("the provider's cache TTL and policy constants evaluate")
    func providerConstants() {
        #expect(Self.index.numericValue(ofConstant: "cacheTTL") == 1_800)
        #expect(Self.index.numericValue(ofConstant: "policyMinutes") == 35)
    }

    @Test("if, else, guard-else, defer, switch, while, repeat and accessors are told apart")
    func blockKinds() {
        let source = """
            var body: some View { Text("a") }
            func f() {
                if a { one() } else { two() }
                guard b else { three(); return }
                defer { four() }
                switch c { case .x: five() default: break }
                while d { six() }
                repeat { seven() } while e
                items.forEach { eight($0) }
            }
            """
        let i = SwiftFileIndex(path: "k.swift", source: source)
        func kind(_ name: String) -> SwiftBlockKind? {
            i.calls(named: name).first.flatMap { $0.block }.map { i.blocks[$0].kind }
        }
        #expect(kind("Text") == .accessor)
        #expect(kind("one") == .ifBranch)
        #expect(kind("two") == .elseBranch)
        #expect(kind("three") == .guardElse)
        #expect(kind("four") == .deferBlock)
        #expect(kind("five") == .switchBody)
        #expect(kind("six") == .whileLoop)
        #expect(kind("seven") == .repeatLoop)
        #expect(kind("eight") == .closure)
        #expect(i.calls(named: "forEach").first?.trailingClosure != nil)
        #expect(i.calls(named: "forEach").first?.callee == "items.forEach")
    }

    /// `for` and `in` as argument labels open no loop: a `guard` whose condition calls
    /// `user(for:)` keeps its `else`, and a parameter labelled `for` starts no `for` block.
    @Test("keywords used as argument labels do not open blocks")
    func keywordLabels() {
        let source = """
            func load(for id: String, in context: Context) {
                guard let user = user(for: id), let name = lookUp(in: context) else { one(); return }
                two(user, name)
            }
            """
        let i = SwiftFileIndex(path: "k.swift", source: source)
        func kind(_ name: String) -> SwiftBlockKind? {
            i.calls(named: name).first.flatMap { $0.block }.map { i.blocks[$0].kind }
        }
        #expect(kind("one") == .guardElse)
        #expect(kind("two") == .function)
        #expect(!i.blocks.contains { $0.kind == .forLoop })
    }

    @Test("a call chained on a call's result names its receiver")
    func receiver() throws {
        let i = SwiftFileIndex(path: "r.swift", source: "URLSession.shared.dataTask(with: request) { d, r, e in }.resume()")
        let resume = try #require(i.calls(named: "resume").first)
        #expect(resume.callee == ".resume")
        let receiver = try #require(resume.receiverCall)
        #expect(i.calls[receiver].callee == "URLSession.shared.dataTask")
        #expect(i.calls[receiver].trailingClosure != nil)
    }
}
