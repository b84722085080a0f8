import Foundation
import Testing
import WidgetQuotaCLI
import WidgetQuotaGates
import WidgetQuotaSupport
import WidgetQuotaTestSupport

@Suite("diff command") struct DiffCommandTests {
    /// BASE: the tiny fixture; HEAD: cache-bgtask at 1,000 users costs 20% more (every percentile).
    static func reports(_ tmp: TemporaryDirectory) throws -> (base: String, head: String) {
        let base = try Fixtures.report("tiny-report.json")
        let head = base.replacingOccurrences(of: "\"mean\": 9.6, \"p5\": 9, \"p95\": 10", with: "\"mean\": 11.52, \"p5\": 11, \"p95\": 12")
        return (try tmp.file(base, name: "base.json"), try tmp.file(head, name: "head.json"))
    }

    @Test("a failed change gate exits one after writing the comment, with base head and verdict")
    func failedChangeGateExitsOne() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let (base, head) = try Self.reports(tmp)
        let out = tmp.path + "/diff.md"
        let gate = "change(costPerMonth{design=cache-bgtask,users=1000}) > 10%"
        let run = TestSupport.cli(["diff", base, head, "--out", out, "--fail-if", gate])
        #expect(run.code == .thresholdFailed)
        #expect(
            run.err.contains(
                "change gate FAILED: \(gate) (1 row compared; 1 in violation, worst design=cache-bgtask, users=1000: $9.60 → $11.52, +20.0%)"
            ),
            "\(run.err)")
        let md = try String(contentsOfFile: out, encoding: .utf8)
        #expect(md.contains("**1 of 1 fail-if change gate failed.**"))
        #expect(
            md.contains("| `\(gate)` | fail-if | **FAILED** | design=cache-bgtask, users=1000 | $9.60 | $11.52 | +20.0% | 1 of 1 |"),
            "\(md)")
    }

    @Test("--format json: the same comparison for machines, gates with their result, the new findings listed")
    func jsonFormat() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let (base, head) = try Self.reports(tmp)
        let lint = try tmp.file(
            #"{"schemaVersion": 1, "summary": {"baselined": 2}, "findings": [{"rule": "widget-network-call", "severity": "error", "#
                + #""file": "Widget/W.swift", "repositoryPath": "MyApp/Widget/W.swift", "line": 9, "message": "calls the API"}]}"#,
            name: "lint.json")
        let gate = "change(costPerMonth{design=cache-bgtask,users=1000}) > 10%"
        let run = TestSupport.cli(["diff", base, head, "--format", "json", "--new-findings", lint, "--fail-if", gate])
        #expect(run.code == .thresholdFailed, "the gate still decides the exit code")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
        #expect(root["schemaVersion"] as? Int == 1 && root["changedRows"] as? Int == 1)
        let rows = try #require(root["rows"] as? [[String: Any]])
        let changed = try #require(rows.first { $0["design"] as? String == "cache-bgtask" && $0["users"] as? Int == 1000 })
        let cost = try #require((changed["figures"] as? [[String: Any]])?.first { $0["metric"] as? String == "cost.perMonth" })
        #expect(cost["base"] as? Double == 9.6 && cost["head"] as? Double == 11.52 && cost["movement"] as? String == "worse")
        #expect(abs((cost["relativeChange"] as? Double ?? 0) - 0.2) < 1e-9)
        let gates = try #require(root["changeGates"] as? [[String: Any]])
        #expect(gates.count == 1 && gates[0]["passed"] as? Bool == false && gates[0]["expression"] as? String == gate)
        let findings = try #require(root["newFindings"] as? [String: Any])
        #expect(findings["known"] as? Int == 2)
        #expect(((findings["findings"] as? [[String: Any]])?.first?["file"] as? String) == "MyApp/Widget/W.swift")
        // Without --new-findings the key is there, null.
        let plain = TestSupport.cli(["diff", base, head, "--format", "json"])
        #expect(plain.code == .success && plain.out.contains("\"newFindings\" : null"))
    }

    @Test("a name in a report cannot inject Markdown or HTML into the comment")
    func namesAreEscaped() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let (base, head) = try Self.reports(tmp)
        // Reports written by anything: a design named with an image tag, a heading and emphasis.
        let evil = #"<img src=x onerror=alert(1)>\n## Approved **now** [link](http://x)"#
        for path in [base, head] {
            let text = try String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(of: "\"cache-bgtask\"", with: "\"\(evil)\"")
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        }
        let run = TestSupport.cli(["diff", base, head])
        #expect(run.code == .success, "\(run.err)")
        // Every `<img` is `\<img` (a paragraph's escape) or `&lt;img` (a table cell's): no raw tag.
        let out = run.out
        #expect(out.ranges(of: "<img").allSatisfy { r in r.lowerBound > out.startIndex && out[out.index(before: r.lowerBound)] == "\\" })
        #expect(!run.out.split(separator: "\n").contains { $0.hasPrefix("## Approved") }, "no heading of the name's")
        #expect(run.out.contains(#"\<img src=x onerror=alert(1)\> ## Approved \*\*now\*\* \[link\](http://x)"#), "\(run.out)")
    }

    @Test("a passing change gate exits zero") func passingChangeGateExitsZero() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let (base, head) = try Self.reports(tmp)
        let run = TestSupport.cli([
            "diff", base, head, "--fail-if", "change(costPerMonth{design=cache-bgtask}) > 25%", "--fail-if", "tierChange() > 0",
        ])
        #expect(run.code == .success, "\(run.err)")
        #expect(run.err.contains("change gate passed: change(costPerMonth{design=cache-bgtask}) > 25% (2 rows compared; 0 in violation"))
        #expect(run.out.contains("All 2 fail-if change gates passed."))
    }

    @Test(
        "a malformed or unmatched change gate is a data error before anything is written",
        arguments: ["change(costPerMonth > 10%", "change(costPerMonth{design=nope}) > 10%", "tierChange(tier=free) > 0"])
    func malformedChangeGateIsADataError(gate: String) throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let (base, head) = try Self.reports(tmp)
        let out = tmp.path + "/diff.md"
        let run = TestSupport.cli(["diff", base, head, "--out", out, "--fail-if", gate])
        #expect(run.code == .dataError)
        #expect(run.err.contains("threshold '\(gate)'"), "\(run.err)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    /// A device is not a report: said as such, not as "permission denied".
    @Test("a device as a report is unreadable, and said why") func deviceAsReport() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let (_, head) = try Self.reports(tmp)
        let run = TestSupport.cli(["diff", "/dev/null", head])
        #expect(run.code == .noInput)
        #expect(run.err.contains("/dev/null: cannot read: it is a character device, not a file"), "\(run.err)")
    }

    /// A report of another shape is refused, not compared key by key as if it were this one's.
    @Test(
        "a schemaVersion diff does not read, or none, is refused with the versions it reads",
        arguments: [
            ("\"schemaVersion\": 99,", "schemaVersion 99 is not one diff reads (it reads 1)"),
            ("", "no \"schemaVersion\"; diff reads schemaVersion 1"),
            ("\"schemaVersion\": \"1\",", "schemaVersion \"1\" (text, not a number) is not one diff reads"),
        ])
    func unknownSchemaVersionIsRefused(line: String, message: String) throws {
        let tmp = try TemporaryDirectory()
        let (base, _) = try Self.reports(tmp)
        let text = try Fixtures.report("tiny-report.json").replacingOccurrences(of: "\"schemaVersion\": 1,", with: line)
        let other = try tmp.file(text, name: "other.json")
        for (a, b) in [(base, other), (other, base)] {
            let run = TestSupport.cli(["diff", a, b])
            #expect(run.code == .dataError)
            #expect(run.err.contains(other + ": " + message), "\(run.err)")
        }
    }

    @Test("--format github: an annotation per failed gate or threshold on standard output, the Markdown to --out")
    func githubAnnotations() throws {
        let tmp = try TemporaryDirectory()
        let (base, head) = try Self.reports(tmp)
        let out = tmp.path + "/diff.md"
        let run = TestSupport.cli([
            "diff", base, head, "--format", "github", "--out", out, "--quiet",
            "--fail-if", "change(costPerMonth{design=cache-bgtask,users=1000}) > 10%",
            "--fail-if", "change(costPerMonth{design=cache-bgtask,users=1000}) > 50%",
        ])
        #expect(run.code == .thresholdFailed)
        let lines = run.out.split(separator: "\n")
        #expect(lines.count == 1, "only the failed gate: \(run.out)")
        #expect(
            lines.first?.hasPrefix(
                "::error title=widget-quota change gate FAILED::change(costPerMonth{design=cache-bgtask,users=1000}) > 10%25: ") == true)
        #expect(try String(contentsOfFile: out, encoding: .utf8).hasPrefix(ReportDiff.commentMarker))
        let simulate = TestSupport.cli([
            "simulate", "--runs", "1", "--sample-users", "20", "--users", "20", "--designs", "direct", "--format", "github",
            "--warn-if", "requestsPerMonth > 1", "--fail-if", "requestsPerMonth < 0",
        ])
        #expect(simulate.code == .success)
        #expect(simulate.out.hasPrefix("::warning title=widget-quota threshold warning::requestsPerMonth > 1: "), "\(simulate.out)")
        #expect(simulate.out.split(separator: "\n").count == 1, "no report on standard output, no annotation for a pass")
    }

    @Test("simulate refuses a change gate, naming diff") func simulateRefusesAChangeGate() {
        let run = TestSupport.cli(["simulate", "--runs", "1", "--sample-users", "5", "--fail-if", "change(costPerMonth) > 10%"])
        #expect(run.code == .dataError)
        #expect(run.err.contains("use them with `widget-quota diff BASE.json HEAD.json`"))
        #expect(run.out.isEmpty)
    }
}
