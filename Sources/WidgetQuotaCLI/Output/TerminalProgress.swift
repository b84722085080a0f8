import Foundation
import WidgetQuotaKit

/// Progress messages on standard error, only when it is a terminal and `--quiet` is not given.
struct TerminalProgress: JobProgress {
    let console: Console
    let enabled: Bool

    init(console: Console, quiet: Bool) {
        self.console = console
        self.enabled = !quiet && console.stderrIsTerminal
    }

    func note(_ text: String) {
        if enabled { console.err(text + "\n") }
    }

    /// A callback that redraws `label [###...] done/total, about 3 min left` in place each
    /// time it is called (the time left from the pace so far, once a tenth is done).
    func counter(label: String, total: Int) -> (@Sendable () -> Void)? {
        guard enabled else { return nil }
        let count = Count()
        let console = self.console
        let start = Date()
        return {
            let done = count.increment()
            let width = 24
            let filled = total > 0 ? width * done / total : width
            let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
            var left = ""
            if done < total && done * 10 >= total {
                let seconds = Date().timeIntervalSince(start) / Double(done) * Double(total - done)
                left = ", about " + TimeLeft.text(seconds) + " left"
            }
            console.err("\r\(label) [\(bar)] \(done)/\(total)\(left)\u{1B}[K")
        }
    }

    func finish() {
        if enabled { console.err("\r\u{1B}[K") }
    }

    private final class Count: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0
        func increment() -> Int {
            lock.lock()
            defer { lock.unlock() }
            value += 1
            return value
        }
    }
}

/// A time left as a person says it: `45 s`, `3 min`, `2 h 10 min`.
package enum TimeLeft {
    package static func text(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        if s < 90 { return "\(max(s, 1)) s" }
        let minutes = (s + 30) / 60
        if minutes < 90 { return "\(minutes) min" }
        return "\(minutes / 60) h \(minutes % 60) min"
    }
}
