import Foundation
import Testing
import WidgetQuotaGates
import WidgetQuotaTestSupport

/// The GitHub Actions example (`.github/workflows/widget-quota.yml.example`, also shown in
/// `docs/ci.md`) is valid YAML of the shape GitHub expects, and does what docs/ci.md says.
@Suite("workflow example") struct WorkflowExampleTests {
    static let path = ".github/workflows/widget-quota.yml.example"
    static let text = (try? String(contentsOf: Fixtures.packageURL(path), encoding: .utf8)) ?? ""

    @Test("the example parses as YAML with the keys GitHub Actions needs") func exampleParsesWithTheKeysActionsNeeds() throws {
        let root = try YAMLReader.parse(Self.text)
        #expect(root["name"]?.scalar == "widget quota")
        #expect(root["on"]?["pull_request"]?["paths"]?.list?.isEmpty == false, "runs only when the scenario or the app changes")
        #expect(root["concurrency"]?["cancel-in-progress"]?.scalar == "true")
        let quota = try #require(root["jobs"]?["quota"])
        #expect(quota["runs-on"]?.scalar == "ubuntu-24.04", "an image that ships Swift")
        let steps = try #require(quota["steps"]?.list)
        #expect(steps.allSatisfy { $0["uses"] != nil || $0["run"] != nil })
        // The tool comes from this repository's action; every other action is pinned to a commit.
        let uses = Self.allUses(root)
        #expect(uses.contains { $0.hasPrefix("widget-quota/widget-quota@") })
        for action in uses where !action.hasPrefix("widget-quota/") {
            let ref = action.split(separator: "@").last.map(String.init) ?? ""
            #expect(ref.count == 40 && ref.allSatisfy(\.isHexDigit), "\(action) is pinned to a full commit")
        }
        let runs = steps.compactMap { $0["run"]?.scalar }.joined(separator: "\n")
        #expect(runs.contains("widget-quota report") && runs.contains("widget-quota simulate --scenario \"$base_scenario\""))
        #expect(runs.contains("widget-quota diff work/base-report/report.json Reports/report.json"))
        // The cost change from the code change: lint reads both branches' designs, base's findings are
        // the baseline of head's, an older base scenario goes through its migrations.
        #expect(runs.contains("widget-quota lint \"work/base/$APP\"") && runs.contains("widget-quota lint \"$APP\""))
        #expect(runs.contains("--emit-scenario") && runs.contains("--design-name \"$CODE_DESIGN\""))
        #expect(runs.contains("--write-baseline") && runs.contains("--baseline work/base-baseline.json"))
        #expect(runs.contains("--new-findings") && runs.contains("widget-quota scenario --migrate"))
        #expect(runs.contains(">> \"$GITHUB_STEP_SUMMARY\""))
        #expect(!runs.contains("${{"), "run steps read expressions through env, never inline")
        let upload = try #require(steps.first { $0["uses"]?.scalar?.hasPrefix("actions/upload-artifact@") == true })
        #expect(upload["with"]?["path"]?.scalar == "Reports" && upload["if"]?.scalar == "${{ !cancelled() }}")
        #expect(upload["with"]?["overwrite"]?.scalar == "true", "a re-run of a failed job uploads again")
        let comment = try #require(root["jobs"]?["comment"])
        #expect(comment["needs"]?.scalar == "quota")
        #expect(comment["permissions"]?["pull-requests"]?.scalar == "write")
        #expect(comment["if"]?.scalar?.contains("dependabot[bot]") == true, "no comment from a read-only token")
        #expect(comment["if"]?.scalar?.hasPrefix("!cancelled()") == true, "a cancelled run posts nothing")
        #expect(!Self.text.contains("always()"), "a run cancelled by a newer push never posts or uploads")
        let script = (comment["steps"]?.list ?? []).compactMap { $0["run"]?.scalar }.joined(separator: "\n")
        // One sticky comment: the bot's own, found by the marker it starts with, then updated in place.
        #expect(script.contains("marker='\(ReportDiff.commentMarker)'"))
        #expect(script.contains("github-actions[bot]"))
        #expect(script.contains("--method PATCH") && script.contains("-F body=@comment.md"))
    }

    /// Every `uses:` value in the workflow.
    static func allUses(_ node: YAMLNode) -> [String] {
        switch node {
        case .scalar: return []
        case .list(let items): return items.flatMap(allUses)
        case .map(let members):
            return (members["uses"]?.scalar.map { [$0] } ?? []) + members.filter { $0.key != "uses" }.values.flatMap(allUses)
        }
    }

