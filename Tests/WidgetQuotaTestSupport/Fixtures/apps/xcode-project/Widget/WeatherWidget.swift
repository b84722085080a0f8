import SwiftUI
import WidgetKit

struct WeatherEntry: TimelineEntry {
    let date: Date
    let note: String
}

struct WeatherProvider: TimelineProvider {
    func placeholder(in context: Context) -> WeatherEntry {
        WeatherEntry(date: Date(), note: "Sunny, 21°")
    }

    func getSnapshot(in context: Context, completion: @escaping (WeatherEntry) -> Void) {
        completion(context.isPreview ? placeholder(in: context) : WeatherEntry(date: Date(), note: WeatherCache().note))
    }

    func getTimeline(in context: Context, completion: @escaping (Timeline<WeatherEntry>) -> Void) {
        let entry = WeatherEntry(date: Date(), note: WeatherCache().note)
        let next = Date().addingTimeInterval(WeatherCache.ttl)
        completion(Timeline(entries: [entry], policy: .after(next)))
    }
}

@main
struct WeatherWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "WeatherWidget", provider: WeatherProvider()) { entry in
            Text(entry.note)
        }
    }
}

extension WeatherProvider {
    /// The latest note through a store whose type this file does not state: only the shared
    /// `latest()` (Shared/WeatherCache.swift) can run here, never the app target's.
    func latestNote() -> String {
        let store = makeStore()
        return store.latest()
    }
}
