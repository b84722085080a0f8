import BackgroundTasks

enum Prefetch {
    static let id = "com.example.news.prefetch"

    static func register() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: id, using: nil) { task in
            task.expirationHandler = { task.setTaskCompleted(success: false) }
            Task {
                _ = try? await HeadlinesFetcher().fetch()
                task.setTaskCompleted(success: true)
            }
        }
    }

    static func schedule() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: id))
    }
}
