import Foundation
import WidgetQuotaModel
import WidgetQuotaSupport

/// What a project tells `lint` about itself: rules to skip, severities to change, paths to leave
/// out. Read from `.widget-quota-lint.json` in the linted folder or from `--config FILE`:
///
/// ```json
/// {"disable": ["retry-loop"], "severity": {"request-timeout": "error"}, "exclude": ["Pods/**", "*Tests/**"]}
/// ```
///
/// Every key is optional; an unknown key, an unknown rule id or an unknown severity is an error
/// that names the file and line and suggests the nearest valid word.
public struct LintConfiguration: Sendable, Equatable {
    /// The file name looked up in the linted folder.
    public static let fileName = ".widget-quota-lint.json"

    /// Rules whose findings are dropped (counted as suppressed).
    public var disabled: Set<ChecklistRule>
    /// Severities that replace a rule's default.
    public var severities: [ChecklistRule: FindingSeverity]
    /// Glob patterns of paths (relative to the linted folder) that are not read.
    public var exclude: [String]

    /// Rules `disabled`, severities changed per rule, and paths excluded (glob patterns).
    public init(disabled: Set<ChecklistRule> = [], severities: [ChecklistRule: FindingSeverity] = [:], exclude: [String] = []) {
        self.disabled = disabled
        self.severities = severities
        self.exclude = exclude
    }

    /// Reads the configuration at `path`.
    package static func load(path: String) throws -> LintConfiguration {
        let data = try InputFile.contents(of: path)
        return try decode(data, file: InputFile.name(path))
    }

    /// The configuration in `folder`'s `.widget-quota-lint.json`, or nil when the folder has none.
    package static func find(in folder: String) throws -> LintConfiguration? {
        let path = URL(fileURLWithPath: folder).appendingPathComponent(fileName).path
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        return try load(path: path)
    }

