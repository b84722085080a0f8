import WidgetKit

enum StatusSync {
    static func publish(_ status: String) {
        WidgetCenter.shared.reloadTimelines(ofKind: "Status")
        HeadlinesFetcher().defaults?.set(status, forKey: "status")
    }
}
