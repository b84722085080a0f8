import Foundation
import WidgetQuotaSwiftSource

/// What the rules recognise in Swift source: the calls that send a request, the functions that
/// (through calls of their own) do, and the WidgetKit and BackgroundTasks names they look for.
/// One place, so every rule and the design reader agree on what "a network call" is.
package enum SourceVocabulary {
    /// `URLSession` methods that send a request (`URLSession.shared.data(for:)`, `session.dataTask(with:)`).
    package static let sessionMethods: Set<String> = [
        "data", "dataTask", "upload", "uploadTask", "download", "downloadTask", "bytes", "webSocketTask", "streamTask",
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

    /// The functions in `tree` that send a request, directly or by calling one that does (to a
    /// fixed point): each as its key (`Type.name`, or `name` for a free function) and as its bare
    /// name, since a call is matched by name (see `isRequest(_:requesting:)`).
    ///
    /// Linear in the tree: each call is attributed once to the functions around it, and callers
    /// are followed by name from a worklist.
    package static func requestingFunctions(in tree: AppSourceTree) -> Set<String> {
        var result = Set<String>()
        var pending = [String]()
        // Keys of the functions that call a name (the callee's last name).
        var callers = [String: Set<String>]()
        for file in tree.swiftFiles {
            let index = file.index
            let keys = index.functions.map(key)
            for call in index.calls {
                let direct = isDirectRequest(call)
                let name = direct ? "" : String(call.name)
                var b = call.block
                while let k = b {
                    if let f = index.blocks[k].function {
                        if direct {
                            if result.insert(keys[f]).inserted { pending.append(keys[f]) }
                        } else {
                            callers[name, default: []].insert(keys[f])
                        }
                    }
                    b = index.blocks[k].parent
                }
            }
        }
        var names = Set<String>()
        while let k = pending.popLast() {
            let name = String(k.split(separator: ".").last ?? Substring(k))
            guard names.insert(name).inserted else { continue }
            for caller in callers[name] ?? [] where result.insert(caller).inserted {
                pending.append(caller)
            }
        }
        return result.union(names)
    }

    /// True when `call` sends a request itself or calls a function of `requesting`
    /// (`requestingFunctions(in:)`).
    package static func isRequest(_ call: SwiftCall, requesting: Set<String>) -> Bool {
        isDirectRequest(call) || callsRequesting(call, requesting)
    }

    /// The key of a function in `requestingFunctions`: `Type.name`, or `name` for a free function.
    package static func key(_ function: SwiftFunction) -> String {
        (function.typeName.map { $0 + "." } ?? "") + function.name
    }

    /// A call matches a requesting function by name: `fetch()` or `self.fetch()` inside its own
    /// type, `Fetcher().fetch()` / `fetcher.fetch()` from anywhere (the receiver's type is not
    /// known without type checking, so any type's function of that name counts).
    static func callsRequesting(_ call: SwiftCall, _ requesting: Set<String>) -> Bool {
        requesting.contains(String(call.name))
    }

    /// WidgetKit's reload calls.
    package static let reloadCalls: Set<String> = ["reloadAllTimelines", "reloadTimelines"]
    /// Timeline provider protocols: a type conforming to one is the widget's provider.
    package static let providerProtocols: Set<String> = [
        "TimelineProvider", "AppIntentTimelineProvider", "IntentTimelineProvider",
    ]
}
