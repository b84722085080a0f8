import Foundation
import Testing
import WidgetQuotaLint
import WidgetQuotaModel
import WidgetQuotaSwiftSource
import WidgetQuotaTestSupport

/// The six rules about App Groups, the network, keys, snapshots and background task setup, run on
/// the fixture app trees: each reports exactly the `Findings` rows of its id in the tree's
/// `EXPECTED.md`, and never a `Must not trigger` row.
@Suite("Lint rules on the fixture apps: App Groups, network, keys, snapshots, background setup")
struct AppGroupNetworkKeyFixtureTests {
    static let rules: [any LintRule] = [
        AppGroupMismatchRule(), WidgetNetworkCallRule(), APIKeyInClientRule(), SnapshotNetworkRule(), SnapshotPreviewRule(),
        BackgroundTaskSetupRule(),
    ]

    struct Case: CustomTestStringConvertible, Sendable {
        var app: String
        var rule: ChecklistRule
        var testDescription: String { "\(rule.rawValue) on \(app)" }
    }

    static let cases: [Case] = LintFixtureTests.apps.flatMap { app in rules.map { Case(app: app, rule: $0.rule) } }

    @Test("A rule reports exactly the fixture's EXPECTED.md findings of its id, and no must-not row", arguments: cases)
    func fixture(_ c: Case) throws {
        let rows = LintFixtureTests.rows(try Fixtures.text("apps/\(c.app)/EXPECTED.md")).filter { $0.rule == c.rule.rawValue }
        let expected = rows.filter { $0.section == "Findings" }.map { "\($0.file):\($0.line)" }.sorted()
        let mustNot = Set(rows.filter { $0.section == "Must not trigger" }.map { "\($0.file):\($0.line)" })
        let tree = try AppSourceTree.load(paths: [Fixtures.path("apps/\(c.app)")])
        let rule = try #require(Self.rules.first { $0.rule == c.rule })
        let findings = rule.check(LintSource(tree))
        let found = findings.map { "\($0.location.file):\($0.location.line ?? 0)" }.sorted()
        #expect(found == expected, "\(findings.map { "\($0.location.description): \($0.message)" })")
        #expect(mustNot.isDisjoint(with: found))
        #expect(findings.allSatisfy { $0.rule == c.rule && !$0.message.isEmpty && !$0.fix.isEmpty })
        #expect(findings.allSatisfy { !$0.message.contains("\n") && !$0.fix.contains("\n") })
        // A finding in a property list points at the element it is about.
        for f in findings where !f.location.file.hasSuffix(".swift") {
            let line = try #require(f.location.line)
            let column = try #require(f.location.column)
            let rows = try Fixtures.text("apps/\(c.app)/\(f.location.file)").split(separator: "\n", omittingEmptySubsequences: false)
            let at = rows[line - 1].utf8.dropFirst(column - 1)
            #expect(at.starts(with: "<string>".utf8) || at.starts(with: "<key>".utf8), "\(f.location.description)")
        }
    }

    @Test("No message or fix quotes the fake key; it is shown redacted", arguments: LintFixtureTests.apps)
    func keyIsRedacted(app: String) throws {
        let key = "AIzaSyFAKE-KEY-FOR-TESTS-ONLY-000000000"
        let tree = try AppSourceTree.load(paths: [Fixtures.path("apps/\(app)")])
        let findings = Self.rules.flatMap { $0.check(LintSource(tree)) }
        for f in findings {
            #expect(!f.message.contains(key.dropFirst(6).prefix(12)) && !f.fix.contains(key.dropFirst(6).prefix(12)), "\(f.message)")
        }
        if app == "broken-app" {
            #expect(findings.contains { $0.message.contains("`AIzaSy…` (39 characters)") })
        }
    }

