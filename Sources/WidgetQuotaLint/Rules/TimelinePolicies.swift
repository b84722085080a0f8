import Foundation
import WidgetQuotaSwiftSource

/// Where a widget's timeline policies are written, as `policy-shorter-than-ttl` and the design
/// reader both read them, so the rule and the emitted scenario agree.
enum TimelinePolicies {
    /// The timelines a file builds: `Timeline(entries:policy:)` and `.init(entries:policy:)`
    /// (`completion(.init(entries: [e], policy: .atEnd))`), leaving out those in a preview branch
    /// (`if context.isPreview { … }`, the `else` of `guard !context.isPreview`): the widget's
    /// real policy is elsewhere.
    static func timelines(in index: SwiftFileIndex) -> [SwiftCall] {
        index.calls.filter { call in
            let labels = call.labels
            guard labels.contains("policy") && labels.contains("entries") else { return false }
            guard call.callee == "Timeline" || call.callee.hasSuffix(".Timeline") || call.callee == ".init" else { return false }
            return !inPreviewBranch(index, call)
        }
    }

    /// The tokens of a timeline's policy: its `policy:` argument, or for a lone name
    /// (`policy: policy`) the value of the `let` of that name the function declares before it
    /// (`let policy: TimelineReloadPolicy = playing ? .atEnd : .never`).
    static func policyTokens(_ index: SwiftFileIndex, _ timeline: SwiftCall) -> Range<Int>? {
        guard let tokens = timeline.arguments.first(where: { $0.label == "policy" })?.tokens else { return nil }
        let names = tokens.filter { !(index.tokens[$0].is("!") || index.tokens[$0].is("?")) }
        guard names.count == 1, index.tokens[names[0]].kind == .identifier else { return tokens }
        let function = index.enclosingFunction(of: timeline)
        let local = index.constants.last { c in
            c.name == index.tokens[names[0]].text && c.value.lowerBound < tokens.lowerBound
                && (function?.body.map { body in index.isBlock(c.block, inside: body) } ?? false)
        }
        return local?.value ?? tokens
    }

    /// True when `call` runs only for the widget gallery's preview.
    static func inPreviewBranch(_ index: SwiftFileIndex, _ call: SwiftCall) -> Bool {
        var b = call.block
        while let k = b {
            let block = index.blocks[k]
            if block.kind == .function { return false }
            if block.kind == .ifBranch || block.kind == .guardElse {
                let condition = conditionText(index, block)
                if condition.contains("isPreview") {
                    let negated = condition.contains("!") || condition.contains("== false")
                    // `if isPreview {` and the `else` of `guard !isPreview` are the preview's.
                    if (block.kind == .ifBranch && !negated) || (block.kind == .guardElse && negated) { return true }
                }
            }
            b = block.parent
        }
        return false
    }

    /// The text between the `if` or `guard` before `block` and its `{`.
    static func conditionText(_ index: SwiftFileIndex, _ block: SwiftBlock) -> String {
        var k = block.open - 1
        while k >= 0 && k > block.open - 60 {
            let t = index.tokens[k]
            if t.kind == .keyword && (t.text == "if" || t.text == "guard") { return index.text(k + 1..<block.open) }
            if t.is("{") || t.is("}") { break }
            k -= 1
        }
        return ""
    }

    /// The seconds of a `DateComponents(minute: 30)` (`second`, `minute`, `hour`, `day`
    /// labels, each a number) in `range`, as `Calendar.date(byAdding: DateComponents(…), to:)`
    /// adds them; nil when there is none or a part is not a number.
    static func dateComponentsSeconds(_ index: SwiftFileIndex, _ range: Range<Int>) -> Double? {
        let units: [String: Double] = ["second": 1, "minute": 60, "hour": 3_600, "day": 86_400]
        guard let components = index.calls.first(where: { $0.callee == "DateComponents" && range.contains($0.token) }) else {
            return nil
        }
        var total = 0.0
        for argument in components.arguments {
            guard let label = argument.label, let unit = units[label], let n = index.numericValue(argument.tokens) else { return nil }
            total += n * unit
        }
        return total > 0 ? total : nil
    }

    /// True when an `addingTimeInterval` call offsets the current time (`Date()`, `.now`,
    /// `Date.now`, a `now`/`currentDate`/`today` value), not another date (`entry.date`): the policy of
    /// `(entries.last?.date ?? now).addingTimeInterval(1)` is a second after the timeline's last
    /// entry, not a second from now.
    static func offsetsNow(_ index: SwiftFileIndex, _ call: SwiftCall) -> Bool {
        if let r = call.receiverCall { return index.calls[r].callee == "Date" }
        let receiver = call.callee.split(separator: ".").dropLast().last.map(String.init)
        guard let receiver else { return false }  // `(…).addingTimeInterval`: some other date
        return ["now", "Date", "currentDate", "today"].contains(receiver)
    }
}
