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

    /// A callback that redraws `label [###...] done/total` in place each time it is called.
    func counter(label: String, total: Int) -> (@Sendable () -> Void)? {
        guard enabled else { return nil }
        let count = Count()
        let console = self.console
        return {
            let done = count.increment()
            let width = 24
            let filled = total > 0 ? width * done / total : width
            let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
            console.err("\r\(label) [\(bar)] \(done)/\(total)")
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
