import Foundation
import WidgetQuotaModel
import WidgetQuotaSwiftSource

/// The figures of the design the code implies: its cache TTL, reload policy, background interval,
/// reload calls, timeout and output-token cap.
extension DesignCodeReader {
    /// The cache TTL as `policy-shorter-than-ttl` reads it (`PolicyShorterThanTTLRule.cacheTTL`),
    /// only when the code compares something with it: a constant that is never compared is no
    /// TTL the fetch obeys (a `maxAge` of a parser, a CloudKit setting), and the TTL is assumed.
    func ttlConstant() -> (name: String, seconds: Double)? {
        guard let ttl = PolicyShorterThanTTLRule.cacheTTL(in: tree), ttl.compared else { return nil }
        return (String(ttl.name.split(separator: ".").last ?? Substring(ttl.name)), ttl.seconds)
    }

    /// True when the entry's code names the TTL constant or a staleness check (`isStale`, `age`).
    func checksCache(_ entry: Entry, ttlName: String?) -> Bool {
        let index = tree.swiftFiles[entry.fileNumber].index
        let block = index.blocks[entry.block]
        let end = min(block.close, index.tokens.count)
        for k in block.open..<end where index.tokens[k].kind == .identifier {
            let word = index.tokens[k].text
            if word == ttlName { return true }
            // `isStale: false` passes a value and `isStale = …` sets one; neither checks anything.
            let next = (k + 1..<end).first { index.tokens[$0].kind != .comment }.map { index.tokens[$0].text }
            if word.lowercased().contains("stale") && next != ":" && next != "=" { return true }
        }
        return false
    }

    /// The `policy:` of the timelines the extension returns: `.atEnd`, `.never` or `.after(date)`
    /// with the date's offset from now.
    /// Of several widgets, the policy of one whose timeline requests (`preferred`) decides: a
    /// fetching weather widget's `.after(30 min)`, not a timer widget's `.never`. Within that, a
    /// timeline on the main path comes before one in a fallback (a `guard`'s `else`, a `catch`):
    /// the error path's `.atEnd` is not the widget's policy.
    func reloadPolicy(preferring preferred: [Entry]) -> Design.ReloadPolicy? {
        var candidates = [(file: AppSwiftFile, call: SwiftCall, rank: Int)]()
        for (n, file) in tree.swiftFiles.enumerated() where file.role == .widgetExtension {
            for call in TimelinePolicies.timelines(in: file.index) {
                let inPreferred = preferred.contains { $0.fileNumber == n && file.index.isBlock(call.block, inside: $0.block) }
                let fallback = file.index.isInside(call, .guardElse) || file.index.isInside(call, .catchBlock)
                candidates.append((file, call, (inPreferred ? 0 : 2) + (fallback ? 1 : 0)))
            }
        }
        for (file, call, _) in (0..<4).flatMap({ rank in candidates.filter { $0.rank == rank } }) {
            let index = file.index
            guard let policy = TimelinePolicies.policyTokens(index, call) else { continue }
            let text = index.text(policy)
            // A choice (`playing ? .atEnd : .never`) is read as the policy that reloads.
            let after = index.calls.first { $0.callee == ".after" && policy.contains($0.token) }
            if after == nil && text.contains(".atEnd") { return .atEnd }
            if after == nil && text.contains(".never") { return .never }
            guard after != nil else { continue }
            if let date = after?.arguments.first, let seconds = offsetSeconds(file, date.tokens) {
                return .after(minutes: seconds / 60)
            }
        }
        return nil
    }

    /// `request.earliestBeginDate = Date(timeIntervalSinceNow: X)` (the largest when several).
    func earliestBeginSeconds() -> Double? {
        var found: Double?
        for file in tree.swiftFiles where file.role != .widgetExtension {
            for a in file.index.assignments where a.target.hasSuffix("earliestBeginDate") {
                if let s = offsetSeconds(file, a.value) { found = max(found ?? 0, s) }
            }
        }
        return found
    }

