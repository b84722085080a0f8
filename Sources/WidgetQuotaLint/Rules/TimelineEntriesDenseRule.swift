import Foundation
import WidgetQuotaModel
import WidgetQuotaSwiftSource

/// `timeline-entries-dense`: a widget's timeline entries are at least about five minutes apart.
///
/// In a `getTimeline(in:completion:)` or `timeline(for:in:)` of a file that is not only the app's,
/// an entry date made in a `for` loop from the loop's variable — `Calendar.date(byAdding:
/// .minute|.second, value: v * N, to:)`, `addingTimeInterval(v * N)` (numeric wrappers such as
/// `TimeInterval(v)` allowed), the variable counting over a range or a `stride(…, by:)` — whose step is under
/// `minimumSpacing` is a finding at the date call: WidgetKit does not show entries closer than
/// that at their dates, and the spacing buys no precision.
package struct TimelineEntriesDenseRule: LintRule {
    package static let description = LintRuleDescription(
        .timelineEntriesDense, title: "Timeline entries are at least five minutes apart", severity: .warning,
        rationale:
            "WidgetKit does not honour entries closer than about five minutes: denser timelines cost rendering and memory and buy no precision."
    )
    package init() {}

    /// The closest spacing WidgetKit honours, in seconds (the reload-budget notes: "at least about five minutes apart").
    static let minimumSpacing = 300.0

    package func check(_ source: LintSource) -> [Finding] {
        var findings = [Finding]()
        for file in source.tree.swiftFiles where file.role != .app || file.targets.isEmpty {
            let index = file.index
            for function in index.functions
            where (function.name == "getTimeline" || (function.name == "timeline" && function.labels.contains("in")))
                && function.body != nil
            {
                for call in index.calls(inside: function) {
                    guard let (step, at) = Self.step(index, call), step > 0, step < Self.minimumSpacing else { continue }
                    findings.append(
                        finding(
                            file.path, at,
                            "timeline entries \(PolicyShorterThanTTLRule.duration(step)) apart: WidgetKit does not show entries closer than about five minutes at their dates",
                            fix:
                                "Space the entries five minutes or more apart (and let the view count down with `Text(date, style: .timer)` where seconds matter)"
                        ))
                }
            }
        }
        return findings
    }

    /// The step in seconds between the dates `call` makes in its loop, and where to report it.
    static func step(_ index: SwiftFileIndex, _ call: SwiftCall) -> (Double, SourceLocation)? {
        guard let loop = innermostForLoop(index, call.block), let (variable, increment) = loopVariable(index, loop.header) else {
            return nil
        }
        if call.name == "date", let unit = call.arguments.first(where: { $0.label == "byAdding" }),
            let value = call.arguments.first(where: { $0.label == "value" })
        {
            let units: [String: Double] = [".second": 1, ".minute": 60]
            guard let seconds = units[index.text(unit.tokens).filter { !$0.isWhitespace }],
                let factor = coefficient(index, value.tokens, of: variable)
            else { return nil }
            return (seconds * factor * increment, call.location)
        }
        if call.name == "addingTimeInterval", let argument = call.arguments.first,
            let factor = coefficient(index, argument.tokens, of: variable)
        {
            return (factor * increment, call.location)
        }
        return nil
    }

    /// A counting loop's variable and how much it grows each time round: `for i in 0..<60` (1),
    /// `for m in stride(from: 0, to: 360, by: 15)` (15); nil for a loop over a collection.
    static func loopVariable(_ index: SwiftFileIndex, _ header: Range<Int>) -> (String, Double)? {
        let t = index.tokens
        guard let first = header.first, t[first].kind == .identifier else { return nil }
        if let stride = index.callIndices(between: header.lowerBound, and: header.upperBound).map({ index.calls[$0] }).first(where: {
            $0.name == "stride"
        }) {
            guard let by = stride.arguments.first(where: { $0.label == "by" }), let step = index.numericValue(by.tokens) else { return nil }
            return (t[first].text, step)
        }
        let counts = header.contains { t[$0].kind == .operator && (t[$0].text == "..<" || t[$0].text == "...") }
        return counts ? (t[first].text, 1) : nil
    }

    /// How much `range` grows when `variable` grows by one, when it is `v`, `v * N`, `N * v`
    /// (numeric wrappers such as `TimeInterval(v)` or `Double(v * N)` removed); nil otherwise.
    static func coefficient(_ index: SwiftFileIndex, _ range: Range<Int>, of variable: String) -> Double? {
        let t = index.tokens
        let wrappers: Set<String> = ["TimeInterval", "Double", "Int", "Float", "CGFloat"]
        let kept = range.filter { k in !(wrappers.contains(t[k].text) || t[k].is("(") || t[k].is(")")) }
        guard let at = kept.firstIndex(where: { t[$0].text == variable }), kept.filter({ t[$0].text == variable }).count == 1 else {
            return nil
        }
        if kept.count == 1 { return 1 }
        // `v * N` or `N * v`: the rest is one multiplication by constant arithmetic.
        if at == 0, kept.count >= 3, t[kept[1]].text == "*" { return index.numericValue(kept[2]..<(kept.last! + 1)) }
        if at == kept.count - 1, kept.count >= 3, t[kept[at - 1]].text == "*" { return index.numericValue(kept[0]..<kept[at - 1]) }
        return nil
    }

    /// The innermost `for` loop around `block` within its function: its header's tokens after `for`.
    static func innermostForLoop(_ index: SwiftFileIndex, _ block: Int?) -> (header: Range<Int>, block: Int)? {
        var b = block
        while let k = b {
            let current = index.blocks[k]
            if current.kind == .function { return nil }
            if current.kind == .forLoop {
                var start = current.open - 1
                while start > 0, start > current.open - 40, !index.tokens[start].isKeyword("for") { start -= 1 }
                guard index.tokens[start].isKeyword("for") else { return nil }
                return ((start + 1)..<current.open, k)
            }
            b = current.parent
        }
        return nil
    }

    package func hasSomethingToCheck(_ source: LintSource) -> Bool { source.tree.swiftFiles.contains { $0.role == .widgetExtension } }

    package var examples: [LintRuleExample] {
        let provider = { (loop: String) in
            """
            import WidgetKit
            struct Provider: TimelineProvider {
                func getTimeline(in context: Context, completion: @escaping (Timeline<Entry>) -> Void) {
                    let now = Date()
                    var entries = [Entry]()
                    \(loop)
                    completion(Timeline(entries: entries, policy: .atEnd))
                }
            }
            """
        }
        return [
            LintRuleExample(
                "an entry a minute for an hour, and one every 30 s",
                files: [
                    "Widget/Provider.swift": provider(
                        """
                        for minute in 0..<60 {
                                    entries.append(Entry(date: Calendar.current.↓date(byAdding: .minute, value: minute, to: now)!))
                                }
                                for step in 0..<10 { entries.append(Entry(date: now.↓addingTimeInterval(TimeInterval(step) * 30))) }
                        """)
                ]),
            LintRuleExample(
                "Xcode's template: five entries an hour apart; and entries 15 minutes apart",
                files: [
                    "Widget/Provider.swift": provider(
                        """
                        for hourOffset in 0 ..< 5 {
                                    entries.append(Entry(date: Calendar.current.date(byAdding: .hour, value: hourOffset, to: now)!))
                                }
                                for k in 0..<4 { entries.append(Entry(date: now.addingTimeInterval(Double(k) * 15 * 60))) }
                                for m in stride(from: 0, to: 360, by: 15) { entries.append(Entry(date: Calendar.current.date(byAdding: .minute, value: m, to: now)!)) }
                                for item in [1, 2] { entries.append(Entry(date: now.addingTimeInterval(TimeInterval(item)))) }
                        """)
                ]),
        ]
    }
}
