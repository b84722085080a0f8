import Foundation
import WidgetKit

struct HeadlinesCache {
    static let ttl: TimeInterval = 6 * 60 * 60
    let defaults = UserDefaults(suiteName: "group.com.example.news.shared")

    var isStale: Bool {
        Date().timeIntervalSince1970 - (defaults?.double(forKey: "fetchedAt") ?? 0) > HeadlinesCache.ttl
    }
}

struct HeadlinesFetcher {
    let apiKey = Bundle.main.object(forInfoDictionaryKey: "GeminiKey") as? String ?? ""

    func fetch() async throws -> String {
        let model = "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash"
        let url = URL(string: "\(model):generateContent?key=\(apiKey)")!
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        let body: [String: Any] = ["contents": [["parts": [["text": "Three headlines in one line"]]]]]
        request.httpBody = try JSONSerialization.data(withJSONObject: body)
        do {
            let (data, _) = try await URLSession.shared.data(for: request)
            HeadlinesCache().defaults?.set(data, forKey: "headlines")
            return String(decoding: data, as: UTF8.self)
        } catch {
            WidgetCenter.shared.reloadAllTimelines()
            throw error
        }
    }

    func refreshAll(kinds: [String]) async {
        _ = try? await fetch()
        for kind in kinds {
            WidgetCenter.shared.reloadTimelines(ofKind: kind)
        }
    }

    func ping() async {
        // widget-quota:disable request-timeout -- a health check, not a model call
        let request = URLRequest(url: URL(string: "https://status.example.com/ping")!)
        _ = try? await URLSession.shared.data(for: request)
    }
}