    /// The offset from now of a date expression: `Date().addingTimeInterval(X)`,
    /// `Date(timeIntervalSinceNow: X)`, `Calendar.current.date(byAdding: .minute, value: N, to: …)`,
    /// or a constant holding one of these.
    func offsetSeconds(_ file: AppSwiftFile, _ range: Range<Int>, depth: Int = 0) -> Double? {
        let index = file.index
        let tokens = range.filter { $0 < index.tokens.count }
        if tokens.count == 1, index.tokens[tokens[0]].kind == .identifier, depth < 3,
            let c = index.constants.last(where: {
                $0.name == index.tokens[tokens[0]].text && $0.location < index.tokens[tokens[0]].location
            })
        {
            return offsetSeconds(file, c.value, depth: depth + 1)
        }
        for call in index.calls where range.contains(call.token) {
            if call.name == "addingTimeInterval", let a = call.arguments.first {
                return TimelinePolicies.offsetsNow(index, call) ? value(file, a.tokens) : nil
            }
            if call.name == "Date", let a = call.arguments.first(where: { $0.label == "timeIntervalSinceNow" }) {
                return value(file, a.tokens)
            }
            if call.name == "date", let components = call.arguments.first(where: { $0.label == "byAdding" }),
                !call.arguments.contains(where: { $0.label == "value" }),
                let seconds = TimelinePolicies.dateComponentsSeconds(index, components.tokens)
            {
                return seconds
            }
            if call.name == "date", let unit = call.arguments.first(where: { $0.label == "byAdding" }),
                let amount = call.arguments.first(where: { $0.label == "value" }), let n = value(file, amount.tokens)
            {
                switch index.text(unit.tokens) {
                case ".second": return n
                case ".minute": return n * 60
                case ".hour": return n * 3600
                case ".day": return n * 86_400
                default: return nil
                }
            }
        }
        // `Date().nextUpdateTime`, `Date.now.nextRefresh`: a computed property of an extension
        // of `Date` read on now, whose getter offsets `self`.
        if depth < 3, let k = tokens.last, index.tokens[k].kind == .identifier, tokens.count >= 3, index.tokens[k - 1].is("."),
            Self.isNow(index.tokens, before: k - 1)
        {
            for other in tree.swiftFiles {
                for getter in other.index.functions where getter.isGetter && getter.name == index.tokens[k].text {
                    guard getter.typeName == "Date", let body = getter.body else { continue }
                    let b = other.index.blocks[body]
                    if let seconds = selfOffsetSeconds(other, b.open..<b.close) { return seconds }
                }
            }
        }
        return nil
    }

    /// True when the tokens ending before `dot` say now: `Date()`, `Date.now`, `.now`.
    static func isNow(_ t: [SwiftToken], before dot: Int) -> Bool {
        if dot >= 3, t[dot - 1].is(")"), t[dot - 2].is("("), t[dot - 3].text == "Date" { return true }
        return dot >= 1 && t[dot - 1].text == "now" && (dot < 3 || !t[dot - 3].is(")"))
    }

    /// In a getter of an extension of `Date`: the first `self.addingTimeInterval(X)` (or a
    /// bare `addingTimeInterval(X)`), the offset from the date the property is read on.
    func selfOffsetSeconds(_ file: AppSwiftFile, _ range: Range<Int>) -> Double? {
        for call in file.index.calls where range.contains(call.token) && call.name == "addingTimeInterval" {
            guard call.callee == "addingTimeInterval" || call.callee == "self.addingTimeInterval", let a = call.arguments.first else {
                continue
            }
            return value(file, a.tokens)
        }
        return nil
    }

