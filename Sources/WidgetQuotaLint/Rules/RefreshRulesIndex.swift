import Foundation
import WidgetQuotaSwiftSource

/// What the refresh and request rules (`policy-shorter-than-ttl`, `reload-misuse`,
/// `bgtask-completion`, `request-timeout`, `retry-loop`) look up often, built once per check in
/// time linear in the tree (up to a logarithm): each file's calls in source order, the tree's
/// functions by name, and the call graph (`CallGraph`): where each call goes and which
/// functions send a request.
struct RefreshRulesIndex {
    let tree: AppSourceTree
    /// Per file: indices of its calls sorted by their name token.
    let callOrder: [[Int]]
    /// Functions with a body by name: file and index in the file's `functions`.
    let functionsByName: [String: [(file: Int, function: Int)]]
    /// Where each call goes, and the functions that send a request.
    let graph: CallGraph

    init(_ tree: AppSourceTree, graph: CallGraph) {
        self.tree = tree
        let order = tree.swiftFiles.map { file in
            file.index.calls.indices.sorted { file.index.calls[$0].token < file.index.calls[$1].token }
        }
        callOrder = order
        var byName = [String: [(file: Int, function: Int)]]()
        for (f, file) in tree.swiftFiles.enumerated() {
            for (k, function) in file.index.functions.enumerated() where function.body != nil {
                byName[function.name, default: []].append((f, k))
            }
        }
        functionsByName = byName
        self.graph = graph
    }

    /// True when `call` (of file `file`) sends a request itself or runs a function that does.
    func isRequest(_ call: SwiftCall, inFile file: Int) -> Bool { graph.isRequest(call, inFile: file) }

    /// The calls of file `file` inside `block`'s braces (nested blocks included), in source order.
    func calls(inFile file: Int, inside block: Int) -> [SwiftCall] {
        Self.calls(tree.swiftFiles[file].index, callOrder[file], inside: block)
    }

    static func calls(_ index: SwiftFileIndex, _ order: [Int], inside block: Int) -> [SwiftCall] {
        let open = index.blocks[block].open
        let close = index.blocks[block].close
        var lo = 0
        var hi = order.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if index.calls[order[mid]].token <= open { lo = mid + 1 } else { hi = mid }
        }
        var out = [SwiftCall]()
        while lo < order.count, index.calls[order[lo]].token < close {
            out.append(index.calls[order[lo]])
            lo += 1
        }
        return out
    }

    /// The file index of file `file`.
    func index(_ file: Int) -> SwiftFileIndex { tree.swiftFiles[file].index }

    /// The functions `call` (in file `file`) may run, as the call graph resolves it.
    func functions(calledBy call: SwiftCall, inFile file: Int) -> [(file: Int, body: Int, parameters: [String])] {
        resolved(graph.target(of: call, inFile: file).functions.map { ($0.file, $0.function) })
    }

    /// Functions of the tree called `name` with a body: their file, body block and parameter names.
    func functions(named name: String) -> [(file: Int, body: Int, parameters: [String])] {
        resolved(functionsByName[name] ?? [])
    }

    func resolved(_ entries: [(file: Int, function: Int)]) -> [(file: Int, body: Int, parameters: [String])] {
        entries.compactMap { entry in
            let index = tree.swiftFiles[entry.file].index
            let function = index.functions[entry.function]
            return function.body.map { (entry.file, $0, BGTaskCompletionHandlers.parameterNames(index, function)) }
        }
    }

    /// The loops (block indices) of file `file` inside `block`.
    func loops(inFile file: Int, inside block: Int) -> [Int] {
        let index = tree.swiftFiles[file].index
        let close = index.blocks[block].close
        var out = [Int]()
        var k = block + 1
        while k < index.blocks.count && index.blocks[k].open < close {
            if index.blocks[k].kind.isLoop { out.append(k) }
            k += 1
        }
        return out
    }
}
