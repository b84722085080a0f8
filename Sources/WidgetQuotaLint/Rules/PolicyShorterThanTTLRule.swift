import Foundation
import WidgetQuotaModel
import WidgetQuotaSwiftSource

/// `policy-shorter-than-ttl`: the timeline policy asks for reloads far more often than the cache
/// the widget shows can change.
///
/// For each `Timeline(entries:policy:)` call, a `.after(date)` policy whose date is
/// `Date().addingTimeInterval(X)` (on any date), `Date(timeIntervalSinceNow: X)`,
/// `Calendar.current.date(byAdding: .minute, value: N, to: …)` or `.now + X` (directly, or
/// through a `let` of the same function) gives an interval in seconds when `X` is constant
/// arithmetic (numbers, constants of the tree, `Type.constant`). The cache TTL is a constant of
/// the tree whose name contains `ttl`, `maxAge`, `cacheDuration`, `staleAfter` or
/// `refreshInterval` (any case); one that is compared (`<`, `>`) with something is preferred, the
/// shortest when several are. A policy interval under half the TTL (`drasticFactor`) is a
/// warning at the `.after` token. Without a TTL, a policy in a timeline function that sends
/// requests sets the request rate: a note with the rate. `.atEnd` with a single entry asks for a
/// new timeline as soon as the entry shows: a note.
///
/// Blind spots: intervals that are not constant (read from settings, computed from the data), a
/// TTL held in a `var` or a configuration file, a TTL constant that names another cache.
package struct PolicyShorterThanTTLRule: LintRule {
    package static let description = LintRuleDescription(
        .policyShorterThanTTL, title: "Timeline policy no shorter than the cache TTL", severity: .warning,
        rationale: "Reloading more often than the cached content changes spends the daily reload budget on identical timelines.")
    package init() {}

    /// A policy interval below `ttl × drasticFactor` is "drastically shorter" than the TTL.
    package static let drasticFactor = 0.5

    /// Words that make a constant a cache TTL (compared lowercased).
    /// Phrases of a TTL constant's name, as lowercase words (see `isTTLName`).
    static let ttlPhrases = [
        "ttl", "max age", "maxage", "cache duration", "cache lifetime", "stale after", "refresh interval", "fresh for",
        "freshness interval", "cache for", "cache interval",
    ]

    package func check(_ source: LintSource) -> [Finding] {
        let tree = source.tree
        let ttl = Self.cacheTTL(in: tree)
        let platform = Platform()
        let budget = platform.reloadBudgetMin...max(platform.reloadBudgetMin, platform.reloadBudgetMax)
        var findings = [Finding]()
        // A file built only into the app holds no widget's timeline (a widget the extension does not build).
        for (f, file) in tree.swiftFiles.enumerated() where file.role != .app || file.targets.isEmpty {
            let index = file.index
            for timeline in TimelinePolicies.timelines(in: index) {
                guard let policy = TimelinePolicies.policyTokens(index, timeline) else { continue }
                let entries = timeline.arguments.first { $0.label == "entries" }?.tokens
                if let atEnd = policy.first(where: { index.tokens[$0].text == "atEnd" && $0 > 0 && index.tokens[$0 - 1].is(".") }),
                    let entries, Self.isSingleElementArray(index, entries)
                {
                    findings.append(
                        finding(
                            file.path, index.tokens[atEnd - 1].location,
                            "`.atEnd` with a single entry: WidgetKit asks for a new timeline as soon as it shows, as often as the budget allows",
                            fix: "Give the timeline several dated entries, or use `.after(date)` with the cache's TTL",
                            severity: .note))
                    continue
                }
                guard
                    let after = index.callIndices(between: policy.lowerBound - 1, and: policy.upperBound).lazy.map({ index.calls[$0] })
                        .first(where: { $0.callee == ".after" && !$0.arguments.isEmpty }),
                    let seconds = PolicyTTLArithmetic(tree: tree, file: f).interval(
                        after.arguments[0].tokens, before: after.token, in: after.block),
                    seconds > 0
                else { continue }
                let at = after.token > 0 && index.tokens[after.token - 1].is(".") ? index.tokens[after.token - 1].location : after.location
                let perDay = 86_400 / seconds
                if let ttl {
                    guard seconds < ttl.seconds * Self.drasticFactor else { continue }
                    var found = finding(
                        file.path, at,
                        "`.after(\(Self.duration(seconds)))` against a cache TTL of \(Self.duration(ttl.seconds)) (`\(ttl.name)`): "
                            + "\(Self.count(ttl.seconds / seconds)) timelines per change of the cache",
                        fix: ttl.visible
                            ? "Ask for the next timeline when the cache can have changed: `.after(Date().addingTimeInterval(\(ttl.name)))`"
                            : "Ask for the next timeline when the cache can have changed: `.after(Date().addingTimeInterval(ttl))`, "
                                + "with the cache's TTL (`\(ttl.name)` is private to its file: share it, or a copy of it)")
                    found.cost =
                        "≈ \(Self.count(perDay)) timeline reloads a day asked for (WidgetKit allows \(budget.lowerBound)–\(budget.upperBound)) "
                        + "instead of ≈ \(Self.count(86_400 / ttl.seconds))"
                    findings.append(found)
                } else {
                    let requests = source.refresh
                    guard let function = index.enclosingFunction(of: timeline), ["getTimeline", "timeline"].contains(function.name),
                        let body = function.body,
                        requests.calls(inFile: f, inside: body).contains(where: { requests.isRequest($0, inFile: f) })
                    else { continue }
                    var found = finding(
                        file.path, at,
                        "`.after(\(Self.duration(seconds)))` in a widget that calls the API on every \(function.name): "
                            + "≈ \(Self.count(perDay)) \(function.name) calls a day, each an API request",
                        fix: "Fetch in the app or a background task into an App Group cache, and set the policy to the cache's TTL",
                        severity: .note)
                    let low = Self.count(min(perDay, Double(budget.lowerBound)) * 30)
                    let high = Self.count(min(perDay, Double(budget.upperBound)) * 30)
                    found.cost =
                        "≈ \(low == high ? low : low + "–" + high) requests per user a month "
                        + "(WidgetKit's budget of \(budget.lowerBound)–\(budget.upperBound) reloads a day caps the \(Self.count(perDay)) asked for)"
                    findings.append(found)
                }
            }
        }
        return findings
    }

    /// True when `range` is an array literal of one element: `[entry]`.
    static func isSingleElementArray(_ index: SwiftFileIndex, _ range: Range<Int>) -> Bool {
        guard range.count >= 3, index.tokens[range.lowerBound].is("["), index.tokens[range.upperBound - 1].is("]") else { return false }
        var depth = 0
        for k in range {
            let t = index.tokens[k]
            if t.is("(") || t.is("[") || t.is("{") { depth += 1 }
            if t.is(")") || t.is("]") || t.is("}") { depth -= 1 }
            if depth == 1 && (t.is(",") || t.is(":")) { return false }
        }
        return true
    }

    /// The cache TTL the widget's data obeys: a constant named like one (`ttl`, `maxAge`,
    /// `cacheDuration`, `staleAfter`, `refreshInterval`, `freshFor`, as words of the name: a
    /// `throttleDuration` holds no `ttl`) with a positive value, declared in a file of the widget
    /// extension or one that opens the App Group (`UserDefaults(suiteName:)`,
    /// `containerURL(forSecurityApplicationGroupIdentifier:)`), or named there. A private
    /// `maxAge` of a CloudKit zone is not the widget's cache. Among them, one the code compares
    /// something with first (`compared`), then the shortest.
    static func cacheTTL(in tree: AppSourceTree) -> (seconds: Double, name: String, compared: Bool, visible: Bool)? {
        var candidates = [(seconds: Double, name: String, compared: Bool, visible: Bool)]()
        var comparedNames = Set<String>()
        for file in tree.swiftFiles { comparedNames.formUnion(self.comparedNames(in: file.index)) }
        // Names the widget's side mentions: every identifier of its files and of the files that open the App Group.
        var widgetSide = Set<Int>()
        var mentioned = Set<String>()
        for (f, file) in tree.swiftFiles.enumerated() {
            let opensGroup = file.index.calls.contains { call in
                call.labels.first == "suiteName" || call.labels.first == "forSecurityApplicationGroupIdentifier"
            }
            guard file.role == .widgetExtension || opensGroup else { continue }
            widgetSide.insert(f)
            for token in file.index.tokens where token.kind == .identifier { mentioned.insert(token.text) }
        }
        for (f, file) in tree.swiftFiles.enumerated() {
            let index = file.index
            for c in index.constants {
                guard isTTLName(c.name), let raw = index.numericValue(c.value), raw > 0 else { continue }
                guard widgetSide.contains(f) || mentioned.contains(c.name) else { continue }
                let lower = c.name.lowercased()
                let v = raw * (lower.hasSuffix("minutes") ? 60 : lower.hasSuffix("hours") ? 3600 : 1)
                let typeName = index.enclosingBlocks(c.block).first { $0.kind == .typeBody }.flatMap { $0.type }.map {
                    index.types[$0].name
                }
                // `age > Cache.ttl` names `Cache`'s: another type's `ttl` is not the one compared.
                let compared =
                    comparedNames.contains(c.name)
                    || typeName.map { comparedNames.contains(CallGraph.lastName($0) + "." + c.name) } ?? false
                // `private let ttl` / `fileprivate static let ttl`: the widget's code cannot name it.
                let visible = !Self.isPrivate(index, c)
                candidates.append((v, typeName.map { $0 + "." + c.name } ?? c.name, compared, visible))
            }
        }
        let preferred = candidates.contains { $0.compared } ? candidates.filter { $0.compared } : candidates
        return preferred.min { ($0.seconds, $0.name) < ($1.seconds, $1.name) }
    }

    /// True when a constant is declared `private` or `fileprivate` (its modifiers just before `let`).
    static func isPrivate(_ index: SwiftFileIndex, _ constant: SwiftConstant) -> Bool {
        let t = index.tokens
        guard var k = t.firstIndex(where: { $0.location == constant.location }) else { return false }
        var steps = 0
        while k > 0 && steps < 6 {
            k -= 1
            steps += 1
            let text = t[k].text
            if text == "private" || text == "fileprivate" { return true }
            guard ["static", "let", "var", "nonisolated", "final", "internal", "public", "package"].contains(text) else { return false }
        }
        return false
    }

    /// True when the words of `name` (split at case changes and `_`) hold one of `ttlPhrases`'
    /// phrases: `cacheTTL`, `CACHE_MAX_AGE`, `staleAfterMinutes`; not `throttleDuration`.
    static func isTTLName(_ name: String) -> Bool {
        let joined = " " + SourceVocabulary.words(of: name).joined(separator: " ") + " "
        return ttlPhrases.contains { joined.contains(" " + $0 + " ") }
    }

    /// The names that stand next to a comparison (`age > ttl`) on a line of `index`; a name
    /// written after a type (`age > Cache.ttl`) as `Cache.ttl` only.
    static func comparedNames(in index: SwiftFileIndex) -> Set<String> {
        let t = index.tokens
        var out = Set<String>()
        for k in t.indices where t[k].kind == .operator && ["<", ">", "<=", ">="].contains(t[k].text) {
            let line = t[k].location.line
            for j in max(0, k - 12)..<min(t.count, k + 12) where t[j].kind == .identifier && t[j].location.line == line {
                if j >= 2, t[j - 1].is("."), t[j - 2].kind == .identifier, DeclaredTypes.isTypeName(t[j - 2].text) {
                    out.insert(t[j - 2].text + "." + t[j].text)
                } else {
                    out.insert(t[j].text)
                }
            }
        }
        return out
    }

    /// `90 s`, `10 min`, `6 h`, `1.5 h`, `2 days`.
    static func duration(_ seconds: Double) -> String {
        func number(_ v: Double) -> String {
            v == v.rounded() ? String(Int(v)) : String(format: "%.1f", v)
        }
        if seconds < 60 { return number(seconds) + " s" }
        if seconds < 3_600 { return number(seconds / 60) + " min" }
        if seconds < 86_400 { return number(seconds / 3_600) + " h" }
        let days = seconds / 86_400
        return number(days) + (days == 1 ? " day" : " days")
    }

    /// A count rounded to a whole number, with thousands separated: `1,400`.
    static func count(_ v: Double) -> String {
        let n = Int(v.rounded())
        let digits = String(abs(n))
        var out = ""
        for (k, ch) in digits.enumerated() {
            if k > 0 && (digits.count - k) % 3 == 0 { out += "," }
            out.append(ch)
        }
        return (n < 0 ? "-" : "") + out
    }

    package var examples: [LintRuleExample] {
        let cache = """
            import Foundation
            struct Cache {
                static let ttl: TimeInterval = 6 * 60 * 60
                var isStale: Bool { Date().timeIntervalSince1970 - fetchedAt > Cache.ttl }
                var fetchedAt: Double { UserDefaults(suiteName: "group.com.example.app")?.double(forKey: "fetchedAt") ?? 0 }
            }
            """
        func widget(_ policy: String, before: String = "") -> String {
            """
            import WidgetKit
            struct Provider: TimelineProvider {
                func getTimeline(in context: Context, completion: @escaping (Timeline<Entry>) -> Void) {
                    let entry = Entry(date: Date())
                    \(before)
                    completion(Timeline(entries: [entry], policy: \(policy)))
                }
            }
            """
        }
        let direct = """
            import WidgetKit
            struct Provider: TimelineProvider {
                func getTimeline(in context: Context, completion: @escaping (Timeline<Entry>) -> Void) {
                    URLSession.shared.dataTask(with: URL(string: "https://api.example.com/tip")!) { _, _, _ in
                        let next = Date(timeIntervalSinceNow: 15 * 60)
                        completion(Timeline(entries: [Entry(date: Date())], policy: ↓.after(next)))
                    }.resume()
                }
            }
            """
        return [
            LintRuleExample(
                "the TTL the widget compares with is its quote cache's (2 h), not an image cache's of the same name (5 min)",
                files: [
                    "App/Caches.swift": """
                    import Foundation
                    enum ImageCache { static let ttl: TimeInterval = 5 * 60 }
                    enum QuoteCache { static let ttl: TimeInterval = 2 * 60 * 60 }
                    """,
                    "Widget/Provider.swift": widget(
                        "↓.after(Date().addingTimeInterval(30 * 60))",
                        before: "let fresh = Date().timeIntervalSince(entry.date) < QuoteCache.ttl"),
                ]),
            LintRuleExample(
                "a 10-minute policy against a 6-hour cache TTL",
                files: ["App/Cache.swift": cache, "Widget/Provider.swift": widget("↓.after(Date().addingTimeInterval(10 * 60))")]),
            LintRuleExample(
                "a 30-minute policy through a local constant and Calendar",
                files: [
                    "App/Cache.swift": cache,
                    "Widget/Provider.swift": widget(
                        "↓.after(next)", before: "let next = Calendar.current.date(byAdding: .minute, value: 30, to: Date())!"),
                ]),
            LintRuleExample(
                "a direct widget without a cache: the 15-minute policy sets the request rate (a note)",
                files: ["Widget/Provider.swift": direct]),
            LintRuleExample(
                "`.atEnd` with one entry asks for a new timeline at once (a note)",
                files: ["Widget/Provider.swift": widget("↓.atEnd")]),
            LintRuleExample(
                "a policy held in a `let` (`.atEnd` while something plays), and an interval written `10.minutes`",
                files: [
                    "App/Cache.swift": cache + "\nextension Int { var minutes: TimeInterval { TimeInterval(self) * 60 } }",
                    "Widget/Provider.swift": widget(
                        "policy", before: "let policy: TimelineReloadPolicy = entry.date > .now ? .never : ↓.atEnd"),
                    "Widget/Other.swift": widget("↓.after(Date.now.addingTimeInterval(10.minutes))")
                        .replacingOccurrences(of: "struct Provider", with: "struct OtherProvider"),
                ]),
            LintRuleExample(
                "a CloudKit zone's private maxAge and a throttle duration are not the widget's cache TTL",
                files: [
                    "App/CloudKitZone.swift": """
                    import Foundation
                    struct CloudKitZone {
                        private static let maxAge: TimeInterval = 5 * 60
                        private let redirectThrottleDuration: TimeInterval = 1
                        func isFresh(_ age: TimeInterval) -> Bool { age < Self.maxAge }
                    }
                    """,
                    "Widget/Provider.swift": widget(".after(Date().addingTimeInterval(60 * 60))"),
                ]),
            LintRuleExample(
                "a 30-minute policy written with DateComponents",
                files: [
                    "App/Cache.swift": cache,
                    "Widget/Provider.swift": widget(
                        "↓.after(next)", before: "let next = Calendar.current.date(byAdding: DateComponents(minute: 30), to: Date())!"),
                ]),
            LintRuleExample(
                "`completion(.init(entries:policy:))` is a timeline too",
                files: [
                    "App/Cache.swift": cache,
                    "Widget/Provider.swift": widget("↓.atEnd").replacingOccurrences(of: "completion(Timeline(", with: "completion(.init("),
                ]),
            LintRuleExample(
                "a second after the last entry is not a one-second policy; the preview branch's policy is not the widget's",
                files: [
                    "App/Cache.swift": cache,
                    "Widget/Provider.swift": """
                    import WidgetKit
                    struct Provider: TimelineProvider {
                        func getTimeline(in context: Context, completion: @escaping (Timeline<Entry>) -> Void) {
                            if context.isPreview {
                                completion(Timeline(entries: [Entry(date: .now)], policy: .after(Date().addingTimeInterval(60))))
                                return
                            }
                            let entries = (0..<12).map { Entry(date: Date().addingTimeInterval(Double($0) * 1800)) }
                            let now = Date()
                            completion(Timeline(entries: entries, policy: .after((entries.last?.date ?? now).addingTimeInterval(1))))
                        }
                    }
                    """,
                ]),
            LintRuleExample(
                "the policy is the cache's TTL, named through its type",
                files: ["App/Cache.swift": cache, "Widget/Provider.swift": widget(".after(Date().addingTimeInterval(Cache.ttl))")]),
            LintRuleExample(
                "a 4-hour policy is not drastically shorter than a 6-hour TTL",
                files: ["App/Cache.swift": cache, "Widget/Provider.swift": widget(".after(.now + 4 * 3600)")]),
            LintRuleExample(
                "no cache and no request: a short policy costs no API request",
                files: ["Widget/Provider.swift": widget(".after(Date().addingTimeInterval(60)) // .after(Date().addingTimeInterval(1))")]),
            LintRuleExample(
                "a policy in a string or a comment is not a policy",
                files: [
                    "App/Cache.swift": cache,
                    "Widget/Provider.swift": widget(
                        ".never",
                        before:
                            "// Timeline(entries: [entry], policy: .after(Date().addingTimeInterval(60)))\n let s = \"Timeline(entries: [e], policy: .atEnd)\""
                    ),
                ]),
        ]
    }
}

