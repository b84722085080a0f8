import Foundation

/// Helpers every test target shares; the layers' test-support targets extend it.
package enum TestSupport {
    /// Text written by two streams, standard output and standard error, from any thread.
    package final class Captured: @unchecked Sendable {
        private let lock = NSLock()
        package private(set) var out = ""
        package private(set) var err = ""
        package init() {}
        package func append(out text: String) {
            lock.lock()
            out += text
            lock.unlock()
        }
        package func append(err text: String) {
            lock.lock()
            err += text
            lock.unlock()
        }
    }

    /// The first capture group of every match of `pattern` in `text` (`.` matches line breaks).
    package static func matches(_ pattern: String, in text: String) -> [String] {
        let regex = try! NSRegularExpression(pattern: pattern, options: [.dotMatchesLineSeparators])
        return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { String(text[Range($0.range(at: 1), in: text)!]) }
    }
}
