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
    /// Whole client type names (Alamofire's `Session`, `SessionManager`; Apollo's `ApolloClient` is a `…Client`).
    static let typeNames: Set<String> = ["Session", "SessionManager", "Alamofire", "Moya", "MoyaProvider"]

    static func isClientType(_ name: String) -> Bool {
        typeNames.contains(name) || typeSuffixes.contains { name.hasSuffix($0) }
    }
}
