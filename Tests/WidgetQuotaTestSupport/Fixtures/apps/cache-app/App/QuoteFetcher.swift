import Foundation
import WidgetKit

/// Fetches the quote from our own backend, which holds the model API key.
struct QuoteFetcher {
    static let endpoint = URL(string: "https://api.example.com/v1/widget-quote")!

    func refreshIfStale() async {
        guard QuoteCache().isStale else {
            print("[Quote] cache fresh; reloadAllTimelines not needed")
            return
        }
        try? await refresh()
    }

    func refresh() async throws {
        var request = URLRequest(url: QuoteFetcher.endpoint)
        request.httpMethod = "POST"
        request.timeoutInterval = 15  // well inside a ~30 s background slice
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        let body: [String: Any] = ["prompt": "quote-of-the-day", "maxOutputTokens": 80]
        request.httpBody = try JSONSerialization.data(withJSONObject: body)

        let (data, response) = try await URLSession.shared.data(for: request)
        guard (response as? HTTPURLResponse)?.statusCode == 200 else {
            throw URLError(.badServerResponse)
        }
        QuoteCache().store(try JSONDecoder().decode(Quote.self, from: data))
        // Once, after a successful fetch only.
        WidgetCenter.shared.reloadAllTimelines()
    }
}
