import Foundation
import Testing
import WidgetQuotaTestSupport

/// The layers are SwiftPM modules: `Package.swift` declares the graph and the compiler enforces
/// it. These tests hold `docs/architecture.md` to that graph, and every source file's imports to
/// its target's dependencies (SwiftPM can let a file import a sibling module that happens to be
/// built first without being declared).
@Suite("Architecture")
struct ArchitectureTests {
    /// Each target of `Package.swift` and the targets it depends on directly.
    static func packageGraph(_ manifest: String) -> [String: [String]] {
        var graph = [String: [String]]()
        let target = try! Regex(
            #"\.(?:target|executableTarget|testTarget|plugin)\(\s*name:\s*"([^"]+)"(?:,\s*dependencies:\s*\[([^\]]*)\])?"#)
        for match in manifest.matches(of: target) {
            let name = String(match.output[1].substring ?? "")
            let list = match.output[2].substring.map(String.init) ?? ""
            graph[name] = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines.union(["\""])) }
                .filter { !$0.isEmpty }
        }
        return graph
    }

    /// Each module row of the document's table and the modules its last column lists.
    static func documentedGraph(_ markdown: String) -> [String: [String]] {
        var graph = [String: [String]]()
        for line in markdown.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 3, let name = cells.first?.trimmingCharacters(in: ["`"]) else { continue }
            let deps =
                cells[cells.count - 1] == "–"
                ? []
                : cells[cells.count - 1].split(separator: ",").map {
                    $0.trimmingCharacters(in: .whitespaces.union(["`"]))
                }
            graph[name] = deps
        }
        return graph
    }

    /// The targets `name` depends on, directly or through others.
    static func closure(of name: String, in graph: [String: [String]]) -> Set<String> {
        var seen = Set<String>()
        var stack = graph[name] ?? []
        while let next = stack.popLast() {
            guard seen.insert(next).inserted else { continue }
            stack += graph[next] ?? []
        }
        return seen
    }

    @Test("docs/architecture.md draws the library graph of Package.swift, row for row")
    func documentMatchesPackage() throws {
        let package = Self.packageGraph(try SourceTree.text("Package.swift"))
        let documented = Self.documentedGraph(try SourceTree.text("docs/architecture.md")).filter { !$0.key.hasSuffix("TestSupport") }
        let sources = Set(try FileManager.default.contentsOfDirectory(atPath: SourceTree.root.appendingPathComponent("Sources").path))
        let library = package.filter { $0.key.hasPrefix("WidgetQuota") && sources.contains($0.key) }
        #expect(library.count >= 12, "the manifest's targets were read: \(library.keys.sorted())")
        #expect(documented.count == library.count, "documented \(documented.keys.sorted()), declared \(library.keys.sorted())")
        for (name, deps) in library.sorted(by: { $0.key < $1.key }) {
            #expect(documented[name].map(Set.init) == Set(deps), "\(name): declared \(deps.sorted()), documented \(documented[name] ?? [])")
        }
    }

    @Test("no module depends on itself through others: the graph has no cycle")
    func acyclic() throws {
        let package = Self.packageGraph(try SourceTree.text("Package.swift"))
        for name in package.keys.sorted() {
            #expect(!Self.closure(of: name, in: package).contains(name), "\(name) depends on itself")
        }
    }

    /// The target a file under `Sources/` or `Tests/` belongs to: its first folder.
    static func target(of path: String) -> String { String(path.split(separator: "/")[0]) }

    /// The package's modules each file imports, by its path under `root`.
    static func imports(under root: String, modules: Set<String>) throws -> [String: Set<String>] {
        let importLine = try Regex(#"^\s*(?:@\w+\s+)*import\s+(\w+)"#)
        var result = [String: Set<String>]()
        for (path, text) in try SourceTree.swiftFiles(under: root) {
            var found = Set<String>()
            for line in text.split(separator: "\n") {
                guard let match = try importLine.prefixMatch(in: line) else { continue }
                let module = String(match.output[1].substring ?? "")
                if modules.contains(module) { found.insert(module) }  // not the toolchain's own modules
            }
            result[path] = found
        }
        return result
    }

    @Test("every source and test file imports only modules its target depends on", arguments: ["Sources", "Tests"])
    func importsFollowTheGraph(root: String) throws {
        let package = Self.packageGraph(try SourceTree.text("Package.swift"))
        let files = try Self.imports(under: root, modules: Set(package.keys))
        #expect(files.count > 100, "the files under \(root) were read")
        for (path, modules) in files.sorted(by: { $0.key < $1.key }) {
            let target = Self.target(of: path)
            #expect(package[target] != nil, "\(root)/\(path) is in a folder that is not a target")
            let allowed = Self.closure(of: target, in: package)
            for module in modules.sorted() where module != target {
                #expect(allowed.contains(module), "\(root)/\(path) imports \(module), which \(target) does not depend on")
            }
        }
    }

    /// A declared dependency that no file imports builds a module for nothing and hides which
    /// layer a target really stands on.
    @Test("every declared dependency is imported by a file of the target", arguments: ["Sources", "Tests"])
    func noUnusedDependency(root: String) throws {
        let package = Self.packageGraph(try SourceTree.text("Package.swift"))
        var used = [String: Set<String>]()
        for (path, modules) in try Self.imports(under: root, modules: Set(package.keys)) {
            used[Self.target(of: path), default: []].formUnion(modules)
        }
        #expect(!used.isEmpty)
        for (target, imported) in used.sorted(by: { $0.key < $1.key }) {
            let unused = Set(package[target] ?? []).subtracting(imported)
            #expect(unused.isEmpty, "\(target) declares \(unused.sorted()) in Package.swift, and none of its files imports it")
        }
    }

    @Test("lint and its outputs build without the engine; each module's tests build no sibling or higher layer")
    func lintAndTestsStayLow() throws {
        let package = Self.packageGraph(try SourceTree.text("Package.swift"))
        let lint = Self.closure(of: "WidgetQuotaLint", in: package)
        for engine in ["WidgetQuotaSimulation", "WidgetQuotaStudies", "WidgetQuotaReporting", "WidgetQuotaCharts"] {
            #expect(!lint.contains(engine), "WidgetQuotaLint depends on \(engine)")
        }
        for (test, _) in package where test.hasSuffix("Tests") && test != "WidgetQuotaCLITests" && test != "WidgetQuotaKitTests" {
            let module = String(test.dropLast("Tests".count))
            let allowed = Self.closure(of: module, in: package).union([module])
            let built = Self.closure(of: test, in: package).filter { !$0.hasSuffix("TestSupport") }
            #expect(built.isSubset(of: allowed), "\(test) builds \(built.subtracting(allowed).sorted()), above \(module)")
        }
    }
}
