import Foundation

/// The App Group cache: the app writes it, the widget reads it.
struct WeatherCache {
    static let ttl: TimeInterval = 3 * 60 * 60
    let defaults = UserDefaults(suiteName: "group.com.example.weather")

    var note: String { defaults?.string(forKey: "note") ?? "Open Weather Note once to start." }

    var isStale: Bool {
        Date().timeIntervalSince1970 - (defaults?.double(forKey: "fetchedAt") ?? 0) > WeatherCache.ttl
    }

    func store(_ note: String) {
        defaults?.set(note, forKey: "note")
        defaults?.set(Date().timeIntervalSince1970, forKey: "fetchedAt")
    }
}

extension WeatherCache {
    func latest() -> String { note }
}

/// The store both targets read.
func makeStore() -> WeatherCache { WeatherCache() }
