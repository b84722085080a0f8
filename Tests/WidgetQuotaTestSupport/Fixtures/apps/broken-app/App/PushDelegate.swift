import UIKit
import WidgetKit

final class PushDelegate: NSObject, UIApplicationDelegate {
    func application(
        _ application: UIApplication, didReceiveRemoteNotification userInfo: [AnyHashable: Any]
    ) async -> UIBackgroundFetchResult {
        WidgetCenter.shared.reloadAllTimelines()
        return .newData
    }
}
