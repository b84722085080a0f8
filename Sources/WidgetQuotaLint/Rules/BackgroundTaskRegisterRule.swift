import Foundation
import WidgetQuotaModel
import WidgetQuotaSwiftSource

/// `bgtask-register-late`: background task handlers are registered while the app launches.
///
/// Each `register(forTaskWithIdentifier:…)` is traced back through the functions that run it
/// (by the call graph, four calls up) to where it starts:
/// - **at launch**: `application(_:didFinishLaunchingWithOptions:)` or `…willFinishLaunching…`,
///   `applicationDidFinishLaunching`, or an `init` of the app (a type conforming to `App`) or of
///   its application delegate;
/// - **late**: a view's `onAppear`, `task`, `onChange` or `onReceive`, a button's action, a
///   view controller's `viewDidLoad`/`viewWillAppear`/`viewDidAppear`, a scene's
///   `scene(_:willConnectTo:options:)` or a foreground or background transition, or a
///   `DispatchQueue`'s `asyncAfter`.
///
/// A register reached only from late starts (and from no launch one) is a finding: Apple's
/// `BGTaskScheduler` reference requires every launch handler registered before the app finishes
/// launching; a later call raises an exception, and a task launched in the background before the
/// view appears finds no handler. Starts that are neither (no caller in the tree, a stored
/// property's initial value) are not read.
package struct BackgroundTaskRegisterRule: LintRule {
    package static let description = LintRuleDescription(
        .backgroundTaskRegisterLate, title: "Background tasks are registered at launch", severity: .warning,
        rationale:
            "BGTaskScheduler requires every handler registered before the app finishes launching: a later register raises an exception, and a background launch finds no handler."
    )
    package init() {}

    /// Functions that run after launch, and how the message names them.
    static let lateFunctions: [String: String] = [
        "viewDidLoad": "`viewDidLoad`", "viewWillAppear": "`viewWillAppear`", "viewDidAppear": "`viewDidAppear`",
        "sceneDidBecomeActive": "`sceneDidBecomeActive`", "sceneWillEnterForeground": "`sceneWillEnterForeground`",
        "sceneDidEnterBackground": "`sceneDidEnterBackground`", "applicationDidBecomeActive": "`applicationDidBecomeActive`",
        "applicationWillEnterForeground": "`applicationWillEnterForeground`",
        "applicationDidEnterBackground": "`applicationDidEnterBackground`",
    ]
    /// View modifiers whose closures run when a view appears or changes.
    static let lateModifiers: Set<String> = ["onAppear", "task", "onChange", "onReceive", "onOpenURL", "refreshable"]

    /// Where a path to the register starts.
    enum Start: Hashable {
        case launch
        case late(String)
    }

    package func check(_ source: LintSource) -> [Finding] {
        let tree = source.tree
        var findings = [Finding]()
        for (f, file) in tree.swiftFiles.enumerated() where file.role != .widgetExtension {
            for call in file.index.calls where call.name == "register" && call.labels.first == "forTaskWithIdentifier" {
                let starts = Self.starts(source, file: f, block: call.block, depth: 0)
                guard !starts.contains(.launch) else { continue }
                let late = starts.compactMap { if case .late(let name) = $0 { name } else { nil } }.sorted()
                guard let first = late.first else { continue }
                findings.append(
                    finding(
                        file.path, call.location,
                        "`register(forTaskWithIdentifier:)` runs from \(first)\(late.count > 1 ? " (and \(late.count - 1) more)" : ""), after the app "
                            + "has finished launching: BGTaskScheduler raises an exception for a handler registered then, and a task "
                            + "launched in the background before that finds no handler",
                        fix:
                            "Register every task in `application(_:didFinishLaunchingWithOptions:)` or the `App`'s `init`, before launch ends; submit requests later"
                    ))
            }
        }
        return findings
    }

    /// The starts of the paths that reach `block` of file `file`.
    static func starts(_ source: LintSource, file: Int, block: Int?, depth: Int) -> Set<Start> {
        let index = source.tree.swiftFiles[file].index
        var b = block
        while let k = b {
            let blk = index.blocks[k]
            switch blk.kind {
            case .closure:
                if let c = blk.call {
                    let owner = index.calls[c]
                    if lateModifiers.contains(String(owner.name)) { return [.late("`.\(owner.name)`")] }
                    if owner.name == "Button" { return [.late("a button's action")] }
                    if owner.name == "asyncAfter" { return [.late("`asyncAfter`")] }
                }
            case .function:
                guard let fi = blk.function else { return [] }
                let function = index.functions[fi]
                if isLaunch(function, index) { return [.launch] }
                if let late = lateFunctions[function.name] { return [.late(late)] }
                if function.name == "scene" && function.labels.contains("willConnectTo") {
                    return [.late("`scene(_:willConnectTo:options:)`")]
                }
                guard depth < 4 else { return [] }
                return callers(source, of: FunctionRef(file: file, function: fi)).reduce(into: Set<Start>()) { out, caller in
                    out.formUnion(starts(source, file: caller.file, block: caller.call.block, depth: depth + 1))
                }
            case .typeBody, .accessor:
                return []
            default:
                break
            }
            b = blk.parent
        }
        return []
    }

    /// True for the functions that run while the app launches.
    static func isLaunch(_ function: SwiftFunction, _ index: SwiftFileIndex) -> Bool {
        if function.name == "application"
            && function.labels.contains(where: { $0 == "didFinishLaunchingWithOptions" || $0 == "willFinishLaunchingWithOptions" })
        {
            return true
        }
        if function.name == "applicationDidFinishLaunching" { return true }
        guard function.name == "init", let typeName = function.typeName else { return false }
        if typeName.hasSuffix("AppDelegate") || typeName.hasSuffix("ApplicationDelegate") { return true }
        return index.types.contains { type in
            type.name == typeName
                && type.inherited.contains {
                    ["App", "UIApplicationDelegate", "NSApplicationDelegate", "WKApplicationDelegate"].contains($0)
                }
        }
    }

    /// The calls of the tree that may run `function`.
    static func callers(_ source: LintSource, of function: FunctionRef) -> [(file: Int, call: SwiftCall)] {
        let tree = source.tree
        let declared = tree.swiftFiles[function.file].index.functions[function.function]
        var out = [(file: Int, call: SwiftCall)]()
        for (f, file) in tree.swiftFiles.enumerated() {
            for call in file.index.calls where call.name == declared.name {
                if source.graph.target(of: call, inFile: f).functions.contains(function) { out.append((f, call)) }
            }
        }
        return out
    }

    package func hasSomethingToCheck(_ source: LintSource) -> Bool { BGTaskCompletionHandlers.anyTask(in: source.tree) }

    package var examples: [LintRuleExample] {
        let refresh = """
            import BackgroundTasks
            enum Refresh {
                static let id = "com.example.quotes.refresh"
                static func register() {
                    BGTaskScheduler.shared.↓register(forTaskWithIdentifier: id, using: nil) { task in
                        task.expirationHandler = { task.setTaskCompleted(success: false) }
                        task.setTaskCompleted(success: true)
                    }
                }
            }
            """
        return [
            LintRuleExample(
                "registered when the first view appears",
                files: [
                    "App/Refresh.swift": refresh,
                    "App/ContentView.swift": """
                    import SwiftUI
                    struct ContentView: View {
                        var body: some View {
                            Text("Quotes").onAppear { Refresh.register() }
                        }
                    }
                    """,
                ]),
            LintRuleExample(
                "registered in a view controller and in the scene delegate",
                files: [
                    "App/Refresh.swift": refresh,
                    "App/Screens.swift": """
                    import UIKit
                    final class QuotesViewController: UIViewController {
                        override func viewDidLoad() {
                            super.viewDidLoad()
                            Refresh.register()
                        }
                    }
                    final class SceneDelegate: UIResponder, UIWindowSceneDelegate {
                        func scene(_ scene: UIScene, willConnectTo session: UISceneSession, options connectionOptions: UIScene.ConnectionOptions) {
                            Refresh.register()
                        }
                    }
                    """,
                ]),
            LintRuleExample(
                "registered in the App's init and in the delegate's didFinishLaunching, through a helper",
                files: [
                    "App/Refresh.swift": refresh.replacingOccurrences(of: "↓", with: ""),
                    "App/QuotesApp.swift": """
                    import SwiftUI
                    @main
                    struct QuotesApp: App {
                        init() { Refresh.register() }
                        var body: some Scene { WindowGroup { Text("Quotes") } }
                    }
                    """,
                    "App/AppDelegate.swift": """
                    import UIKit
                    final class AppDelegate: NSObject, UIApplicationDelegate {
                        func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
                            setUp()
                            return true
                        }
                        func setUp() { Refresh.register() }
                    }
                    """,
                ]),
        ]
    }
}
