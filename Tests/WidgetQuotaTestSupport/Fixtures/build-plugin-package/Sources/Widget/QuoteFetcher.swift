import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Fetches the quote the widget shows. The request sets no timeout, so it waits 60 s, longer
/// than a background task's slice: `lint` warns (request-timeout).
func fetchQuote() async throws -> String {
    let request = URLRequest(url: URL(string: "https://api.example.com/quote")!)
    let (data, _) = try await URLSession.shared.data(for: request)
    return String(decoding: data, as: UTF8.self)
}