    @Test("every gate in the example parses") func everyGateInTheExampleParses() throws {
        let root = try YAMLReader.parse(Self.text)
        let lines = { (key: String) in
            (root["env"]?[key]?.scalar ?? "").split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        #expect(lines("CHANGE_GATES").count == 4 && lines("THRESHOLDS").count == 1)
        for gate in lines("CHANGE_GATES") { #expect(try ThresholdExpression.parse(gate).comparesReports, "\(gate)") }
        for threshold in lines("THRESHOLDS") { #expect(try !ThresholdExpression.parse(threshold).comparesReports, "\(threshold)") }
    }

    @Test("docs/ci.md shows the example as it is") func docsShowTheExample() throws {
        let page = try String(contentsOf: Fixtures.packageURL("docs/ci.md"), encoding: .utf8)
        let body = Self.text.split(separator: "\n", omittingEmptySubsequences: false).drop { $0.hasPrefix("#") }.joined(separator: "\n")
        #expect(!body.isEmpty && page.contains("```yaml\n" + body.trimmingCharacters(in: .newlines) + "\n```"))
    }

    @Test(
        "the reader rejects tabs, bad indentation and duplicate keys",
        arguments: ["a:\n\tb: 1", "a: 1\n   b: 2", "a: 1\na: 2", "- a\nb: 1"])
    func readerRejectsMalformedYAML(text: String) {
        #expect(throws: YAMLReader.Problem.self) { try YAMLReader.parse(text) }
    }
}

/// A reader for the block-style YAML subset workflows use: mappings, `-` lists (of scalars or
/// mappings), `|` and `>` block scalars, comments. Flow collections and quoted text stay scalars.
indirect enum YAMLNode: Equatable {
    case scalar(String)
    case map([String: YAMLNode])
    case list([YAMLNode])

    subscript(key: String) -> YAMLNode? {
        if case .map(let m) = self { return m[key] }
        return nil
    }
    var scalar: String? {
        if case .scalar(let s) = self { return s }
        return nil
    }
    var list: [YAMLNode]? {
        if case .list(let l) = self { return l }
        return nil
    }
}

struct YAMLReader {
    struct Problem: Error, CustomStringConvertible {
        var line: Int
        var text: String
        var description: String { "line \(line): \(text)" }
    }

    struct Line {
        var indent: Int
        var text: String
        var number: Int
    }

    var lines: [Line]
    var i = 0

    static func parse(_ text: String) throws -> YAMLNode {
        var reader = YAMLReader(lines: [])
        for (n, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let leading = raw.prefix { $0 == " " || $0 == "\t" }
            if leading.contains("\t") { throw Problem(line: n + 1, text: "a tab in the indentation") }
            reader.lines.append(Line(indent: leading.count, text: String(raw.dropFirst(leading.count)), number: n + 1))
        }
        let root = try reader.block()
        reader.skip()
        if reader.i < reader.lines.count { throw Problem(line: reader.lines[reader.i].number, text: "unexpected indentation") }
        return root
    }

    static func significant(_ line: Line) -> Bool { !line.text.isEmpty && !line.text.hasPrefix("#") }

    mutating func skip() {
        while i < lines.count, !Self.significant(lines[i]) { i += 1 }
    }

    mutating func block() throws -> YAMLNode {
        skip()
        guard i < lines.count else { return .scalar("") }
        return lines[i].text == "-" || lines[i].text.hasPrefix("- ") ? try list(lines[i].indent) : try map(lines[i].indent)
    }

    mutating func map(_ indent: Int) throws -> YAMLNode {
        var members = [String: YAMLNode]()
        while true {
            skip()
            guard i < lines.count, lines[i].indent >= indent else { break }
            let line = lines[i]
            guard line.indent == indent else { throw Problem(line: line.number, text: "unexpected indentation") }
            guard !line.text.hasPrefix("- ") else { throw Problem(line: line.number, text: "a list item among mapping keys") }
            guard let colon = line.text.range(of: ": ") ?? (line.text.hasSuffix(":") ? line.text.range(of: ":", options: .backwards) : nil)
            else { throw Problem(line: line.number, text: "expected \"key: value\"") }
            let key = String(line.text[..<colon.lowerBound])
            let rest = line.text[colon.upperBound...].trimmingCharacters(in: .whitespaces)
            guard members[key] == nil else { throw Problem(line: line.number, text: "duplicate key \"\(key)\"") }
            i += 1
            if rest == "|" || rest == ">" || rest == "|-" || rest == ">-" {
                var text = [String]()
                while i < lines.count, lines[i].text.isEmpty || lines[i].indent > indent {
                    text.append(lines[i].text)
                    i += 1
                }
                members[key] = .scalar(text.joined(separator: "\n"))
            } else if rest.isEmpty || rest.hasPrefix("#") {
                skip()
                if i < lines.count, lines[i].indent > indent || (lines[i].indent == indent && lines[i].text.hasPrefix("- ")) {
                    members[key] = lines[i].indent == indent ? try list(indent) : try block()
                } else {
                    members[key] = .scalar("")
                }
            } else {
                let value = rest.range(of: " #").map { String(rest[..<$0.lowerBound]) } ?? rest
                members[key] = .scalar(value.trimmingCharacters(in: .whitespaces))
            }
        }
        return .map(members)
    }

    mutating func list(_ indent: Int) throws -> YAMLNode {
        var items = [YAMLNode]()
        while true {
            skip()
            guard i < lines.count, lines[i].indent == indent, lines[i].text == "-" || lines[i].text.hasPrefix("- ") else { break }
            let content = String(lines[i].text.dropFirst(2))
            if content.isEmpty {
                i += 1
                items.append(try block())
            } else if content.contains(": ") || content.hasSuffix(":") {
                // A mapping item: its first key sits two columns in, like the keys below it.
                lines[i] = Line(indent: indent + 2, text: content, number: lines[i].number)
                items.append(try map(indent + 2))
            } else {
                items.append(.scalar(content))
                i += 1
            }
        }
        return .list(items)
    }
}
