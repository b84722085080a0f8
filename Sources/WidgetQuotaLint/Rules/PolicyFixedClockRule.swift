import Foundation
import WidgetQuotaModel
import WidgetQuotaSwiftSource

/// `policy-fixed-clock`: a fetching widget does not ask every device to reload at the same minute.
///
/// A timeline's `.after(date)` policy (read through a `let` of the function, to a bounded depth)
/// whose date is a clock time every device shares — `startOfDay(for:)`, `nextDate(after:matching:…)`,
/// `date(bySettingHour:minute:second:of:)`, `dateInterval(of:for:)`, `date(from: DateComponents…)`
/// — in a `getTimeline` or `timeline(for:in:)` that sends requests (`CallGraph`) is a finding at
/// the `.after`: every installed widget asks WidgetKit for its next timeline at the same minute,
/// and each timeline is a request, so the API sees a stampede at :00 (the polling widget's note).
package struct PolicyFixedClockRule: LintRule {
    package static let description = LintRuleDescription(
        .policyFixedClock, title: "A fetching widget reloads at its own time, not the clock's", severity: .warning,
        rationale:
            "A policy date at a clock time every device shares (the next hour, midnight) makes every widget call the API in the same minute."
    )
    package init() {}

    /// Calendar calls whose result is a clock time shared by every device.
    static let clockCalls: Set<String> = ["startOfDay", "nextDate", "dateInterval"]

    package func check(_ source: LintSource) -> [Finding] {
        let tree = source.tree
        let requests = source.refresh
        var findings = [Finding]()
        for (f, file) in tree.swiftFiles.enumerated() where file.role == .widgetExtension {
            let index = file.index
            for timeline in TimelinePolicies.timelines(in: index) {
                guard let function = index.enclosingFunction(of: timeline), ["getTimeline", "timeline"].contains(function.name),
                    let body = function.body, let policy = TimelinePolicies.policyTokens(index, timeline),
                    let after = index.callIndices(between: policy.lowerBound - 1, and: policy.upperBound).lazy.map({ index.calls[$0] })
                        .first(where: { $0.callee == ".after" && !$0.arguments.isEmpty }),
                    let clock = Self.clockTime(index, after.arguments[0].tokens, before: after.token, in: function, depth: 0),
                    requests.calls(inFile: f, inside: body).contains(where: { requests.isRequest($0, inFile: f) })
                else { continue }
                let at = after.token > 0 && index.tokens[after.token - 1].is(".") ? index.tokens[after.token - 1].location : after.location
                findings.append(
                    finding(
                        file.path, at,
                        "`.after(…)` at a clock time every device shares (`\(clock)`), in a widget that calls the API on every \(function.name): "
                            + "every installed widget reloads, and calls the API, in the same minute",
                        fix:
                            "Ask for the next timeline an interval from now (`Date().addingTimeInterval(…)`), with a random offset of a few minutes per device"
                    ))
            }
        }
        return findings
    }

    /// The clock call a date expression is built from (`startOfDay`), following a name to a `let`
    /// of `function` declared before `limit`; nil when it is none.
    static func clockTime(_ index: SwiftFileIndex, _ range: Range<Int>, before limit: Int, in function: SwiftFunction, depth: Int)
        -> String?
    {
        guard depth < 4 else { return nil }
        for c in index.callIndices(between: range.lowerBound - 1, and: range.upperBound) {
            let call = index.calls[c]
            if clockCalls.contains(String(call.name)) { return String(call.name) }
            if call.name == "date", call.arguments.contains(where: { $0.label == "bySettingHour" }) { return "date(bySettingHour:…)" }
            if call.name == "date", let from = call.arguments.first(where: { $0.label == "from" }),
                from.tokens.contains(where: { index.tokens[$0].text == "DateComponents" })
            {
                return "date(from:)"
            }
        }
        let t = index.tokens
        for k in range where t[k].kind == .identifier && !(k > 0 && t[k - 1].is(".")) {
            guard
                let local = index.constants.last(where: { c in
                    c.name == t[k].text && c.value.lowerBound < limit && (function.body.map { index.isBlock(c.block, inside: $0) } ?? false)
                })
            else { continue }
            if let found = clockTime(index, local.value, before: local.value.lowerBound, in: function, depth: depth + 1) { return found }
        }
        return nil
    }

    package var examples: [LintRuleExample] {
        let provider = { (date: String) in
            """
            import WidgetKit
            struct Provider: TimelineProvider {
                func getTimeline(in context: Context, completion: @escaping (Timeline<Entry>) -> Void) {
                    Task {
                        let (data, _) = try await URLSession.shared.data(from: URL(string: "https://api.example.com/rates")!)
                        \(date)
                        completion(Timeline(entries: [Entry(date: .now, data: data)], policy: ↓.after(next)))
                    }
                }
            }
            """
        }
        return [
            LintRuleExample(
                "a fetching widget that reloads at the next full hour",
                files: [
                    "Widget/Provider.swift": provider(
                        "let next = Calendar.current.nextDate(after: .now, matching: DateComponents(minute: 0), matchingPolicy: .nextTime)!"
                    )
                ]),
            LintRuleExample(
                "a fetching widget that reloads at midnight, through two lets",
                files: [
                    "Widget/Provider.swift": provider(
                        "let today = Calendar.current.startOfDay(for: .now)\n            let next = today.addingTimeInterval(86_400)")
                ]),
            LintRuleExample(
                "a fetching widget that reloads 30 minutes from now; a widget that reads the cache at midnight",
                files: [
                    "Widget/Provider.swift": provider("let next = Date().addingTimeInterval(30 * 60)").replacingOccurrences(
                        of: "↓", with: ""),
                    "Widget/Calendar.swift": """
                    import WidgetKit
                    struct DayProvider: TimelineProvider {
                        func getTimeline(in context: Context, completion: @escaping (Timeline<Entry>) -> Void) {
                            let next = Calendar.current.startOfDay(for: .now.addingTimeInterval(86_400))
                            let text = UserDefaults(suiteName: "group.days")?.string(forKey: "today") ?? ""
                            completion(Timeline(entries: [Entry(date: .now, text: text)], policy: .after(next)))
                        }
                    }
                    """,
                ]),
        ]
    }
}