    /// Parses configuration JSON strictly; `file` names the source in messages.
    package static func decode(_ data: Data, file: String = fileName) throws -> LintConfiguration {
        let data = JSONSyntax.withoutByteOrderMark(data)
        if data.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            throw WidgetQuotaError.emptyInput(file: file)
        }
        try WidgetQuotaError.checkJSONSyntax(data, file: file)
        let text = String(decoding: data, as: UTF8.self)
        func fail(_ problem: String, near word: String? = nil) -> WidgetQuotaError {
            .malformedInput(file: file, line: word.flatMap { line(ofQuoted: $0, in: text) }, problem: problem)
        }
        guard let root = (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) as? [String: Any] else {
            throw fail("expected a JSON object with the keys disable, severity, exclude")
        }
        let keys = ["disable", "severity", "exclude"]
        for key in root.keys.sorted() where !keys.contains(key) {
            let hint = Levenshtein.nearest(to: key, in: keys).map { "; did you mean \"\($0)\"?" } ?? ""
            throw fail("unknown key \(quoted(key))\(hint); the keys are disable, severity, exclude", near: key)
        }
        var configuration = LintConfiguration()
        if let value = root["disable"] {
            guard let ids = value as? [Any], let names = ids as? [String], names.count == ids.count else {
                throw fail("disable: expected an array of rule ids", near: "disable")
            }
            for name in names {
                configuration.disabled.insert(try Self.rule(named: name, at: "disable", fail: fail))
            }
        }
        if let value = root["severity"] {
            guard let map = value as? [String: Any] else {
                throw fail("severity: expected an object of rule id → note, warning or error", near: "severity")
            }
            for (name, level) in map.sorted(by: { $0.key < $1.key }) {
                let named = try Self.rule(named: name, at: "severity", fail: fail)
                let levels = FindingSeverity.allCases.map(\.rawValue)
                guard let word = level as? String, let severity = FindingSeverity(rawValue: word) else {
                    let word = (level as? String) ?? "\(level)"
                    let hint = Levenshtein.nearest(to: word, in: levels).map { "; did you mean \"\($0)\"?" } ?? ""
                    throw fail("severity of \(name): unknown severity \(quoted(word))\(hint); expected note, warning or error", near: name)
                }
                configuration.severities[named] = severity
            }
        }
        if let value = root["exclude"] {
            guard let items = value as? [Any], let patterns = items as? [String], patterns.count == items.count else {
                throw fail("exclude: expected an array of path patterns", near: "exclude")
            }
            for pattern in patterns where pattern.isEmpty {
                throw fail("exclude: an empty pattern", near: "exclude")
            }
            configuration.exclude = patterns
        }
        return configuration
    }

    /// The rule called `name`, or an error that suggests the nearest id.
    static func rule(named name: String, at key: String, fail: (String, String?) -> WidgetQuotaError) throws -> ChecklistRule {
        if let rule = ChecklistRule(rawValue: name) { return rule }
        let ids = ChecklistRule.allCases.map(\.rawValue)
        let hint = Levenshtein.nearest(to: name, in: ids).map { "; did you mean \"\($0)\"?" } ?? ""
        throw fail("\(key): unknown rule id \(quoted(name))\(hint); the rules are listed in docs/lint.md", name)
    }

    /// The 1-based line of the first `"word"` in `text`.
    static func line(ofQuoted word: String, in text: String) -> Int? {
        guard let range = text.range(of: "\"" + word + "\"") else { return nil }
        return text[..<range.lowerBound].reduce(1) { $1 == "\n" ? $0 + 1 : $0 }
    }

    // MARK: Paths

    /// Whether `path` (relative to the linted folder, `/`-separated) matches an `exclude` pattern.
    ///
    /// `*` matches within one path component, `**` across components (`Pods/**`, `**/Generated/*`),
    /// `?` one character; a pattern that matches a folder excludes everything below it.
    package func isExcluded(_ path: String) -> Bool {
        exclude.contains { Self.glob($0, matches: path) }
    }

    /// Glob matching of `pattern` against `path`, or against any folder that holds `path`.
    static func glob(_ pattern: String, matches path: String) -> Bool {
        let p = Array(pattern.utf8)
        let s = Array(path.utf8)
        if match(p[...], s[...]) { return true }
        // A pattern naming a folder excludes the files below it.
        for (i, byte) in s.enumerated() where byte == UInt8(ascii: "/") && match(p[...], s[..<i]) {
            return true
        }
        return false
    }

    /// Wildcard matching, memoised over (pattern index, path index): quadratic at worst, and
    /// patterns are short.
    private static func match(_ p: ArraySlice<UInt8>, _ s: ArraySlice<UInt8>) -> Bool {
        let p = Array(p)
        let s = Array(s)
        let slash = UInt8(ascii: "/")
        let star = UInt8(ascii: "*")
        var memo = [Int: Bool]()
        func go(_ i: Int, _ j: Int) -> Bool {
            let key = i * (s.count + 1) + j
            if let known = memo[key] { return known }
            var result = false
            if i == p.count {
                result = j == s.count
            } else if p[i] == star && i + 1 < p.count && p[i + 1] == star {
                let next = i + 2
                // `**/` also matches no folder at all; `**` matches any run of characters.
                result = next < p.count && p[next] == slash && go(next + 1, j)
                var k = j
                while !result && k <= s.count {
                    result = go(next, k)
                    k += 1
                }
            } else if p[i] == star {
                var k = j
                while !result && k <= s.count {
                    result = go(i + 1, k)
                    if k < s.count && s[k] == slash { break }
                    k += 1
                }
            } else if j < s.count && (p[i] == s[j] || (p[i] == UInt8(ascii: "?") && s[j] != slash)) {
                result = go(i + 1, j + 1)
            }
            memo[key] = result
            return result
        }
        return go(0, 0)
    }

    // MARK: Applying

    /// The findings left after the `disable` list and the inline directives in `comments`, with
    /// the configured severities, in stable order; and how many were dropped.
    ///
    /// `comments` are the comments of the files read, with the 1-based line where each starts and
    /// its text (with or without the `//`). Findings in excluded files are dropped and not counted.
    package func apply(to findings: [Finding], comments: [(file: String, line: Int, text: String)]) -> (
        kept: [Finding], suppressed: Int
    ) {
        var fileScopes = [String: LintDirective.Rules]()
        var lineScopes = [String: [Int: LintDirective.Rules]]()
        for comment in comments {
            guard let directive = LintDirective.parse(comment.text) else { continue }
            switch directive.kind {
            case .disableFile:
                fileScopes[comment.file, default: .empty].formUnion(directive.rules)
            case .disable:
                for line in [comment.line, comment.line + 1] {
                    lineScopes[comment.file, default: [:]][line, default: .empty].formUnion(directive.rules)
                }
            case .disableNextLine:
                lineScopes[comment.file, default: [:]][comment.line + 1, default: .empty].formUnion(directive.rules)
            }
        }
        var kept = [Finding]()
        var suppressed = 0
        for var finding in findings where !isExcluded(finding.location.file) {
            let file = finding.location.file
            let byLine = finding.location.line.flatMap { lineScopes[file]?[$0] } ?? .empty
            if disabled.contains(finding.rule) || (fileScopes[file] ?? .empty).contains(finding.rule)
                || byLine.contains(finding.rule)
            {
                suppressed += 1
                continue
            }
            if let severity = severities[finding.rule] { finding.severity = severity }
            kept.append(finding)
        }
        return (Finding.sorted(kept), suppressed)
    }
}

