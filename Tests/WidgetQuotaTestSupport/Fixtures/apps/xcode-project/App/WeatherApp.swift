import SwiftUI

@main
struct WeatherApp: App {
    @Environment(\.scenePhase) private var scenePhase

    var body: some Scene {
        WindowGroup {
            WeatherPreviewScreen()
        }
        .onChange(of: scenePhase) { _, phase in
            guard phase == .active, WeatherCache().isStale else { return }
            Task { try? await WeatherClient().refresh() }
        }
    }
}
