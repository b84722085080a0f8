import Foundation

/// How a network client of a library the tree does not hold is recognised by its names: a
/// type called `…Connection`, `…Client`, `…APIRequest`, Alamofire's `Session` and the like, and
/// a method a client sends with (`send`, `request`, `fetch`, …). Such a call is a request known
/// by names only (a warning that says so): HAKit's `connection.send(…)`, an `APIRequest`'s
/// `fetch`, Alamofire's `session.request(…)`. The receiver's type must be stated in the file
/// (`DeclaredTypes`); a call on a value of unknown type is never taken for one.
enum LibraryClients {
    /// Methods a network client sends with.
    static let methods: Set<String> = [
        "send", "request", "fetch", "perform", "execute", "get", "post", "put", "patch", "delete", "call", "query", "mutate",
        "subscribe", "upload", "download",
    ]
    /// Last words of client type names.
    static let typeSuffixes = ["Connection", "Client", "APIRequest", "HTTPRequest", "NetworkRequest", "APIService", "HTTPService"]
    /// Words that make a type a network client wherever they stand in its name
    /// (`NetworkManager`, `APIManager`, `HTTPLoader`, `RestService`, `GraphQLService`).
    static let typeWords = ["Network", "Networking", "API", "Api", "HTTP", "Http", "REST", "Rest", "GraphQL", "Graphql"]
    /// Whole client type names (Alamofire's `Session`, `SessionManager`; Apollo's `ApolloClient` is a `…Client`).
    static let typeNames: Set<String> = ["Session", "SessionManager", "Alamofire", "Moya", "MoyaProvider", "Apollo"]

    static func isClientType(_ name: String) -> Bool {
        typeNames.contains(name) || typeSuffixes.contains { name.hasSuffix($0) }
            || (containsWord(name) && !notClientWords.contains { name.contains($0) })
    }

    /// Words that make a network-sounding name something else: a key, a cache, a monitor, a test double.
    static let notClientWords = [
        "Key", "Token", "Error", "Response", "Config", "Cache", "Store", "Storage", "Model", "Monitor", "Reachability", "Status",
        "Mock", "Fake", "Stub", "Logger",
    ]

    /// True when one of `typeWords` is a word of a camel-case name: not followed by a lowercase
    /// letter (so `APIManager`, `MyNetworkLayer` and `HTTPLoader` are clients, `Restaurant` and
    /// `Apiary` are not). Each word starts with a capital, so it starts a word of the name.
    static func containsWord(_ name: String) -> Bool {
        typeWords.contains { word in
            var rest = Substring(name)
            while let range = rest.range(of: word) {
                let after = rest[range.upperBound...].unicodeScalars.first
                if after.map({ !CharacterSet.lowercaseLetters.contains($0) }) ?? true { return true }
                rest = rest[range.upperBound...]
            }
            return false
        }
    }
}
