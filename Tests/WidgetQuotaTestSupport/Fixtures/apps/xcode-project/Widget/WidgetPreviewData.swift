import SwiftUI

/// The app's screen that previews the widget with live data. It sits in the Widget folder but is
/// a member of the app target only (see the project file).
struct WeatherPreviewScreen: View {
    @State private var sample = "…"

    var body: some View {
        Text(sample).task {
            let url = URL(string: "https://api.example.com/v1/weather-sample")!
            let data = try? await URLSession.shared.data(from: url).0
            sample = data.map { String(decoding: $0, as: UTF8.self) } ?? "No sample"
        }
    }
}

extension WeatherPreviewScreen {
    /// The app's live sample: a request, in the app target only.
    func latest() async throws -> String {
        String(decoding: try await URLSession.shared.data(from: URL(string: "https://api.example.com/v1/latest")!).0, as: UTF8.self)
    }
}
