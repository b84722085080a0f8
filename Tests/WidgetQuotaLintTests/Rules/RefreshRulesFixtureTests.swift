import Foundation
import Testing
import WidgetQuotaLint
import WidgetQuotaModel
import WidgetQuotaSwiftSource
import WidgetQuotaTestSupport

/// The refresh and request rules (policy, reloads, background task completion, timeouts, token
/// caps, retries) on the four fixture app trees: exactly the rows their `EXPECTED.md` lists.
@Suite("Refresh rules on the fixture apps")
struct RefreshRulesFixtureTests {
    static let rules: [any LintRule] = [
        PolicyShorterThanTTLRule(), ReloadMisuseRule(), BackgroundTaskCompletionRule(), RequestTimeoutRule(), OutputTokenCapRule(),
        RetryLoopRule(),
    ]
    static let ids = Set(rules.map(\.rule.rawValue))

    static func findings(_ app: String) throws -> [Finding] {
        let tree = try AppSourceTree.load(paths: [Fixtures.path("apps/\(app)")])
        return rules.flatMap { $0.check(LintSource(tree)) }
    }

    static func key(_ rule: String, _ file: String, _ line: Int) -> String { "\(rule) \(file):\(line)" }

    @Test("each rule reports exactly the Findings and Suppressed rows of its id", arguments: LintFixtureTests.apps)
    func exactRows(app: String) throws {
        let rows = LintFixtureTests.rows(try Fixtures.text("apps/\(app)/EXPECTED.md")).filter { Self.ids.contains($0.rule) }
        let expected = rows.filter { $0.section == "Findings" || $0.section == "Suppressed" }.map { Self.key($0.rule, $0.file, $0.line) }
        let findings = try Self.findings(app)
        let found = findings.map { Self.key($0.rule.rawValue, $0.location.file, $0.location.line ?? 0) }
        #expect(found.sorted() == expected.sorted(), "\(app): \(findings.map { "\($0.location) \($0.message)" })")
        for row in rows where row.section == "Must not trigger" {
            #expect(!found.contains(Self.key(row.rule, row.file, row.line)), "\(app): \(row)")
        }
    }

    @Test("messages and fixes are one line each and never print the fake key", arguments: LintFixtureTests.apps)
    func messages(app: String) throws {
        for f in try Self.findings(app) {
            for text in [f.message, f.fix] + (f.cost.map { [$0] } ?? []) {
                #expect(!text.isEmpty && !text.contains("\n"), "\(f.location): \(text)")
                #expect(!text.contains("AIzaSy"), "\(f.location): \(text)")
            }
        }
    }

    @Test("the figures: the broken app's 10-minute policy against its 6-hour TTL, three requests per refresh, the direct rate")
    func figures() throws {
        let broken = try Self.findings("broken-app")
        let policy = try #require(broken.first { $0.rule == .policyShorterThanTTL })
        #expect(policy.severity == .warning)
        #expect(policy.message.contains("10 min") && policy.message.contains("6 h") && policy.message.contains("HeadlinesCache.ttl"))
        let retry = try #require(broken.first { $0.rule == .retryLoop })
        #expect(retry.message.contains("up to 3 requests per background refresh"), "\(retry.message)")
        let direct = try #require(try Self.findings("direct-widget").first { $0.rule == .policyShorterThanTTL })
        #expect(direct.severity == .note)
        #expect(direct.message.contains("15 min") && direct.message.contains("≈ 96 getTimeline calls a day"), "\(direct.message)")
    }
}