/// Constant arithmetic over a tree, as `policy-shorter-than-ttl` reads policy dates: numbers,
/// `+ - * /`, parentheses, `TimeInterval(…)`-style wrappers, the file's constants, and
/// `Type.constant` from any file of the tree.
struct PolicyTTLArithmetic {
    let tree: AppSourceTree
    let file: Int
    var index: SwiftFileIndex { tree.swiftFiles[file].index }

    /// Seconds from now of the date expression `range` (see `PolicyShorterThanTTLRule`); a lone
    /// name is followed to a `let` of the same function declared before `limit`.
    func interval(_ range: Range<Int>, before limit: Int, in block: Int?, depth: Int = 0) -> Double? {
        guard depth < 4, !range.isEmpty else { return nil }
        let t = index.tokens
        let names = range.filter { !(t[$0].is("!") || t[$0].is("?")) }
        if names.count == 1, t[names[0]].kind == .identifier {
            let function = index.enclosingFunction(block)
            let local = index.constants.last { c in
                c.name == t[names[0]].text && c.value.lowerBound < limit
                    && (function?.body.map { body in index.isBlock(c.block, inside: body) } ?? true)
            }
            guard let local else { return nil }
            return interval(local.value, before: local.value.lowerBound, in: local.block, depth: depth + 1)
        }
        for call in index.callIndices(between: range.lowerBound - 1, and: range.upperBound).map({ index.calls[$0] }) {
            if call.name == "addingTimeInterval", let a = call.arguments.first {
                return TimelinePolicies.offsetsNow(index, call) ? value(a.tokens) : nil
            }
            if call.callee == "Date", let a = call.arguments.first(where: { $0.label == "timeIntervalSinceNow" }) { return value(a.tokens) }
            if call.name == "date", let components = call.arguments.first(where: { $0.label == "byAdding" }),
                !call.arguments.contains(where: { $0.label == "value" })
            {
                return TimelinePolicies.dateComponentsSeconds(index, components.tokens)
            }
            if call.name == "date", let unit = call.arguments.first(where: { $0.label == "byAdding" }),
                let amount = call.arguments.first(where: { $0.label == "value" })
            {
                let units: [String: Double] = ["second": 1, "minute": 60, "hour": 3_600, "day": 86_400, "weekOfYear": 604_800]
                guard let u = unit.tokens.lazy.compactMap({ units[t[$0].text] }).first, let n = value(amount.tokens) else { return nil }
                return u * n
            }
        }
        // `.now + X`, `Date() + X`: the right side of a top-level `+`.
        var depthHere = 0
        for k in range {
            if t[k].is("(") || t[k].is("[") { depthHere += 1 }
            if t[k].is(")") || t[k].is("]") { depthHere -= 1 }
            if depthHere == 0 && t[k].kind == .operator && t[k].text == "+" {
                // Only an offset from now (`.now + X`, `Date() + X`), not from another date.
                let left = index.text(range.lowerBound..<k).replacingOccurrences(of: " ", with: "")
                guard [".now", "Date()", "Date.now", "now", "currentDate"].contains(left) else { return nil }
                return value((k + 1)..<range.upperBound)
            }
        }
        return nil
    }

