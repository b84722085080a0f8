import SwiftUI
import WidgetKit

struct MorningProvider: TimelineProvider {
    @AppStorage("lastOpened") var lastOpened: Double = 0

    func placeholder(in context: Context) -> HeadlinesEntry {
        HeadlinesEntry(date: Date(), text: "Good morning")
    }

    func getSnapshot(in context: Context, completion: @escaping (HeadlinesEntry) -> Void) {
        completion(placeholder(in: context))
    }

    func getTimeline(in context: Context, completion: @escaping (Timeline<HeadlinesEntry>) -> Void) {
        Task {
            let data = try? await URLSession.shared.data(for: HeadlinesProvider().makeRequest()).0
            let entry = HeadlinesEntry(date: Date(), text: HeadlinesProvider.text(data))
            let tomorrow = Calendar.current.startOfDay(for: Date().addingTimeInterval(86_400))
            completion(Timeline(entries: [entry], policy: .after(tomorrow)))
        }
    }
}

struct MorningView: View {
    let entry: HeadlinesEntry
    var body: some View {
        AsyncImage(url: URL(string: "https://example.com/sunrise.png"))
    }
}
