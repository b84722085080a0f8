import Foundation
import WidgetQuotaModel
import WidgetQuotaSwiftSource

/// `intent-network-call`: a widget button's App Intent sends a request in `perform()`.
///
/// In the `perform()` of an intent a widget's `Button(intent:)`, `Toggle(isOn:intent:)` or a
/// control runs (`WidgetIntents`), every call that sends a request or runs a function that does
/// (`CallGraph`) is a finding at the call: each tap is a paid request, and WidgetKit reloads the
/// widget right after, outside its budget (its `getTimeline` runs too). `widget-network-call`
/// leaves these calls to this rule. A call matched by name only is said so.
package struct IntentNetworkCallRule: LintRule {
    package static let description = LintRuleDescription(
        .intentNetworkCall, title: "A widget button's intent makes no network call per tap", severity: .warning,
        rationale: "Each tap on an interactive widget runs perform() and then reloads the widget outside its budget: a request per tap.")
    package init() {}

    package func check(_ source: LintSource) -> [Finding] {
        let tree = source.tree
        let graph = source.graph
        var findings = [Finding]()
        for (f, function) in source.intents.performFunctions {
            let file = tree.swiftFiles[f]
            for call in file.index.calls(inside: function) {
                guard let route = graph.requestInExtension(call, inFile: f) else { continue }
                let owner = function.typeName.map { "`\($0).perform()`" } ?? "`perform()`"
                findings.append(
                    finding(
                        file.path, call.location,
                        "\(owner), which a widget's button runs, reaches the network (\(graph.explain(route, call: call, inFile: f))): "
                            + "a request on every tap, and WidgetKit reloads the widget right after",
                        fix: "Change the App Group store in `perform()` and let the app or its background task send the change; "
                            + "if each tap must reach the server, set `designs[].interactive` in the scenario to count the reloads"))
            }
        }
        return findings
    }

    package func hasSomethingToCheck(_ source: LintSource) -> Bool { !source.intents.performFunctions.isEmpty }

    package var examples: [LintRuleExample] {
        [
            LintRuleExample(
                "a widget's Button runs an intent whose perform() calls the server through a client; a configuration intent is not run by a tap",
                files: [
                    "Widget/Info.plist": AppGroupMismatchRule.widgetInfo,
                    "Widget/LightWidget.swift": """
                    import WidgetKit
                    import SwiftUI
                    import AppIntents
                    struct LightView: View {
                        var body: some View { Button(intent: ToggleLight(id: "hall")) { Text("Toggle") } }
                    }
                    struct ToggleLight: AppIntent {
                        static var title: LocalizedStringResource = "Toggle"
                        @Parameter(title: "Light") var id: String
                        init() {}
                        init(id: String) { self.id = id }
                        func perform() async throws -> some IntentResult {
                            try await LightClient().↓toggle(id)
                            UserDefaults(suiteName: "group.lights")?.set(true, forKey: id)
                            return .result()
                        }
                    }
                    struct Pick: WidgetConfigurationIntent {
                        static var title: LocalizedStringResource = "Pick"
                        func perform() async throws -> some IntentResult { try await LightClient().toggle("x"); return .result() }
                    }
                    """,
                    "Shared/LightClient.swift": """
                    import Foundation
                    struct LightClient {
                        func toggle(_ id: String) async throws {
                            var request = URLRequest(url: URL(string: "https://lights.example.com/\\(id)")!)
                            request.timeoutInterval = 10
                            _ = try await URLSession.shared.data(for: request)
                        }
                    }
                    """,
                ]),
            LintRuleExample(
                "the intent only writes the App Group store",
                files: [
                    "Widget/Info.plist": AppGroupMismatchRule.widgetInfo,
                    "Widget/CounterWidget.swift": """
                    import WidgetKit
                    import SwiftUI
                    import AppIntents
                    struct CounterView: View {
                        var body: some View { Button(intent: Increment()) { Text("+1") } }
                    }
                    struct Increment: AppIntent {
                        static var title: LocalizedStringResource = "Increment"
                        func perform() async throws -> some IntentResult {
                            let store = UserDefaults(suiteName: "group.counter")
                            store?.set((store?.integer(forKey: "n") ?? 0) + 1, forKey: "n")
                            return .result()
                        }
                    }
                    """,
                ]),
        ]
    }
}