    /// The value of constant arithmetic in `range`, or nil.
    func value(_ range: Range<Int>) -> Double? {
        if let v = index.numericValue(range) { return v }
        var parser = Parser(arithmetic: self, k: range.lowerBound, end: range.upperBound)
        guard let v = parser.sum(), parser.k == range.upperBound else { return nil }
        return v
    }

    /// The value of the constant `name` declared in the type `typeName` (any file), or in this file.
    func constant(_ name: String, in typeName: String?) -> Double? {
        for (f, swiftFile) in tree.swiftFiles.enumerated() where typeName != nil || f == file {
            let other = swiftFile.index
            for c in other.constants.reversed() where c.name == name {
                if let typeName {
                    let owner = other.enclosingBlocks(c.block).first { $0.kind == .typeBody }.flatMap { $0.type }.map {
                        other.types[$0].name
                    }
                    guard owner == typeName else { continue }
                }
                return other.numericValue(c.value)
            }
        }
        return nil
    }

    struct Parser {
        let arithmetic: PolicyTTLArithmetic
        var k: Int
        let end: Int
        var nesting = 0
        var t: [SwiftToken] { arithmetic.index.tokens }

        func isOperator(_ s: String) -> Bool { k < end && t[k].kind == .operator && t[k].text == s }

        mutating func sum() -> Double? {
            guard var v = product() else { return nil }
            while isOperator("+") || isOperator("-") {
                let plus = isOperator("+")
                k += 1
                guard let r = product() else { return nil }
                v = plus ? v + r : v - r
            }
            return v
        }

