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

    /// WidgetKit's reload calls.
    package static let reloadCalls: Set<String> = ["reloadAllTimelines", "reloadTimelines"]
    /// Timeline provider protocols: a type conforming to one is the widget's provider.
    package static let providerProtocols: Set<String> = [
        "TimelineProvider", "AppIntentTimelineProvider", "IntentTimelineProvider",
    ]
}