    /// A number: arithmetic of this file's constants, or a constant of another file named as
    /// `Type.name` or `name`.
    func value(_ file: AppSwiftFile, _ range: Range<Int>) -> Double? {
        if let v = file.index.numericValue(range) { return v }
        let text = file.index.text(range).replacingOccurrences(of: " ", with: "")
        guard let last = text.split(separator: ".").last, text.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "." || $0 == "_" })
        else { return nil }
        let typeName = text.split(separator: ".").dropLast().last.map(String.init)
        var fallback: Double?
        for other in tree.swiftFiles {
            guard let c = other.index.constant(named: String(last)), let v = other.index.numericValue(ofConstant: c.name) else { continue }
            let owner = other.index.types.first { t in t.body.map { other.index.isBlock(c.block, inside: $0) } ?? false }
            if typeName == nil || owner?.name == typeName { return v }
            fallback = fallback ?? v
        }
        return fallback
    }

    /// How the app asks WidgetKit to reload, the costliest pattern found: on every foreground
    /// (a reload in one of `foregroundBlocks` that makes no request there), after every fetch (a reload in a `catch`), once after a successful fetch, or never.
    func reloadCalls(foreground foregroundBlocks: [Entry]) -> Design.ReloadCalls {
        var found = Set<Design.ReloadCalls>()
        for (n, file) in tree.swiftFiles.enumerated() where file.role != .widgetExtension {
            let index = file.index
            for call in index.calls where SourceVocabulary.reloadCalls.contains(String(call.name)) {
                if index.isInside(call, .catchBlock) {
                    found.insert(.everyFetch)
                } else if foregroundBlocks.contains(where: { $0.fileNumber == n && index.isBlock(call.block, inside: $0.block) }),
                    !callsInside(n, call.block ?? 0).contains(where: { isRequest($0, inFile: n) })
                {
                    found.insert(.everyForeground)
                } else {
                    found.insert(.onceOnSuccess)
                }
            }
        }
        for pattern in [Design.ReloadCalls.everyForeground, .everyFetch, .onceOnSuccess] where found.contains(pattern) {
            return pattern
        }
        return .never
    }

    /// The longest `timeoutInterval` set on a request; 60 s (the default) when a `URLRequest` is
    /// built in a function that sets none, or a request is sent with a bare URL (`data(from:)`).
    func timeoutSeconds() -> Double? {
        var longest: Double?
        for file in tree.swiftFiles {
            let index = file.index
            var byFunction = [Int: [Double]]()  // function body → timeouts set in it
            for a in index.assignments where a.target.hasSuffix("timeoutInterval") || a.target.hasSuffix("timeoutIntervalForRequest") {
                guard let v = value(file, a.value) else { continue }
                byFunction[index.enclosingFunction(a.block)?.body ?? -1, default: []].append(v)
            }
            for call in index.calls where call.callee == "URLRequest" {
                let values = byFunction[index.enclosingFunction(of: call)?.body ?? -1] ?? []
                let seconds = values.max() ?? (call.labels.contains("timeoutInterval") ? nil : 60)
                if let seconds { longest = max(longest ?? 0, seconds) }
                if let arg = call.arguments.first(where: { $0.label == "timeoutInterval" }), let v = value(file, arg.tokens) {
                    longest = max(longest ?? 0, v)
                }
            }
            // `data(from: url)` sends a request with the default timeout.
            if index.calls.contains(where: { SourceVocabulary.isDirectRequest($0) && $0.labels.first == "from" }) {
                longest = max(longest ?? 0, 60)
            }
        }
        return longest
    }

    /// The largest output-token cap in the code: a `"maxOutputTokens": 80` pair in a dictionary
    /// or inside a JSON string, an assignment or an argument labelled with a cap key.
    func outputTokenCap() -> Int? {
        var cap: Int?
        func note(_ v: Double?) { if let v, v > 0, v < 1e7 { cap = max(cap ?? 0, Int(v)) } }
        for file in tree.swiftFiles {
            let index = file.index
            for string in index.strings where Self.mentionsTokens(string.value) {
                let k = string.token
                if DesignReader.capKeys.contains(string.value) {
                    if k + 2 < index.tokens.count, index.tokens[k + 1].is(":") {
                        note(Double(index.tokens[k + 2].text.replacingOccurrences(of: "_", with: "")))
                    }
                } else {
                    for key in DesignReader.capKeys { note(Self.number(after: "\"\(key)\"", in: string.value)) }
                }
            }
            for a in index.assignments where DesignReader.capKeys.contains(where: { a.target.hasSuffix($0) }) {
                note(value(file, a.value))
            }
            for call in index.calls {
                for arg in call.arguments where DesignReader.capKeys.contains(arg.label ?? "") { note(value(file, arg.tokens)) }
            }
        }
        return cap
    }

    /// True when `text` holds "oken" (`maxOutputTokens`, `max_tokens`): a byte scan, so that
    /// only those strings are searched for a cap key.
    static func mentionsTokens(_ text: String) -> Bool {
        let needle: [UInt8] = Array("oken".utf8)
        var matched = 0
        for byte in text.utf8 {
            matched = byte == needle[matched] ? matched + 1 : (byte == needle[0] ? 1 : 0)
            if matched == needle.count { return true }
        }
        return false
    }

    /// The number after `key` and a colon in JSON text.
    static func number(after key: String, in text: String) -> Double? {
        guard let r = text.range(of: key) else { return nil }
        let rest = text[r.upperBound...].drop { $0 == " " || $0 == ":" }
        return Double(rest.prefix { $0.isNumber })
    }
}
