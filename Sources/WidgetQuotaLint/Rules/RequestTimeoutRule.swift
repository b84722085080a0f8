import Foundation
import WidgetQuotaModel
import WidgetQuotaSupport
import WidgetQuotaSwiftSource

/// `request-timeout`: requests set a timeout shorter than a background slice.
///
/// A `URLRequest(url:)` assigned to a `var`/`let` that the same function sends (passes to a
/// request call, `CallGraph`) or returns, with no `name.timeoutInterval = …` in
/// that function, is a finding at the `URLRequest(` call; so is one built inline as a request
/// call's argument. `URLRequest(url:cachePolicy:timeoutInterval:)` sets one. A session call with a
/// bare URL (`data(from:)`, `download(from:)`, `bytes(from:)`) is a finding at the call: there is
/// no request to set a timeout on. A request sent on a session other than `.shared` (directly, or
/// at the end of the functions it is passed to), in a tree whose `URLSessionConfiguration` sets
/// `timeoutIntervalForRequest` to 30 s or less (in the sending file, else anywhere), is not a
/// finding; one set longer is named in the message. Test code and files no target builds are not read.
///
/// Blind spots: a request handed to a helper that sets the timeout, a timeout set from a
/// property or a function the request passes through, which session configuration goes with
/// which session.
package struct RequestTimeoutRule: LintRule {
    package static let description = LintRuleDescription(
        .requestTimeout, title: "Requests set a timeout shorter than the background slice", severity: .warning,
        rationale: "URLRequest's 60 s default timeout can outlast the ~30 s a background refresh gets.")
    package init() {}

    /// The background slice a refresh's request must fit in (about 30 s).
    static let backgroundSliceSeconds = 30.0

    package func check(_ source: LintSource) -> [Finding] {
        let tree = source.tree
        let context = source.refresh
        let graph = source.graph
        // The `timeoutIntervalForRequest` values each file sets (0 for one that is not a number).
        let configuredIn = tree.swiftFiles.map { file in
            file.index.assignments.filter { $0.target.hasSuffix("timeoutIntervalForRequest") }.map {
                file.index.numericValue($0.value) ?? 0
            }
        }
        let configuredAnywhere = configuredIn.flatMap { $0 }
        // For a call that sends on a session of its own (not `.shared`), itself or at the end of
        // the functions it runs, in a tree that configures sessions' timeouts: the longest
        // timeout configured in the file that sends, else in the tree. Nil otherwise.
        func configuredTimeout(_ call: SwiftCall, inFile f: Int) -> Double? {
            guard !configuredAnywhere.isEmpty else { return nil }
            let sender: (file: Int, call: SwiftCall)
            switch graph.request(call, inFile: f) {
            case .direct?, .session?:
                sender = (f, call)
            case .through(let function, _, _)?:
                guard let (file, c) = graph.finalRequest(from: function) else { return nil }
                sender = (file, tree.swiftFiles[file].index.calls[c])
            case .library?, .closure?, .possiblyRemoteContents?, nil:
                return nil
            }
            guard !sender.call.callee.contains("shared") else { return nil }
            // A session made right there with a default configuration has the 60 s default.
            let senderIndex = tree.swiftFiles[sender.file].index
            let receiver = sender.call.callee.split(separator: ".").dropLast().last.map(String.init)
            if let receiver,
                let made = senderIndex.constants.last(where: { $0.name == receiver && $0.value.upperBound <= sender.call.token })
            {
                let text = senderIndex.text(made.value).filter { !$0.isWhitespace }
                if text.hasPrefix("URLSession(configuration:.default)") || text.hasPrefix("URLSession(configuration:.ephemeral)") {
                    return nil
                }
            }
            let values = configuredIn[sender.file].isEmpty ? configuredAnywhere : configuredIn[sender.file]
            return values.max()
        }
        // True when the session's configured timeout fits a background slice.
        func onConfiguredSession(_ call: SwiftCall, inFile f: Int) -> Bool {
            configuredTimeout(call, inFile: f).map { $0 <= Self.backgroundSliceSeconds } ?? false
        }
        var findings = [Finding]()
        for (f, file) in tree.swiftFiles.enumerated() where !tree.neverShips(file) {
            let index = file.index
            let t = index.tokens
            for call in index.calls {
                if call.callee == "URLRequest" && call.labels.first == "url" && !call.labels.contains("timeoutInterval") {
                    // The function around the request, else the outermost block (a closure in a
                    // property's initialiser: `static var live = Self(fetch: { … })`).
                    guard let body = index.enclosingFunction(of: call)?.body ?? Self.outermostBlock(index, call.block) else { continue }
                    let sends = context.calls(inFile: f, inside: body).filter { context.isRequest($0, inFile: f) }
                    // The sends that decide: those given the request, else (for a request a closure
                    // or helper returns) the function's own sends.
                    let deciding: [SwiftCall]
                    if let name = Self.assignedName(index, call.token) {
                        let sentBy = sends.filter { c in c.arguments.contains { a in a.tokens.contains { t[$0].text == name } } }
                        let returned = index.returns.contains {
                            index.isBlock($0.block, inside: body) && $0.token + 1 < t.count && t[$0.token + 1].text == name
                        }
                        guard !sentBy.isEmpty || returned else { continue }
                        let timed = index.assignments.contains {
                            $0.target == name + ".timeoutInterval" && index.isBlock($0.block, inside: body)
                        }
                        if timed { continue }
                        deciding = sentBy.isEmpty ? sends : sentBy
                    } else {
                        deciding = sends.filter { c in c.arguments.contains { $0.tokens.contains(call.token) } }
                        guard !deciding.isEmpty else { continue }
                    }
                    if deciding.contains(where: { onConfiguredSession($0, inFile: f) }) { continue }
                    let configured = deciding.compactMap { configuredTimeout($0, inFile: f) }.max()
                    let limit =
                        configured.map { "its session's configuration allows \(NumberText.plain($0)) s (`timeoutIntervalForRequest`)" }
                        ?? "the 60 s default"
                    findings.append(
                        finding(
                            file.path, call.location,
                            "`URLRequest(url:)` without `timeoutInterval`: \(limit), longer than a ~30 s background slice",
                            fix: "Set `request.timeoutInterval` (10–15 s) before sending it"))
                } else if let session = Self.alamofireSession(call, graph.request(call, inFile: f)),
                    !call.labels.contains("requestModifier"), call.trailingClosure == nil, Self.sendsURL(call, index),
                    session == "AF" || !onConfiguredSession(call, inFile: f)
                {
                    let start = call.token - 2 * (call.callee.split(separator: ".").count - 1)
                    let at = start >= 0 && start < t.count ? t[start].location : call.location
                    findings.append(
                        finding(
                            file.path, at,
                            "`\(call.callee)` of a URL without a `requestModifier` setting `timeoutInterval`: "
                                + (session == "AF" ? "Alamofire's default session waits 60 s" : "the session's 60 s default")
                                + ", longer than a ~30 s background slice",
                            fix:
                                "Pass `requestModifier: { $0.timeoutInterval = 15 }`, or send on a `Session` whose configuration sets `timeoutIntervalForRequest`"
                        ))
                } else if SourceVocabulary.isDirectRequest(call) || graph.request(call, inFile: f) == .session("URLSession"),
                    Self.takesBareURL(call, index), !onConfiguredSession(call, inFile: f)
                {
                    // At the start of the callee (`URLSession.shared.data`), as the compiler would.
                    let start = call.token - 2 * (call.callee.split(separator: ".").count - 1)
                    let at = start >= 0 && start < t.count ? t[start].location : call.location
                    findings.append(
                        finding(
                            file.path, at,
                            "`\(call.name)(\(call.labels.first ?? "from"):)` with a bare URL: the 60 s default timeout, and no way to set one",
                            fix: "Build a `URLRequest` with `timeoutInterval` (10–15 s) and pass it instead of the URL"))
                }
            }
        }
        return findings
    }

    /// The outermost block holding `block` inside a type's body (a property's accessor or
    /// initialiser), nil for one directly in a type's body or at the top level.
    static func outermostBlock(_ index: SwiftFileIndex, _ block: Int?) -> Int? {
        guard var b = block, index.blocks[b].kind != .typeBody else { return nil }
        while let parent = index.blocks[b].parent, index.blocks[parent].kind != .typeBody { b = parent }
        return b
    }

    /// A session call given a URL, not a request: `data(from:)`, `download(from:)`,
    /// `bytes(from:)`, and `dataTask(with:)` / `downloadTask(with:)` whose argument is a URL
    /// (`URL(string:)`, a name ending in `url`), not a `URLRequest`.
    static func takesBareURL(_ call: SwiftCall, _ index: SwiftFileIndex) -> Bool {
        let name = String(call.name)
        if call.labels.first == "from" { return ["data", "download", "bytes"].contains(name) }
        guard call.labels.first == "with", name == "dataTask" || name == "downloadTask", let argument = call.arguments.first else {
            return false
        }
        let names = argument.tokens.filter { index.tokens[$0].kind == .identifier }.map { index.tokens[$0].text.lowercased() }
        guard !names.contains(where: { $0.contains("request") }) else { return false }
        return names.first == "url" && names.count > 1 || names.last.map { $0.hasSuffix("url") } ?? false
    }

    /// For an Alamofire request (`AF.request(…)`, `AF.download(…)`, or `request` on a library's
    /// `Session`): "AF" or the session's type. Nil for anything else.
    static func alamofireSession(_ call: SwiftCall, _ route: RequestRoute?) -> String? {
        let methods: Set<Substring> = ["request", "download", "upload", "streamRequest"]
        guard methods.contains(call.name) else { return nil }
        if call.callee == "AF." + call.name || call.callee.hasSuffix(".AF." + call.name) { return "AF" }
        if case .library(let type)? = route, type == "Session" || type == "SessionManager" { return type }
        return nil
    }

    /// True when an Alamofire call is given a URL (a string, `URL(…)`, a name that reads as a URL,
    /// or the `method:`/`parameters:`/`headers:` form), not a `URLRequest` built elsewhere, whose
    /// own timeout the `URLRequest(url:)` branch checks where it is built.
    static func sendsURL(_ call: SwiftCall, _ index: SwiftFileIndex) -> Bool {
        let labels = Set(call.labels)
        if !labels.isDisjoint(with: ["method", "parameters", "encoding", "encoder", "headers"]) { return true }
        guard let first = call.arguments.first else { return false }
        // A string, `URL(…)`, or a value named as a URL is (`feedURL`); a type (`Endpoint.quote`, a router) is not.
        return first.tokens.contains { k in
            let token = index.tokens[k]
            if token.kind == .string { return true }
            guard token.kind == .identifier else { return false }
            return token.text == "URL" || (!DeclaredTypes.isTypeName(token.text) && token.text.lowercased().hasSuffix("url"))
        }
    }

    /// The name a call at `token` is assigned to: `var request = URLRequest(…)` or
    /// `let request: URLRequest = URLRequest(…)`.
    static func assignedName(_ index: SwiftFileIndex, _ token: Int) -> String? {
        let t = index.tokens
        guard token >= 3, t[token - 1].is("=") else { return nil }
        var k = token - 2
        if k >= 2, t[k - 1].is(":") { k -= 2 }
        guard k >= 1, t[k].kind == .identifier, t[k - 1].isKeyword("var") || t[k - 1].isKeyword("let") else { return nil }
        return t[k].text
    }

    package var examples: [LintRuleExample] {
        [
            LintRuleExample(
                "Alamofire: a URL sent on the default session without a request modifier, and one with; dataTask of a bare URL and of a request",
                files: [
                    "App/Refresher.swift": """
                    import Alamofire
                    final class Refresher {
                        func refresh() {
                            ↓AF.request("https://api.example.com/quote").responseData { _ in }
                            AF.request("https://api.example.com/quote", requestModifier: { $0.timeoutInterval = 15 }).responseData { _ in }
                        }
                        func legacy(feedURL: URL, request: URLRequest) {
                            let session = URLSession(configuration: .default)
                            ↓session.dataTask(with: feedURL) { _, _, _ in }.resume()
                            session.dataTask(with: request) { _, _, _ in }.resume()
                        }
                    }
                    """
                ]),
            LintRuleExample(
                "a page load in a web view, and a request sent through a helper whose session is configured to 10 s",
                files: [
                    "App/WebScreen.swift": """
                    import WebKit
                    final class WebScreen {
                        let webView: WKWebView = WKWebView()
                        func show() { webView.load(URLRequest(url: URL(string: "https://example.com")!)) }
                    }
                    """,
                    "App/Client.swift": """
                    import Foundation
                    final class Client {
                        private let session: URLSession = {
                            let configuration = URLSessionConfiguration.default
                            configuration.timeoutIntervalForRequest = 10
                            return URLSession(configuration: configuration)
                        }()
                        func send(_ request: URLRequest) async throws -> Data { try await session.data(for: request).0 }
                        func states() async throws -> Data {
                            let request = URLRequest(url: URL(string: "https://x/api/states")!)
                            return try await send(request)
                        }
                    }
                    """,
                ]),
            LintRuleExample(
                "a request without a timeout, and data(from:) with a bare URL",
                files: [
                    "App/Fetcher.swift": """
                    import Foundation
                    struct Fetcher {
                        func fetch(url: URL) async throws -> Data {
                            var request = ↓URLRequest(url: url)
                            request.httpMethod = "POST"
                            return try await URLSession.shared.data(for: request).0
                        }
                        func sample(url: URL) async throws -> Data {
                            try await ↓URLSession.shared.data(from: url).0
                        }
                    }
                    """
                ]),
            LintRuleExample(
                "a request built inline as the argument, and one returned to the caller",
                files: [
                    "App/Fetcher.swift": """
                    import Foundation
                    struct Fetcher {
                        func fetch(url: URL) async throws -> Data {
                            try await URLSession.shared.data(for: ↓URLRequest(url: url)).0
                        }
                        func make(url: URL) -> URLRequest {
                            let request = ↓URLRequest(url: url)
                            return request
                        }
                    }
                    """
                ]),
            LintRuleExample(
                "timeouts set on the request, in its initializer, or in the session configuration",
                files: [
                    "App/Fetcher.swift": """
                    import Foundation
                    struct Fetcher {
                        let session: URLSession = {
                            let configuration = URLSessionConfiguration.default
                            configuration.timeoutIntervalForRequest = 15
                            return URLSession(configuration: configuration)
                        }()
                        func fetch(url: URL) async throws -> Data {
                            var request = URLRequest(url: url)
                            request.timeoutInterval = 15
                            return try await URLSession.shared.data(for: request).0
                        }
                        func other(url: URL) async throws -> Data {
                            let request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: 10)
                            return try await URLSession.shared.data(for: request).0
                        }
                        func configured(url: URL) async throws -> Data {
                            let request = URLRequest(url: url)
                            return try await session.data(for: request).0
                        }
                    }
                    """
                ]),
            LintRuleExample(
                "a URLRequest in a comment or a string, and one never sent",
                files: [
                    "App/Fetcher.swift": """
                    import Foundation
                    struct Fetcher {
                        // var request = URLRequest(url: url); URLSession.shared.data(for: request)
                        func describe(url: URL) -> String {
                            let request = URLRequest(url: url)
                            return "URLRequest(url: \\(request.url!)) sent with URLSession.shared.data(from: url)"
                        }
                    }
                    """
                ]),
        ]
    }
}

extension RequestTimeoutRule {
    /// Something to check: a request sent.
    package func hasSomethingToCheck(_ source: LintSource) -> Bool {
        source.graph.direct.contains { $0.contains(true) }
    }
}
