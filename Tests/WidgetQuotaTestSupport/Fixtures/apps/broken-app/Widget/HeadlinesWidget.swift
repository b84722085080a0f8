import SwiftUI
import WidgetKit

struct HeadlinesEntry: TimelineEntry {
    let date: Date
    let text: String
}

struct HeadlinesProvider: TimelineProvider {
    let apiKey = "AIzaSyFAKE-KEY-FOR-TESTS-ONLY-000000000"

    func placeholder(in context: Context) -> HeadlinesEntry {
        HeadlinesEntry(date: Date(), text: "Loading…")
    }

    func getSnapshot(in context: Context, completion: @escaping (HeadlinesEntry) -> Void) {
        Task {
            let data = try? await URLSession.shared.data(for: makeRequest()).0
            completion(HeadlinesEntry(date: Date(), text: HeadlinesProvider.text(data)))
        }
    }

    func getTimeline(in context: Context, completion: @escaping (Timeline<HeadlinesEntry>) -> Void) {
        Task {
            let data = try? await URLSession.shared.data(for: makeRequest()).0
            let entry = HeadlinesEntry(date: Date(), text: HeadlinesProvider.text(data))
            UserDefaults(suiteName: "group.com.example.newsapp")?.set(entry.text, forKey: "headlines")
            completion(Timeline(entries: [entry], policy: .after(Date().addingTimeInterval(10 * 60))))
        }
    }

    func makeRequest() -> URLRequest {
        let url = URL(string: "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent")!
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.timeoutInterval = 10
        request.setValue(apiKey, forHTTPHeaderField: "x-goog-api-key")
        let body: [String: Any] = [
            "contents": [["parts": [["text": "The top headline in ten words"]]]],
            "generationConfig": ["maxOutputTokens": 60],
        ]
        request.httpBody = try? JSONSerialization.data(withJSONObject: body)
        return request
    }

    static func text(_ data: Data?) -> String {
        data.map { String(decoding: $0, as: UTF8.self) } ?? "No headlines"
    }
}

@main
struct HeadlinesWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "HeadlinesWidget", provider: HeadlinesProvider()) { entry in
            Text(entry.text)
        }
    }
}
