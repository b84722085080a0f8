import SwiftUI
import WidgetKit

struct TipEntry: TimelineEntry {
    let date: Date
    let tip: String
}

/// Asks our backend for a fresh tip on every timeline: the "direct" design.
struct TipProvider: TimelineProvider {
    func placeholder(in context: Context) -> TipEntry {
        TipEntry(date: Date(), tip: "Drink some water.")
    }

    func getSnapshot(in context: Context, completion: @escaping (TipEntry) -> Void) {
        let sample = TipEntry(date: Date(), tip: "Take a short walk.")
        completion(context.isPreview ? sample : placeholder(in: context))
    }

    func getTimeline(in context: Context, completion: @escaping (Timeline<TipEntry>) -> Void) {
        var request = URLRequest(url: URL(string: "https://api.example.com/v1/tip")!)
        request.timeoutInterval = 10
        request.httpMethod = "POST"
        request.httpBody = Data(#"{"max_tokens": 40}"#.utf8)
        URLSession.shared.dataTask(with: request) { data, _, _ in
            let tip = data.map { String(decoding: $0, as: UTF8.self) } ?? "Stretch for a minute."
            let next = Calendar.current.date(byAdding: .minute, value: 15, to: Date())!
            completion(Timeline(entries: [TipEntry(date: Date(), tip: tip)], policy: .after(next)))
        }.resume()
    }
}

@main
struct TipWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "TipWidget", provider: TipProvider()) { entry in
            Text(entry.tip)
        }
        .configurationDisplayName("Tip of the Hour")
    }
}
