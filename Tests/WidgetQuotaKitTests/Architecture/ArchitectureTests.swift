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
        let target = try! Regex(#"\.(?:target|executableTarget|plugin)\(\s*name:\s*"([^"]+)"(?:,\s*dependencies:\s*\[([^\]]*)\])?"#)
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
        let documented = Self.documentedGraph(try SourceTree.text("docs/architecture.md"))
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

    @Test("every source file imports only modules its target depends on")
    func importsFollowTheGraph() throws {
        let package = Self.packageGraph(try SourceTree.text("Package.swift"))
        let files = try SourceTree.swiftFiles(under: "Sources")
        #expect(files.count > 150, "the sources were read")
        let importLine = try Regex(#"^\s*(?:@\w+\s+)*import\s+(\w+)"#)
        for (path, text) in files.sorted(by: { $0.key < $1.key }) {
            let target = String(path.split(separator: "/")[0])
            let allowed = Self.closure(of: target, in: package)
            #expect(package[target] != nil, "\(path) is in a folder that is not a target")
            for line in text.split(separator: "\n") {
                guard let match = try importLine.prefixMatch(in: line) else { continue }
                let module = String(match.output[1].substring ?? "")
                guard package[module] != nil else { continue }  // the toolchain's own modules
                #expect(allowed.contains(module), "\(path) imports \(module), which \(target) does not depend on")
            }
        }
    }
}
