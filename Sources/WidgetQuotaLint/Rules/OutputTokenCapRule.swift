import Foundation
import WidgetQuotaModel
import WidgetQuotaSwiftSource

/// `output-token-cap`: requests to a model API cap the output tokens.
///
/// A function that assigns `….httpBody` is a model request when a string literal in it (or in
/// a constant it names: `model`, `Self.endpoint`, `Config.url`) holds a model API address
/// (`OutputTokenCapRule.modelMarkers`). Its body is capped when the function, a constant it names
/// or a type it names (a `Codable` request struct) holds a cap key (`OutputTokenCapRule.capKeys`)
/// as a name or inside a string. An uncapped model request is a finding at the `httpBody`
/// assignment. With a model SDK: a `GenerationConfig(…)` without `maxOutputTokens:` is a finding
/// at that call; a `generateContent` call in a tree that builds no `GenerationConfig` and names no
/// cap key, and declares no `generateContent` of its own, is a finding at the call.
///
/// Blind spots: a body built in another function than the one that assigns it, a URL assembled
/// from parts none of which names the API, a cap set on a model object after it is made.
package struct OutputTokenCapRule: LintRule {
    package static let description = LintRuleDescription(
        .outputTokenCap, title: "Model requests cap their output tokens", severity: .warning,
        rationale: "Without an output-token cap a model may answer at length: cost and latency grow with every token.")
    package init() {}

    /// Substrings of a model API's address.
    package static let modelMarkers = [
        "generativelanguage.googleapis.com", "api.openai.com", "api.anthropic.com", "/chat/completions", ":generateContent",
    ]
    /// Names of an output-token cap in the APIs' request bodies and SDKs.
    package static let capKeys = [
        "maxOutputTokens", "max_tokens", "max_output_tokens", "max_completion_tokens", "maxTokens", "maxCompletionTokens",
    ]

    package func check(_ source: LintSource) -> [Finding] {
        let tree = source.tree
        var findings = [Finding]()
        let declaresGenerateContent = tree.swiftFiles.contains { !$0.index.functions(named: "generateContent").isEmpty }
        let configs = tree.swiftFiles.flatMap { f in f.index.calls.filter { $0.callee == "GenerationConfig" }.map { (f, $0) } }
        let treeNamesCap = tree.swiftFiles.contains { Self.holdsCap($0.index, 0..<$0.index.tokens.count) }
        for file in tree.swiftFiles {
            let index = file.index
            for assignment in index.assignments where assignment.target.hasSuffix("httpBody") {
                guard let function = index.enclosingFunction(assignment.block), let body = function.body else { continue }
                let range = index.blocks[body].open..<index.blocks[body].close
                let related = Self.relatedRanges(tree, index, range)
                let isModel = ([(index, range)] + related).contains { (i, r) in
                    i.stringValues(r).contains { s in Self.modelMarkers.contains { s.contains($0) } }
                }
                guard isModel else { continue }
                let capped = ([(index, range)] + related).contains { Self.holdsCap($0.0, $0.1) }
                if capped { continue }
                findings.append(
                    finding(
                        file.path, assignment.location,
                        "the model request's body sets no output-token cap: answers may run to the model's maximum",
                        fix:
                            "Add `maxOutputTokens` (Gemini `generationConfig`) or `max_tokens` (OpenAI, Anthropic) sized to what the widget shows"
                    ))
            }
            for call in index.calls {
                if call.callee == "GenerationConfig" && !call.labels.contains(where: { Self.capKeys.contains($0) }) {
                    findings.append(
                        finding(
                            file.path, call.location,
                            "`GenerationConfig` without `maxOutputTokens`: answers may run to the model's maximum",
                            fix: "Pass `maxOutputTokens:` sized to what the widget shows"))
                } else if ["generateContent", "generateContentStream"].contains(String(call.name)), !declaresGenerateContent,
                    configs.isEmpty, !treeNamesCap
                {
                    findings.append(
                        finding(
                            file.path, call.location, "`\(call.name)` on a model made without a `GenerationConfig`: no output-token cap",
                            fix: "Create the model with `generationConfig: GenerationConfig(maxOutputTokens: …)`"))
                }
            }
        }
        return findings
    }

    /// True when `range` of `index` holds a cap key as a name or inside a string literal.
    static func holdsCap(_ index: SwiftFileIndex, _ range: Range<Int>) -> Bool {
        range.contains { k in
            let t = index.tokens[k]
            if t.kind == .identifier { return capKeys.contains(t.text) }
            if t.kind == .string, let v = t.value { return capKeys.contains { v.contains($0) } }
            return false
        }
    }

    /// The value ranges of the type-level and global constants and the bodies of the types that
    /// `range` names, in any file.
    static func relatedRanges(_ tree: AppSourceTree, _ index: SwiftFileIndex, _ range: Range<Int>) -> [(SwiftFileIndex, Range<Int>)] {
        var names = Set<String>()
        for k in range where index.tokens[k].kind == .identifier { names.insert(index.tokens[k].text) }
        var out = [(SwiftFileIndex, Range<Int>)]()
        for file in tree.swiftFiles {
            let other = file.index
            // Constants of a type or the file, not the locals of other functions.
            for c in other.constants where names.contains(c.name) && other.enclosingFunction(c.block) == nil {
                out.append((other, c.value))
            }
            for type in other.types where names.contains(type.name) {
                if let b = type.body { out.append((other, other.blocks[b].open..<other.blocks[b].close)) }
            }
        }
        return out
    }

    package var examples: [LintRuleExample] {
        [
            LintRuleExample(
                "a Gemini request whose URL is a constant, and an OpenAI request, both uncapped",
                files: [
                    "App/Fetcher.swift": """
                    import Foundation
                    struct Fetcher {
                        static let endpoint = "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent"
                        func gemini() throws -> URLRequest {
                            var request = URLRequest(url: URL(string: Fetcher.endpoint)!)
                            ↓request.httpBody = try JSONSerialization.data(withJSONObject: ["contents": []])
                            return request
                        }
                        func openAI() throws -> URLRequest {
                            var request = URLRequest(url: URL(string: "https://api.openai.com/v1/chat/completions")!)
                            ↓request.httpBody = try JSONEncoder().encode(ChatBody(model: "gpt-4o-mini"))
                            return request
                        }
                    }
                    struct ChatBody: Encodable { let model: String }
                    """
                ]),
            LintRuleExample(
                "an SDK GenerationConfig without maxOutputTokens",
                files: [
                    "App/Model.swift": """
                    import GoogleGenerativeAI
                    let config = ↓GenerationConfig(temperature: 0.2)
                    """
                ]),
            LintRuleExample(
                "caps in a dictionary body, in a Codable body type, and in the SDK config",
                files: [
                    "App/Fetcher.swift": """
                    import Foundation
                    struct Fetcher {
                        func gemini() throws -> URLRequest {
                            var request = URLRequest(url: URL(string: "https://generativelanguage.googleapis.com/v1beta/models/m:generateContent")!)
                            request.httpBody = try JSONSerialization.data(withJSONObject: ["generationConfig": ["maxOutputTokens": 60]])
                            return request
                        }
                        func openAI() throws -> URLRequest {
                            var request = URLRequest(url: URL(string: "https://api.openai.com/v1/chat/completions")!)
                            request.httpBody = try JSONEncoder().encode(ChatBody(model: "gpt-4o-mini", max_tokens: 60))
                            return request
                        }
                    }
                    struct ChatBody: Encodable {
                        let model: String
                        let max_tokens: Int
                    }
                    let config = GenerationConfig(maxOutputTokens: 60)
                    """
                ]),
            LintRuleExample(
                "a request to our own backend, and a model address in a comment, are not model requests",
                files: [
                    "App/Fetcher.swift": """
                    import Foundation
                    struct Fetcher {
                        // The server calls https://api.openai.com/v1/chat/completions with max_tokens.
                        func fetch() throws -> URLRequest {
                            var request = URLRequest(url: URL(string: "https://api.example.com/v1/quote")!)
                            request.httpBody = try JSONSerialization.data(withJSONObject: ["prompt": "quote"])
                            return request
                        }
                    }
                    """
                ]),
        ]
    }
}
