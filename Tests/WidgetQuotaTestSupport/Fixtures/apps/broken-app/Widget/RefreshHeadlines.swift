import AppIntents
import SwiftUI

struct RefreshButton: View {
    var body: some View {
        Button(intent: RefreshHeadlines()) { Image(systemName: "arrow.clockwise") }
    }
}

struct RefreshHeadlines: AppIntent {
    static var title: LocalizedStringResource = "Refresh headlines"

    func perform() async throws -> some IntentResult {
        let data = try await URLSession.shared.data(for: HeadlinesProvider().makeRequest()).0
        UserDefaults(suiteName: "group.com.example.newsapp")?.set(HeadlinesProvider.text(data), forKey: "headlines")
        return .result()
    }
}
