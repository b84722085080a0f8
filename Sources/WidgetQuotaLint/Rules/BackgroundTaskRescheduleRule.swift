import Foundation
import WidgetQuotaModel
import WidgetQuotaSwiftSource

/// `bgtask-no-reschedule`: a background refresh handler submits the next request.
///
/// For each `register(forTaskWithIdentifier:…)` whose task the app submits somewhere (one never
/// submitted is `bgtask-setup`'s), the handler — its closure or launch handler and the functions
/// the task is handed to, as `bgtask-completion` follows them, and the functions those call, three
/// calls deep — makes a `BGAppRefreshTaskRequest`/`BGProcessingTaskRequest` or calls `submit`
/// (itself or through a function that does). A handler that does neither is a finding at the
/// `register` call: iOS runs a submitted task once, so the refreshes stop until the app runs and
/// submits again (the message names where it does).
package struct BackgroundTaskRescheduleRule: LintRule {
    package static let description = LintRuleDescription(
        .backgroundTaskReschedule, title: "A background refresh schedules the next one", severity: .warning,
        rationale:
            "iOS runs a submitted background task once: a handler that does not submit the next request leaves the widget's cache to age until the app is opened again."
    )
    package init() {}

    package func check(_ source: LintSource) -> [Finding] {
        let tree = source.tree
        let context = source.refresh
        // Where the app submits each kind of request (`BGAppRefreshTaskRequest(identifier: …)`).
        var submitted = [(file: Int, call: SwiftCall, id: String?)]()
        for (f, file) in tree.swiftFiles.enumerated() {
            for call in file.index.calls
            where (call.name == "BGAppRefreshTaskRequest" || call.name == "BGProcessingTaskRequest") && call.labels.first == "identifier" {
                submitted.append((f, call, file.index.appGroupRuleString(call.arguments[0].tokens, tree: tree)))
            }
        }
        var findings = [Finding]()
        for handler in BGTaskCompletionHandlers.handlers(context) {
            let id = tree.swiftFiles[handler.file].index.appGroupRuleString(handler.register.arguments[0].tokens, tree: tree)
            let elsewhere = submitted.filter { id == nil || $0.id == nil || $0.id == id }
            guard !elsewhere.isEmpty, !Self.submits(context, from: handler.regions) else { continue }
            let place =
                elsewhere.first.map { " (the app makes its request at \(tree.swiftFiles[$0.file].path):\($0.call.location.line))" } ?? ""
            let file = tree.swiftFiles[handler.file]
            findings.append(
                finding(
                    file.path, handler.register.location,
                    "the handler of \(handler.identifier) never submits the next request: iOS runs the task once, and the refreshes stop "
                        + "until the app runs and submits again\(place)",
                    fix: "Submit the next `BGAppRefreshTaskRequest` at the start of the handler, before the work"))
        }
        return findings
    }

    /// True when the regions, or the functions their calls run three calls deep, make a task
    /// request or call `submit`.
    static func submits(_ context: RefreshRulesIndex, from start: [BGTaskCompletionHandlers.Region]) -> Bool {
        var regions = start
        var depth = [Int](repeating: 0, count: regions.count)
        var k = 0
        while k < regions.count && regions.count < 64 {
            let r = regions[k]
            let d = depth[k]
            k += 1
            for c in context.calls(inFile: r.file, inside: r.block) {
                if c.name == "submit" || c.name == "BGAppRefreshTaskRequest" || c.name == "BGProcessingTaskRequest" { return true }
                guard d < 3 else { continue }
                for (g, body, _) in context.functions(calledBy: c, inFile: r.file)
                where !regions.contains(BGTaskCompletionHandlers.Region(file: g, block: body)) {
                    regions.append(BGTaskCompletionHandlers.Region(file: g, block: body))
                    depth.append(d + 1)
                }
            }
        }
        return false
    }

    package func hasSomethingToCheck(_ source: LintSource) -> Bool { BGTaskCompletionHandlers.anyTask(in: source.tree) }

    package var examples: [LintRuleExample] {
        let app = { (handlerBody: String) in
            """
            import BackgroundTasks
            enum Refresh {
                static let id = "com.example.quotes.refresh"
                static func register() {
                    BGTaskScheduler.shared.↓register(forTaskWithIdentifier: id, using: nil) { task in
                        handle(task as! BGAppRefreshTask)
                    }
                }
                static func schedule() {
                    let request = BGAppRefreshTaskRequest(identifier: id)
                    request.earliestBeginDate = Date(timeIntervalSinceNow: 3600)
                    try? BGTaskScheduler.shared.submit(request)
                }
                static func handle(_ task: BGAppRefreshTask) {
                    \(handlerBody)
                    task.expirationHandler = { task.setTaskCompleted(success: false) }
                    Task { await QuoteStore.refresh(); task.setTaskCompleted(success: true) }
                }
            }
            """
        }
        return [
            LintRuleExample(
                "the handler refreshes but never submits the next request (the app submits on going to the background)",
                files: ["App/Refresh.swift": app("// the app schedules when it goes to the background")]),
            LintRuleExample(
                "the handler submits the next request first",
                files: ["App/Refresh.swift": app("schedule()").replacingOccurrences(of: "↓", with: "")]),
        ]
    }
}