        mutating func product() -> Double? {
            guard var v = unary() else { return nil }
            while isOperator("*") || isOperator("/") {
                let times = isOperator("*")
                k += 1
                guard let r = unary(), times || r != 0 else { return nil }
                v = times ? v * r : v / r
            }
            return v
        }

        mutating func unary() -> Double? {
            guard k < end, nesting < 64 else { return nil }
            nesting += 1
            defer { nesting -= 1 }
            let s = t[k]
            if s.is("-") {
                k += 1
                return unary().map { -$0 }
            }
            if s.is("(") {
                k += 1
                guard let v = sum(), k < end, t[k].is(")") else { return nil }
                k += 1
                return v
            }
            if s.kind == .number {
                k += 1
                return Double(s.text.replacingOccurrences(of: "_", with: ""))
            }
            guard s.kind == .identifier || s.isKeyword("self") || s.isKeyword("Self") else { return nil }
            if ["TimeInterval", "Double", "Int", "Float", "CGFloat"].contains(s.text), k + 1 < end, t[k + 1].is("(") {
                k += 2
                guard let v = sum(), k < end, t[k].is(")") else { return nil }
                k += 1
                return v
            }
            var parts = [s.text]
            k += 1
            while k + 1 < end, t[k].is("."), t[k + 1].kind == .identifier {
                parts.append(t[k + 1].text)
                k += 2
            }
            let name = parts.removeLast()
            let owner = parts.last.flatMap { ["self", "Self"].contains($0) ? nil : $0 }
            return arithmetic.constant(name, in: owner)
        }
    }
}

extension PolicyShorterThanTTLRule {
    /// Something to check: a timeline built with a policy.
    package func hasSomethingToCheck(_ source: LintSource) -> Bool {
        source.tree.swiftFiles.contains { !TimelinePolicies.timelines(in: $0.index).isEmpty }
    }
}
