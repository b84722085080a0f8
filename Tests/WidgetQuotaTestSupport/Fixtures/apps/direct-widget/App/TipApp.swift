import SwiftUI

/// The app only explains the widget; it never calls the network.
@main
struct TipApp: App {
    var body: some Scene {
        WindowGroup {
            Text("Add the Tip widget to your Home Screen.")
        }
    }
}
