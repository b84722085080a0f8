import Foundation

/// The widget's read-only view of the cache the app writes.
struct QuoteStore {
    static let suiteName = "group.com.example.quote"
    static let ttl: TimeInterval = 6 * 60 * 60

    func entry() -> QuoteEntry {
        let defaults = UserDefaults(suiteName: QuoteStore.suiteName)
        let text = defaults?.string(forKey: "quote.text") ?? "Open Daily Quote to fetch your first quote"
        let fetched = defaults?.double(forKey: "quote.fetchedAt") ?? 0
        let isStale = Date().timeIntervalSince1970 - fetched > QuoteStore.ttl
        return QuoteEntry(date: Date(), text: text, isStale: isStale)
    }
}
