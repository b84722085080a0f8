import Foundation
import WidgetKit

/// Asks our backend for a one-line weather note. Compiled into both targets by mistake: the
/// widget extension never calls it, but it ships the fetching code.
struct WeatherClient {
    func refresh() async throws {
        var request = URLRequest(url: URL(string: "https://api.example.com/v1/weather-note")!)
        request.httpMethod = "POST"
        request.timeoutInterval = 15
        let body: [String: Any] = ["messages": [["role": "user", "content": "weather note"]], "max_tokens": 60]
        request.httpBody = try JSONSerialization.data(withJSONObject: body)
        let (data, _) = try await URLSession.shared.data(for: request)
        WeatherCache().store(String(decoding: data, as: UTF8.self))
        WidgetCenter.shared.reloadTimelines(ofKind: "WeatherWidget")
    }
}
