import Foundation

/// What the rules recognise in Swift source: the calls that send a request, the functions that
/// (through calls of their own) do, and the WidgetKit and BackgroundTasks names they look for.
/// One place, so every rule and the design reader agree on what "a network call" is.
public enum SourceVocabulary {
    /// `URLSession` methods that send a request (`URLSession.shared.data(for:)`, `session.dataTask(with:)`).
    public static let sessionMethods: Set<String> = [
        "data", "dataTask", "upload", "uploadTask", "download", "downloadTask", "bytes", "webSocketTask", "streamTask",
    ]
    /// SDK methods that call a model API (Google AI / Firebase AI Logic `generateContent`,
    /// `sendMessage` on a chat, OpenAI-style `chats.create`), and Alamofire's `AF.request`.
    public static let sdkMethods: Set<String> = [
        "generateContent", "generateContentStream", "sendMessage", "sendMessageStream", "countTokens",
    ]

    /// True when `call` itself sends a request: a `URLSession` method on a session (a receiver
    /// named `session`, `URLSession…`, or `.shared`), a model SDK call, or `AF.request`.
    public static func isDirectRequest(_ call: SwiftCall) -> Bool {
        let name = String(call.name)
        if sdkMethods.contains(name) { return true }
        if call.callee == "AF.request" || call.callee.hasSuffix(".AF.request") { return true }
        guard sessionMethods.contains(name) else { return false }
        let receiver = call.callee.split(separator: ".").dropLast().map(String.init)
        guard let last = receiver.last else { return false }
        // `Data(…)`, `JSONSerialization.data(withJSONObject:)` and the like are not sessions.
        return receiver.contains("URLSession") || last == "shared" || last.lowercased().hasSuffix("session")
    }

    /// Names of the functions in `tree` that send a request, directly or by calling one that does
    /// (to a fixed point), keyed by the type that declares them ("" for free functions) and name.
    public static func requestingFunctions(in tree: AppSourceTree) -> Set<String> {
        var result = Set<String>()
        var changed = true
        while changed {
            changed = false
            for file in tree.swiftFiles {
                let index = file.index
                for function in index.functions where !result.contains(key(function)) {
                    let calls = index.calls(inside: function)
                    if calls.contains(where: { isDirectRequest($0) || callsRequesting($0, result) }) {
                        result.insert(key(function))
                        changed = true
                    }
                }
            }
        }
        return result
    }

    /// True when `call` sends a request itself or calls a function of `requesting`
    /// (`requestingFunctions(in:)`).
    public static func isRequest(_ call: SwiftCall, requesting: Set<String>) -> Bool {
        isDirectRequest(call) || callsRequesting(call, requesting)
    }

    /// The key of a function in `requestingFunctions`: `Type.name`, or `name` for a free function.
    public static func key(_ function: SwiftFunction) -> String {
        (function.typeName.map { $0 + "." } ?? "") + function.name
    }

    /// A call matches a requesting function by name: `fetch()` or `self.fetch()` inside its own
    /// type, `Fetcher().fetch()` / `fetcher.fetch()` from anywhere (the receiver's type is not
    /// known without type checking, so any type's function of that name counts).
    static func callsRequesting(_ call: SwiftCall, _ requesting: Set<String>) -> Bool {
        let name = String(call.name)
        return requesting.contains(name) || requesting.contains { $0.hasSuffix("." + name) }
    }

    /// WidgetKit's reload calls.
    public static let reloadCalls: Set<String> = ["reloadAllTimelines", "reloadTimelines"]
    /// Timeline provider protocols: a type conforming to one is the widget's provider.
    public static let providerProtocols: Set<String> = [
        "TimelineProvider", "AppIntentTimelineProvider", "IntentTimelineProvider",
    ]
}
