import Foundation
import WidgetQuotaSwiftSource

/// What the rules recognise in Swift source: the calls that send a request and the WidgetKit
/// and BackgroundTasks names they look for. With `CallGraph` (which functions reach such a
/// call), one place, so every rule and the design reader agree on what "a network call" is.
package enum SourceVocabulary {
    /// `URLSession` methods that send a request (`URLSession.shared.data(for:)`, `session.dataTask(with:)`).
    package static let sessionMethods: Set<String> = [
        "data", "dataTask", "dataTaskPublisher", "upload", "uploadTask", "download", "downloadTask", "bytes", "webSocketTask",
        "streamTask",
    ]
    /// SDK methods that call a model API (Google AI / Firebase AI Logic `generateContent`,
    /// `sendMessage` on a chat, OpenAI-style `chats.create`), and Alamofire's `AF.request`.
    package static let sdkMethods: Set<String> = [
        "generateContent", "generateContentStream", "sendMessage", "sendMessageStream", "countTokens",
    ]

    /// True when `call` itself sends a request: a `URLSession` method on a session (a receiver
    /// named `session`, `URLSession…`, or `.shared`), a model SDK call, or `AF.request`.
    package static func isDirectRequest(_ call: SwiftCall) -> Bool {
        let name = String(call.name)
        if sdkMethods.contains(name) { return true }
        if name == "request" { return call.callee == "AF.request" || call.callee.hasSuffix(".AF.request") }
        guard sessionMethods.contains(name), let dot = call.callee.utf8.lastIndex(of: UInt8(ascii: ".")) else { return false }
        let receiver = call.callee[..<dot]
        let last = receiver.utf8.lastIndex(of: UInt8(ascii: ".")).map { receiver[receiver.utf8.index(after: $0)...] } ?? receiver
        // `Data(…)`, `JSONSerialization.data(withJSONObject:)` and the like are not sessions.
        return ("." + receiver + ".").contains(".URLSession.") || last == "shared" || last.lowercased().hasSuffix("session")
    }

    /// True when `call` is `Data(contentsOf:)` (or `String(contentsOf:)`) of a remote URL: a
    /// synchronous request. Remote means the argument holds an `http(s)://` literal or
    /// `URL(string:)`, directly or through a constant of the file; a file URL (`fileURLWithPath`,
    /// `Bundle`, `FileManager`, an App Group container) is not.
    package static func isRemoteContentsRead(_ call: SwiftCall, in index: SwiftFileIndex) -> Bool {
        guard call.callee == "Data" || call.callee == "String" || call.callee == "NSData",
            call.arguments.first?.label == "contentsOf", let argument = call.arguments.first
        else { return false }
        func remote(_ range: Range<Int>, depth: Int) -> Bool {
            guard range.upperBound <= index.tokens.count, depth < 3 else { return false }
            var sawRemote = false
            for k in range {
                let t = index.tokens[k]
                if t.kind == .string, let value = t.value, value.hasPrefix("http://") || value.hasPrefix("https://") { sawRemote = true }
                if t.kind == .identifier {
                    if localNames.contains(t.text) { return false }
                    if t.text == "URL", k + 3 < range.upperBound, index.tokens[k + 2].text == "string" { sawRemote = true }
                    if let constant = index.constants.first(where: { $0.name == t.text }), remote(constant.value, depth: depth + 1) {
                        sawRemote = true
                    }
                }
            }
            return sawRemote
        }
        return remote(argument.tokens, depth: 0)
    }

    /// Names in a URL expression that make it a local file.
    static let localNames: Set<String> = [
        "fileURLWithPath", "filePath", "Bundle", "FileManager", "containerURL", "temporaryDirectory", "documentsDirectory",
    ]

    /// WidgetKit's reload calls.
    package static let reloadCalls: Set<String> = ["reloadAllTimelines", "reloadTimelines"]
    /// Timeline provider protocols: a type conforming to one is the widget's provider.
    package static let providerProtocols: Set<String> = [
        "TimelineProvider", "AppIntentTimelineProvider", "IntentTimelineProvider",
    ]
}
