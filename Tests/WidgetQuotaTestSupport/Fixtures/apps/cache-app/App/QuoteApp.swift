import BackgroundTasks
import SwiftUI

@main
struct QuoteApp: App {
    @Environment(\.scenePhase) private var scenePhase

    init() {
        // Register once, at launch, before any submit.
        BGTaskScheduler.shared.register(forTaskWithIdentifier: QuoteRefresh.identifier, using: nil) { task in
            QuoteRefresh.handle(task as! BGAppRefreshTask)
        }
    }

    var body: some Scene {
        WindowGroup {
            QuoteScreen()
        }
        .onChange(of: scenePhase) { _, phase in
            if phase == .active {
                Task { await QuoteFetcher().refreshIfStale() }
            } else if phase == .background {
                QuoteRefresh.schedule()
            }
        }
    }
}

enum QuoteRefresh {
    static let identifier = "com.example.quote.refresh"

    static func schedule() {
        let request = BGAppRefreshTaskRequest(identifier: identifier)
        request.earliestBeginDate = Date(timeIntervalSinceNow: QuoteCache.ttl)
        do {
            try BGTaskScheduler.shared.submit(request)
        } catch {
            print("[Quote] could not schedule the refresh: \(error)")
        }
    }

    static func handle(_ task: BGAppRefreshTask) {
        schedule()
        let work = Task {
            do {
                try await QuoteFetcher().refresh()
                task.setTaskCompleted(success: true)
            } catch {
                task.setTaskCompleted(success: false)
            }
        }
        task.expirationHandler = {
            work.cancel()
            task.setTaskCompleted(success: false)
        }
    }
}

struct QuoteScreen: View {
    var body: some View {
        Text("Your widget shows a new quote a few times a day.")
    }
}
