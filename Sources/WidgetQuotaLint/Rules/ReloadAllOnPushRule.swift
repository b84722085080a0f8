import Foundation
import WidgetQuotaModel
import WidgetQuotaSwiftSource

/// `reload-all-on-push`: a push reloads the kind it concerns, not every widget.
///
/// When the widget extension declares several widget kinds (`StaticConfiguration`,
/// `IntentConfiguration`, `AppIntentConfiguration` with different `kind:`s, a constant read as its
/// value) and the app never asks which are configured (`getCurrentConfigurations`,
/// `currentConfigurations()`), a `reloadAllTimelines()` that a remote push runs is a finding:
/// `application(_:didReceiveRemoteNotification:…)` or `pushRegistry(_:didReceiveIncomingPushWith:…)`,
/// directly or through the functions it calls (three calls deep). Every kind (and every configured
/// instance) then reloads on every push, each spending its own budget, whatever the push was about
/// (the reload-budget notes: "Check getCurrentConfigurations before reloading, and reload only the
/// kind"). Notification delegate callbacks are not read: they also run for local notifications,
/// and with the app in the foreground, when reloads are not counted.
package struct ReloadAllOnPushRule: LintRule {
    package static let description = LintRuleDescription(
        .reloadAllOnPush, title: "A push reloads only the widget kind it concerns", severity: .warning,
        rationale:
            "reloadAllTimelines() on every push reloads every kind and every configured instance, each from its own budget, whatever the push was about."
    )
    package init() {}

    /// Widget configurations with a timeline, and whether the user configures them.
    static let configurations: [String: Bool] = [
        "StaticConfiguration": false, "IntentConfiguration": true, "AppIntentConfiguration": true,
    ]

    package func check(_ source: LintSource) -> [Finding] {
        let tree = source.tree
        let context = source.refresh
        let kinds = Self.widgetKinds(tree)
        guard kinds.names.count > 1,
            !tree.swiftFiles.contains(where: { file in
                file.index.calls.contains { $0.name == "getCurrentConfigurations" || $0.name == "currentConfigurations" }
            })
        else { return [] }
        var findings = [Finding]()
        var reported = Set<[Int]>()
        for (f, file) in tree.swiftFiles.enumerated() where file.role != .widgetExtension {
            for function in file.index.functions {
                guard let handler = Self.pushHandlerName(function), let body = function.body else { continue }
                for (g, reload) in Self.reloadsAll(context, file: f, block: body, depth: 0)
                where reported.insert([g, reload.token]).inserted {
                    let names = kinds.names.sorted().prefix(4).map { "`\($0.trimmingCharacters(in: ["\""]))`" }.joined(separator: ", ")
                    let what =
                        "each of the widget's \(kinds.names.count) kinds (\(names))\(kinds.configurable ? " and each configured instance" : "")"
                    findings.append(
                        finding(
                            tree.swiftFiles[g].path, reload.location,
                            "`reloadAllTimelines()` on every push (`\(handler)`): \(what) reloads, each from its own budget, "
                                + "whatever the push was about",
                            fix:
                                "Reload only the kind the push concerns (`reloadTimelines(ofKind:)`), after `WidgetCenter.shared.getCurrentConfigurations` shows an instance that displays it"
                        ))
                }
            }
        }
        return findings
    }

    /// The handler's name as the message gives it, when `function` handles a push.
    static func pushHandlerName(_ function: SwiftFunction) -> String? {
        switch function.name {
        case "application" where function.labels.contains("didReceiveRemoteNotification"):
            return "application(_:didReceiveRemoteNotification:…)"
        case "pushRegistry" where function.labels.contains("didReceiveIncomingPushWith"):
            return "pushRegistry(_:didReceiveIncomingPushWith:…)"
        default:
            return nil
        }
    }

    /// The `reloadAllTimelines()` calls a block runs, itself or through the functions it calls.
    static func reloadsAll(_ context: RefreshRulesIndex, file: Int, block: Int, depth: Int) -> [(file: Int, call: SwiftCall)] {
        var out = [(file: Int, call: SwiftCall)]()
        for call in context.calls(inFile: file, inside: block) {
            if call.name == "reloadAllTimelines" {
                out.append((file, call))
            } else if depth < 3 {
                for (g, body, _) in context.functions(calledBy: call, inFile: file) where body != block {
                    out += reloadsAll(context, file: g, block: body, depth: depth + 1)
                }
            }
        }
        return out
    }

    /// The widget kinds the extension declares (as written), and whether one is configurable.
    static func widgetKinds(_ tree: AppSourceTree) -> (names: Set<String>, configurable: Bool) {
        var names = Set<String>()
        var configurable = false
        for file in tree.swiftFiles where file.role == .widgetExtension {
            let index = file.index
            for call in index.calls {
                guard let isConfigurable = configurations[call.callee] else { continue }
                configurable = configurable || isConfigurable
                if let kind = call.arguments.first(where: { $0.label == "kind" }) {
                    // A constant's value where the tree gives it (`let kind = "Quotes"`).
                    names.insert(index.appGroupRuleString(kind.tokens, tree: tree) ?? WidgetStandardDefaultsRule.key(index, kind.tokens))
                }
            }
        }
        return (names, configurable)
    }

    package func hasSomethingToCheck(_ source: LintSource) -> Bool {
        source.tree.swiftFiles.contains { file in file.index.calls.contains { $0.name == "reloadAllTimelines" } }
    }

    package var examples: [LintRuleExample] {
        // Each widget in its own file, its kind in a constant, as Xcode's template writes it.
        let widget = { (name: String, kind: String) in
            """
            import WidgetKit
            import SwiftUI
            struct \(name)Widget: Widget {
                let kind: String = "\(kind)"
                var body: some WidgetConfiguration {
                    StaticConfiguration(kind: kind, provider: \(name)Provider()) { Text($0.text) }
                }
            }
            """
        }
        let widgets = [
            "Widget/PriceWidget.swift": widget("Price", "Price"), "Widget/NewsWidget.swift": widget("News", "News"),
        ]
        let delegate = { (body: String) in
            """
            import UIKit
            import WidgetKit
            final class AppDelegate: NSObject, UIApplicationDelegate {
                func application(_ application: UIApplication, didReceiveRemoteNotification userInfo: [AnyHashable: Any]) async -> UIBackgroundFetchResult {
                    \(body)
                    return .newData
                }
                func refreshWidgets() {
                    WidgetCenter.shared.↓reloadAllTimelines()
                }
            }
            """
        }
        return [
            LintRuleExample(
                "every widget kind reloaded on every push, through a helper",
                files: widgets.merging(["App/AppDelegate.swift": delegate("refreshWidgets()")]) { a, _ in a }),
            LintRuleExample(
                "a push that reloads only the kind it concerns",
                files: widgets.merging([
                    "App/AppDelegate.swift": delegate("WidgetCenter.shared.reloadTimelines(ofKind: \"Price\")").replacingOccurrences(
                        of: "↓", with: "")
                ]) { a, _ in a }),
            LintRuleExample(
                "one widget kind: reloading all is reloading it",
                files: [
                    "Widget/PriceWidget.swift": widget("Price", "Price"), "Widget/NewsWidget.swift": widget("News", "Price"),
                    "App/AppDelegate.swift": delegate("refreshWidgets()").replacingOccurrences(of: "↓", with: ""),
                ]),
            LintRuleExample(
                "an app that asks which widgets are configured first",
                files: widgets.merging([
                    "App/AppDelegate.swift": delegate(
                        "if (try? await WidgetCenter.shared.currentConfigurations())?.isEmpty == false { refreshWidgets() }"
                    ).replacingOccurrences(of: "↓", with: "")
                ]) { a, _ in a }),
        ]
    }
}
