import BackgroundTasks
import SwiftUI
import WidgetKit

@main
struct HeadlinesApp: App {
    @Environment(\.scenePhase) private var scenePhase

    init() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.news.fetch", using: nil) { task in
            HeadlinesApp.handleRefresh(task as! BGAppRefreshTask)
        }
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.news.cleanup", using: nil) { task in
            task.setTaskCompleted(success: true)
        }
    }

    var body: some Scene {
        WindowGroup {
            Text("Headlines").onAppear { Prefetch.register() }
        }
        .onChange(of: scenePhase) { _, phase in
            if phase == .active {
                WidgetCenter.shared.reloadAllTimelines()
            }
            if phase == .background {
                HeadlinesApp.scheduleRefresh()
            }
        }
    }

    static func scheduleRefresh() {
        let request = BGAppRefreshTaskRequest(identifier: "com.example.news.fetch")
        request.earliestBeginDate = Date(timeIntervalSinceNow: 15 * 60)
        try? BGTaskScheduler.shared.submit(request)
    }

    static func handleRefresh(_ task: BGAppRefreshTask) {
        scheduleRefresh()
        Task {
            guard HeadlinesCache().isStale else { return }
            for attempt in 0..<3 {
                if (try? await HeadlinesFetcher().fetch()) != nil {
                    task.setTaskCompleted(success: true)
                    return
                }
                print("[Headlines] attempt \(attempt) failed")
            }
            task.setTaskCompleted(success: false)
        }
    }
}
