import Foundation
import WidgetQuotaSwiftSource

/// The App Intents a widget's buttons and toggles run (iOS 17 interactive widgets, controls):
/// types conforming to an App Intent protocol (not a configuration intent) that a file of the
/// widget extension passes as an `intent:` or `action:` argument (`Button(intent: Toggle())`,
/// `Toggle(isOn:intent:)`, `ControlWidgetButton(action:)`) or as a view's parameter for one
/// (`newIntent: { TurnOff() }`), and their `perform()` functions.
/// A tap runs `perform()` in the extension, then WidgetKit reloads the widget at once, outside
/// its budget. Found once per lint run (`LintSource.intents`).
struct WidgetIntents: Sendable {
    /// The `perform()` functions of the intents a widget's controls run: file and function.
    let performFunctions: [(file: Int, function: SwiftFunction)]
    /// Per file, the body blocks of those `perform()` functions, for rules that leave them to
    /// `intent-network-call`.
    let performBodies: [Int: [Int]]

    init(_ tree: AppSourceTree) {
        performFunctions = Self.performFunctions(in: tree)
        var bodies = [Int: [Int]]()
        for (f, function) in performFunctions { if let body = function.body { bodies[f, default: []].append(body) } }
        performBodies = bodies
    }

    /// Protocols whose conformers a tap can run.
    /// (`AudioPlaybackIntent` and `LiveActivityIntent` run in the app's process, and reload no widget.)
    static let protocols: Set<String> = ["AppIntent", "SetValueIntent", "ForegroundContinuableIntent", "SystemIntent"]
    /// Intents a widget's configuration, not a tap, runs.
    static let configurationProtocols: Set<String> = [
        "WidgetConfigurationIntent", "ControlConfigurationIntent", "AudioPlaybackIntent", "LiveActivityIntent",
    ]

    /// `intent:`, `action:`, and a view's own parameter for one (`newIntent:`, `toggleIntent:`).
    static func isIntentLabel(_ label: String) -> Bool {
        label == "action" || label.lowercased().hasSuffix("intent")
    }

    /// The `perform()` functions of the intents a widget's controls run, found in `tree`.
    static func performFunctions(in tree: AppSourceTree) -> [(file: Int, function: SwiftFunction)] {
        var intents = Set<String>()
        var excluded = Set<String>()
        for file in tree.swiftFiles {
            for type in file.index.types where type.inherited.contains(where: { protocols.contains(CallGraph.lastName($0)) }) {
                intents.insert(CallGraph.lastName(type.name))
            }
            for type in file.index.types where type.inherited.contains(where: { configurationProtocols.contains(CallGraph.lastName($0)) }) {
                excluded.insert(CallGraph.lastName(type.name))
            }
        }
        intents.subtract(excluded)
        guard !intents.isEmpty else { return [] }
        var used = Set<String>()
        for file in tree.swiftFiles where file.role == .widgetExtension {
            let t = file.index.tokens
            for call in file.index.calls {
                for argument in call.arguments where argument.label.map(Self.isIntentLabel) ?? false {
                    for k in argument.tokens where t[k].kind == .identifier && intents.contains(t[k].text) { used.insert(t[k].text) }
                }
            }
        }
        var out = [(file: Int, function: SwiftFunction)]()
        for (f, file) in tree.swiftFiles.enumerated() where file.role == .widgetExtension {
            for function in file.index.functions where function.name == "perform" && function.labels.isEmpty && function.body != nil {
                if let owner = function.typeName.map(CallGraph.lastName), used.contains(owner) { out.append((f, function)) }
            }
        }
        return out
    }
}
