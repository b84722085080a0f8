import SwiftUI
import WidgetKit

struct StatusProvider: TimelineProvider {
    func placeholder(in context: Context) -> HeadlinesEntry {
        HeadlinesEntry(date: Date(), text: "Status")
    }

    func getSnapshot(in context: Context, completion: @escaping (HeadlinesEntry) -> Void) {
        completion(placeholder(in: context))
    }

    func getTimeline(in context: Context, completion: @escaping (Timeline<HeadlinesEntry>) -> Void) {
        do {
            let status = try StatusProvider.read()
            completion(Timeline(entries: [HeadlinesEntry(date: Date(), text: status)], policy: .never))
        } catch {
            print("[Status] nothing to show yet: \(error)")
        }
    }

    static func read() throws -> String {
        guard let status = UserDefaults(suiteName: "group.com.example.newsapp")?.string(forKey: "status") else {
            throw CocoaError(.fileReadNoSuchFile)
        }
        return status
    }
}

struct StatusWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "Status", provider: StatusProvider()) { entry in
            Text(entry.text)
        }
    }
}