/// An inline `widget-quota:` comment that names something other than a rule: it silences
/// nothing, and the report lists it (`LintReport.directiveProblems`).
public struct LintDirectiveProblem: Sendable, Equatable, Codable {
    /// Where the directive is.
    public var location: Finding.Location
    /// What is wrong with it.
    public var message: String

    package init(location: Finding.Location, message: String) {
        self.location = location
        self.message = message
    }
}

/// An inline comment that silences rules, as linters have them:
///
/// - `// widget-quota:disable rule-id[, rule-id]`: this line and the next;
/// - `// widget-quota:disable-next-line rule-id`: the next line only;
/// - `// widget-quota:disable-file rule-id`: the whole file.
///
/// `all` stands for every rule. Ids are separated by commas or spaces; ` -- ` starts a free-text
/// reason. An id that names no rule silences nothing and is reported as a `Problem`.
package struct LintDirective: Sendable, Equatable {
    /// Where a directive applies.
    package enum Kind: String, Sendable, CaseIterable {
        /// `widget-quota:disable`: the comment's own line and the next line.
        case disable
        /// `widget-quota:disable-next-line`: the next line only.
        case disableNextLine = "disable-next-line"
        /// `widget-quota:disable-file`: the whole file.
        case disableFile = "disable-file"
    }

    /// A set of rules, or every rule.
    package struct Rules: Sendable, Equatable {
        /// True for `all`.
        package var all: Bool
        /// The rules named.
        package var rules: Set<ChecklistRule>

        /// No rule.
        package static let empty = Rules(all: false, rules: [])

        package func contains(_ rule: ChecklistRule) -> Bool { all || rules.contains(rule) }

        mutating func formUnion(_ other: Rules) {
            all = all || other.all
            rules.formUnion(other.rules)
        }
    }

    /// A directive that names something other than a rule.
    package typealias Problem = LintDirectiveProblem

    /// The prefix that marks a directive inside a comment.
    package static let marker = "widget-quota:"

    /// How far it reaches.
    package var kind: Kind
    /// The rules it silences.
    package var rules: Rules
    /// Words in the id list that name no rule.
    package var unknown: [String]

    /// The directive in a comment's text, or nil when it holds none. A directive with no rule id
    /// is not one (`// widget-quota:disable` alone silences nothing; it is reported as a problem).
    package static func parse(_ text: String) -> LintDirective? {
        guard let range = text.range(of: marker) else { return nil }
        let rest = text[range.upperBound...]
        let kindWord = rest.prefix { $0.isLetter || $0 == "-" }
        guard let kind = Kind(rawValue: String(kindWord)) else {
            return LintDirective(kind: .disable, rules: .empty, unknown: [marker + kindWord])
        }
        var list = rest.dropFirst(kindWord.count)
        if let reason = list.range(of: "--") { list = list[..<reason.lowerBound] }
        if let close = list.range(of: "*/") { list = list[..<close.lowerBound] }
        let words = list.split { $0 == "," || $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" }.map(String.init)
        var rules = Rules.empty
        var unknown = [String]()
        for word in words {
            if word == "all" {
                rules.all = true
            } else if let rule = ChecklistRule(rawValue: word) {
                rules.rules.insert(rule)
            } else {
                unknown.append(word)
            }
        }
        if words.isEmpty { unknown.append("(no rule id)") }
        return LintDirective(kind: kind, rules: rules, unknown: unknown)
    }

    /// The directives in `comments` that name something other than a rule, each with the nearest
    /// rule id suggested.
    package static func problems(in comments: [(file: String, line: Int, text: String)]) -> [Problem] {
        var problems = [Problem]()
        let ids = ChecklistRule.allCases.map(\.rawValue) + ["all"]
        for comment in comments {
            guard let directive = parse(comment.text), !directive.unknown.isEmpty else { continue }
            for word in directive.unknown {
                let message: String
                if word == "(no rule id)" {
                    message = "\(marker)\(directive.kind.rawValue) names no rule; write a rule id or all"
                } else if word.hasPrefix(marker) {
                    let kinds = Kind.allCases.map(\.rawValue)
                    let hint =
                        Levenshtein.nearest(to: String(word.dropFirst(marker.count)), in: kinds)
                        .map { "; did you mean \"\(marker)\($0)\"?" } ?? ""
                    message = "unknown directive \(quoted(word))\(hint)"
                } else {
                    let hint = Levenshtein.nearest(to: word, in: ids).map { "; did you mean \"\($0)\"?" } ?? ""
                    message = "unknown rule id \(quoted(word)) in a \(marker)\(directive.kind.rawValue) comment\(hint)"
                }
                problems.append(Problem(location: .init(file: comment.file, line: comment.line), message: message))
            }
        }
        return problems.sorted { $0.location < $1.location }
    }
}
