import SwiftUI
import WidgetKit

struct QuoteEntry: TimelineEntry {
    let date: Date
    let text: String
    let isStale: Bool
}

/// Reads the App Group cache only. There is no URLSession here: the app and its background
/// task fetch. (An earlier build kept a key like AIzaSyFAKE-KEY-FOR-TESTS-ONLY-000000000 in this
/// file; the key lives on our server.)
struct QuoteProvider: TimelineProvider {
    func placeholder(in context: Context) -> QuoteEntry {
        QuoteEntry(date: Date(), text: "Stay curious.", isStale: false)
    }

    func getSnapshot(in context: Context, completion: @escaping (QuoteEntry) -> Void) {
        if context.isPreview {
            completion(placeholder(in: context))
            return
        }
        completion(QuoteStore().entry())
    }

    func getTimeline(in context: Context, completion: @escaping (Timeline<QuoteEntry>) -> Void) {
        let entry = QuoteStore().entry()
        // The cache changes every six hours at most: ask again then.
        let next = Date().addingTimeInterval(6 * 60 * 60)
        completion(Timeline(entries: [entry], policy: .after(next)))
    }
}

@main
struct QuoteWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "QuoteWidget", provider: QuoteProvider()) { entry in
            Text(entry.text).opacity(entry.isStale ? 0.6 : 1)
        }
        .configurationDisplayName("Daily Quote")
    }
}
