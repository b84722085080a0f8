import Foundation
import WidgetQuotaSwiftSource

extension AppSourceTree {
    /// True for a file the app never ships: a test (a `Tests` folder, `…Tests.swift`, `….test.swift`, a test
    /// target) or, in a tree with an Xcode project, a file no target or package builds (a demo
    /// credentials file the README says to copy). Rules about what the app does leave these out.
    func neverShips(_ file: AppSwiftFile) -> Bool {
        let parts = file.path.split(separator: "/")
        if parts.contains(where: { $0 == "Tests" || $0.hasSuffix("Tests") || $0.hasSuffix("UITests") }) { return true }
        if file.path.hasSuffix("Tests.swift") || file.path.hasSuffix(".test.swift") { return true }
        let testTargets = Set(targets.filter { ($0.productType ?? "").contains("test") }.map(\.name))
        if !file.targets.isEmpty && file.targets.allSatisfy(testTargets.contains) { return true }
        return project != nil && file.targets.isEmpty && !parts.contains("Sources")
    }
}
