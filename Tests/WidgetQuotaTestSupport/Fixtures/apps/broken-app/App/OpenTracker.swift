import Foundation

enum OpenTracker {
    static func appOpened() {
        UserDefaults.standard.set(Date().timeIntervalSince1970, forKey: "lastOpened")
    }
}
