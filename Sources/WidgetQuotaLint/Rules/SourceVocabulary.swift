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

    /// Alamofire's requests on its default session (`AF.request(…)`, `AF.download(…)`).
    static let alamofireMethods: Set<String> = ["request", "download", "upload", "streamRequest", "websocketRequest"]

    /// True when `call` itself sends a request: a `URLSession` method on a session (a receiver
    /// named `session`, `URLSession…`, or `.shared`), a model SDK call, or Alamofire's `AF.request` (`download`, `upload`, …).
    package static func isDirectRequest(_ call: SwiftCall) -> Bool {
        let name = String(call.name)
        if sdkMethods.contains(name) { return true }
        if alamofireMethods.contains(name), call.callee == "AF." + name || call.callee.hasSuffix(".AF." + name) { return true }
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

    /// True when `call` is `Data(contentsOf:)` (or `String(contentsOf:)`) of a URL the code
    /// shows neither remote nor local, named as a remote resource is (`imageUrl`,
    /// `artworkURL`, `avatar.url`): a synchronous request when the URL is remote, known by its
    /// name only. A name of a file (`fileURL`, `cachePath`) or a local expression is not one.
    package static func isPossiblyRemoteContentsRead(_ call: SwiftCall, in index: SwiftFileIndex) -> Bool {
        guard call.callee == "Data" || call.callee == "String" || call.callee == "NSData",
            call.arguments.first?.label == "contentsOf", let argument = call.arguments.first,
            argument.tokens.upperBound <= index.tokens.count
        else { return false }
        var remoteWord = false
        var ranges = [argument.tokens]
        for k in argument.tokens where index.tokens[k].kind == .identifier {
            if let constant = index.constants.last(where: { $0.name == index.tokens[k].text && $0.value.upperBound <= k }) {
                ranges.append(constant.value)
            }
        }
        for range in ranges {
            for k in range where k < index.tokens.count && index.tokens[k].kind == .identifier {
                let words = camelWords(index.tokens[k].text)
                if localNames.contains(index.tokens[k].text) || !words.isDisjoint(with: localWords) { return false }
                if !words.isDisjoint(with: remoteWords) { remoteWord = true }
            }
        }
        return remoteWord
    }

    /// Words of a name that read as a remote resource's URL.
    static let remoteWords: Set<String> = [
        "image", "img", "artwork", "thumbnail", "avatar", "icon", "photo", "picture", "poster", "cover", "remote", "server",
        "download", "feed", "http", "https", "web", "endpoint", "api",
    ]
    /// Words of a name that read as a file's.
    static let localWords: Set<String> = [
        "file", "path", "local", "cache", "cached", "document", "documents", "directory", "container", "bundle", "disk", "temp",
        "tmp",
    ]

    /// The lowercase words of a camel-case or snake-case name: `artworkURL` → artwork, url.
    static func camelWords(_ name: String) -> Set<String> { Set(words(of: name)) }

    /// The lowercase words of a name in order, split at case changes, `_` and `-`:
    /// `CACHE_MAX_AGE` → cache, max, age; `staleAfterMinutes` → stale, after, minutes.
    static func words(of name: String) -> [String] {
        var words = [String]()
        var current = ""
        var previousLower = false
        for ch in name {
            if !(ch.isLetter || ch.isNumber) {
                if !current.isEmpty { words.append(current.lowercased()) }
                current = ""
                previousLower = false
                continue
            }
            if ch.isUppercase && previousLower && !current.isEmpty {
                words.append(current.lowercased())
                current = ""
            }
            current.append(ch)
            previousLower = ch.isLowercase || ch.isNumber
        }
        if !current.isEmpty { words.append(current.lowercased()) }
        return words
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
