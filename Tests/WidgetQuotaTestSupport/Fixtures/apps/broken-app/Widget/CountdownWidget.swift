import WidgetKit

struct CountdownProvider: TimelineProvider {
    func placeholder(in context: Context) -> HeadlinesEntry {
        HeadlinesEntry(date: Date(), text: "Next edition")
    }

    func getSnapshot(in context: Context, completion: @escaping (HeadlinesEntry) -> Void) {
        completion(placeholder(in: context))
    }

    func getTimeline(in context: Context, completion: @escaping (Timeline<HeadlinesEntry>) -> Void) {
        let now = Date()
        var entries = [HeadlinesEntry]()
        for minute in 0..<60 {
            let date = Calendar.current.date(byAdding: .minute, value: minute, to: now)!
            entries.append(HeadlinesEntry(date: date, text: "\(60 - minute) min to the next edition"))
        }
        completion(Timeline(entries: entries, policy: .atEnd))
    }
}
