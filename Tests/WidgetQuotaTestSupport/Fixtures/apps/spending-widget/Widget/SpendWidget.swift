import SwiftUI
import WidgetKit

struct SpendEntry: TimelineEntry {
    let date: Date
    let spend: Double
}

struct Provider: TimelineProvider {
    func placeholder(in context: Context) -> SpendEntry { SpendEntry(date: Date(), spend: 0) }
    func getSnapshot(in context: Context, completion: @escaping (SpendEntry) -> Void) { completion(placeholder(in: context)) }
    func getTimeline(in context: Context, completion: @escaping (Timeline<SpendEntry>) -> Void) {
        let defaults = UserDefaults(suiteName: "group.com.yourapp.shared")
        let spend = defaults?.double(forKey: "currentMonthSpend") ?? 0
        completion(Timeline(entries: [SpendEntry(date: Date(), spend: spend)], policy: .never))
    }
}

@main struct SpendWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "Spend", provider: Provider()) { entry in Text("\(entry.spend)") }
    }
}