    @Test("Key shapes: Google, sk- and JWT keys are found; short or low-entropy words are not")
    func keyShapes() {
        #expect(
            APIKeyInClientRule.keyShape(in: "k=AIzaSyFAKE-KEY-FOR-TESTS-ONLY-000000000")?.1 == "AIzaSyFAKE-KEY-FOR-TESTS-ONLY-000000000")
        #expect(APIKeyInClientRule.keyShape(in: "AIzaSyTOO-SHORT") == nil)
        #expect(APIKeyInClientRule.keyShape(in: "sk-ant-api03-FAKEFAKEFAKEFAKE0000")?.0 == "a secret API key")
        #expect(APIKeyInClientRule.keyShape(in: "task-ant-api03-FAKEFAKEFAKEFAKE0000") == nil)
        #expect(APIKeyInClientRule.keyShape(in: "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.c2lnbmF0dXJlMDAw")?.0 == "a JSON Web Token")
        #expect(APIKeyInClientRule.keyShape(in: "let t = \"eyJhbGciOiJIUzI1NiJ9.eyJ4IjoxfQ.abc\"")?.0 == "a JSON Web Token")
        #expect(APIKeyInClientRule.keyShape(in: "eyJust.one.word") == nil)
        #expect(APIKeyInClientRule.looksLikeSecret("q8ZtR2vX9pLm4NcW7yKs3HbJ6dFa1GeU"))
        #expect(!APIKeyInClientRule.looksLikeSecret("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa1"))
        #expect(!APIKeyInClientRule.looksLikeSecret("quote.fetchedAt"))
        #expect(APIKeyInClientRule.keyParameter(in: ":generateContent?KEY=") == "key=")
        #expect(APIKeyInClientRule.keyParameter(in: "https://x/v1?alt=json&api_key=abc") == "api_key=")
        #expect(APIKeyInClientRule.keyParameter(in: "https://x/v1?monkey=1&keys=2") == nil)
        #expect(APIKeyInClientRule.keyParameter(in: "key=abc") == nil)
        #expect(APIKeyInClientRule.redacted("AIzaSyFAKE-KEY-FOR-TESTS-ONLY-000000000") == "`AIzaSy…` (39 characters)")
    }

    @Test("Permitted background task ids with build variables match any text in the variable's place")
    func permittedPatterns() {
        #expect(BackgroundTaskSetupRule.isPermitted("com.example.app.sync", by: ["$(PRODUCT_BUNDLE_IDENTIFIER).sync"]))
        #expect(!BackgroundTaskSetupRule.isPermitted("com.example.app.refresh", by: ["$(PRODUCT_BUNDLE_IDENTIFIER).sync"]))
        #expect(BackgroundTaskSetupRule.isPermitted("com.example.refresh", by: ["com.example.refresh"]))
        #expect(!BackgroundTaskSetupRule.isPermitted("com.example.refresh", by: []))
    }

    /// The definition the call graph's worklist must agree with: a function requests when a
    /// call in its body (closures included) sends a request, calls a library's network client, or
    /// runs, as the graph resolves it, a requesting function; repeated until nothing changes.
    static func requestingByFixedPoint(_ tree: AppSourceTree, _ graph: CallGraph) -> Set<FunctionRef> {
        let definedTypes = CallGraph.definedTypes(tree)
        var found = Set<FunctionRef>()
        var changed = true
        while changed {
            changed = false
            for (f, file) in tree.swiftFiles.enumerated() {
                for (k, function) in file.index.functions.enumerated() where !found.contains(FunctionRef(file: f, function: k)) {
                    let me = FunctionRef(file: f, function: k)
                    // A background task's handler runs when the task launches, not in the function that
                    // registers it; a closure an initialiser keeps runs later.
                    let calls = file.index.calls(inside: function).filter { call in
                        !file.index.enclosingBlocks(call.block).contains { block in
                            block.kind == .closure
                                && block.call.map {
                                    CallGraph.isTaskRegistration(file.index.calls[$0])
                                        || CallGraph.storesClosure(file.index.calls[$0], definedTypes: definedTypes)
                                } ?? false
                        }
                    }
                    let requests = calls.contains { call in
                        guard let c = graph.callIndex(call, inFile: f) else { return false }
                        return graph.direct[f][c] || graph.targets[f][c].requestsOnItsOwn
                            || graph.targets[f][c].functions.contains { $0 != me && found.contains($0) }
                    }
                    if requests {
                        found.insert(me)
                        changed = true
                    }
                }
            }
        }
        return found
    }

    @Test("The call graph's worklist finds the fixed point's requesting functions on every fixture and rule example")
    func requestingFunctionsAgree() throws {
        var trees = try LintFixtureTests.apps.map { try AppSourceTree.load(paths: [Fixtures.path("apps/\($0)")]) }
        for example in LintRules.all.flatMap(\.examples) {
            let tmp = try TemporaryDirectory()
            for (path, text) in example.files {
                let url = URL(fileURLWithPath: tmp.path).appendingPathComponent(path)
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try text.write(to: url, atomically: true, encoding: .utf8)
            }
            trees.append(try AppSourceTree.load(paths: [tmp.path]))
        }
        var nonEmpty = 0
        for tree in trees {
            let graph = CallGraph(tree)
            let fast = Set(graph.requesting.keys)
            #expect(fast == Self.requestingByFixedPoint(tree, graph), "\(tree.swiftFiles.map(\.path))")
            if !fast.isEmpty { nonEmpty += 1 }
        }
        #expect(nonEmpty >= 8)
    }
}
