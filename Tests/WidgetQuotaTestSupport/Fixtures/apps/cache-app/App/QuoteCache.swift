import Foundation

/// The App Group cache the app writes and the widget reads.
struct QuoteCache {
    static let suiteName = "group.com.example.quote"
    /// The quote changes a few times a day: six hours.
    static let ttl: TimeInterval = 6 * 60 * 60

    private let defaults = UserDefaults(suiteName: QuoteCache.suiteName)

    var isStale: Bool {
        let fetched = defaults?.double(forKey: "quote.fetchedAt") ?? 0
        return Date().timeIntervalSince1970 - fetched > QuoteCache.ttl
    }

    func store(_ quote: Quote) {
        defaults?.set(quote.text, forKey: "quote.text")
        defaults?.set(Date().timeIntervalSince1970, forKey: "quote.fetchedAt")
    }
}

struct Quote: Decodable {
    let text: String
}
