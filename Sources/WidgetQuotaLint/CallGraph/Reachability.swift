import Foundation
import WidgetQuotaSwiftSource

/// Which files' functions a call can reach: those compiled into the same target, and those of
/// the modules the calling file imports (a Swift package's `Sources/<Module>/`, a framework
/// target). A widget extension's call never reaches a function compiled only into the app.
struct Reachability: Sendable {
    /// Per file: the Swift package module it belongs to (`Sources/<Module>/` under a folder
    /// holding a `Package.swift`), or nil.
    let modules: [String?]
    /// Per file: the modules it imports.
    let imports: [Set<String>]
    /// Per file: the targets of the Xcode project that build it.
    let targets: [Set<String>]
    /// Targets that are frameworks or libraries (reached by importing them by name).
    let libraryTargets: Set<String>
    /// Per file: true for a `Package.swift` manifest (never called into).
    let manifests: [Bool]
    let hasProject: Bool

    init(_ tree: AppSourceTree) {
        let packageRoots = Set(
            tree.swiftFiles.compactMap { file -> String? in
                guard file.path == "Package.swift" || file.path.hasSuffix("/Package.swift") else { return nil }
                return String(file.path.dropLast("Package.swift".count))
            })
        modules = tree.swiftFiles.map { Self.module(of: $0.path, packageRoots: packageRoots) }
        imports = tree.swiftFiles.map { Self.imports($0.index) }
        targets = tree.swiftFiles.map { Set($0.targets) }
        libraryTargets = Set(
            tree.projects.flatMap(\.project.targets).filter { $0.productType.contains("framework") || $0.productType.contains("library") }
                .map(\.name))
        manifests = tree.swiftFiles.map { $0.path == "Package.swift" || $0.path.hasSuffix("/Package.swift") }
        hasProject = tree.project != nil
    }

    /// True when a call in file `caller` can run a function declared in file `callee`.
    func reaches(_ caller: Int, _ callee: Int) -> Bool {
        if caller == callee { return true }
        if manifests[callee] { return false }
        if let module = modules[callee] {
            return modules[caller] == module || imports[caller].contains(module)
        }
        // A package's code cannot see an app's.
        if modules[caller] != nil { return false }
        guard hasProject else { return true }
        let calleeTargets = targets[callee]
        if calleeTargets.isEmpty { return targets[caller].isEmpty }
        if !calleeTargets.isDisjoint(with: targets[caller]) { return true }
        return calleeTargets.contains { libraryTargets.contains($0) && imports[caller].contains($0) }
    }

    /// `Sources/<Module>/…` below a package root, else nil.
    static func module(of path: String, packageRoots: Set<String>) -> String? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count >= 3 else { return nil }
        for k in stride(from: parts.count - 3, through: 0, by: -1) where parts[k] == "Sources" {
            let root = parts[..<k].joined(separator: "/")
            if packageRoots.contains(root.isEmpty ? "" : root + "/") { return String(parts[k + 1]) }
        }
        return nil
    }

    /// The modules `import`ed at the top level of a file (`import Foo`, `@testable import Foo`,
    /// `import struct Foo.Bar`).
    static func imports(_ index: SwiftFileIndex) -> Set<String> {
        var out = Set<String>()
        let t = index.tokens
        var k = 0
        while k + 1 < t.count {
            if t[k].isKeyword("import") {
                var j = k + 1
                if j < t.count, t[j].kind == .keyword,
                    ["struct", "class", "enum", "protocol", "func", "var", "let", "typealias"].contains(t[j].text)
                {
                    j += 1
                }
                if j < t.count, t[j].kind == .identifier { out.insert(t[j].text) }
            }
            k += 1
        }
        return out
    }
}
