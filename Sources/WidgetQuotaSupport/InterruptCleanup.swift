import Dispatch
import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// What this process is in the middle of writing, removed if it is interrupted: when SIGINT,
/// SIGTERM or SIGHUP arrives, every registered path (a temporary file, a staging folder) is
/// removed and the process ends by the same signal, as it would have without the handler.
///
/// Signals are delivered to the whole process, so there is one registry per process
/// (`InterruptCleanup.process`); the executable installs it, a library user may or may not.
package final class InterruptCleanup: @unchecked Sendable {
    /// The process's registry.
    package static let process = InterruptCleanup()

    /// Guards `paths` and `sources`; held by `uninterrupted(_:)` so an interruption waits for a
    /// step that must finish once begun (recursive: a registered step may register).
    private let lock = NSRecursiveLock()
    private var paths: [String] = []
    private var sources: [any DispatchSourceSignal] = []

    private init() {}

    /// Catches SIGINT, SIGTERM and SIGHUP from now on (once; later calls do nothing).
    package func install() {
        lock.lock()
        defer { lock.unlock() }
        guard sources.isEmpty else { return }
        for number in [SIGINT, SIGTERM, SIGHUP] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [self] in interrupted(by: number) }
            source.resume()
            sources.append(source)
        }
    }

    /// Registers `path` for removal on interruption.
    package func register(_ path: String) {
        lock.lock()
        paths.append(path)
        lock.unlock()
    }

    /// Forgets `path` (it was renamed into place, or removed).
    package func forget(_ path: String) {
        lock.lock()
        if let index = paths.lastIndex(of: path) { paths.remove(at: index) }
        lock.unlock()
    }

    /// Runs `body` with interruptions held off until it returns: a signal that arrives meanwhile
    /// is acted on afterwards, so a swap and the tidying after it are never cut in the middle.
    package func uninterrupted<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// Removes what is registered and ends the process by `number`. The lock is never released:
    /// nothing else runs to completion after this.
    private func interrupted(by number: Int32) {
        lock.lock()
        for path in paths.reversed() { Self.remove(path) }
        signal(number, SIG_DFL)
        raise(number)
        _exit(128 + number)
    }

    /// What a path being removed is renamed with; a later run removes what a killed removal left.
    package static let removingSuffix = ".removing"

    /// Removes `path` while the thread that writes into it may still be running: a folder is first
    /// renamed out of that writer's way, so no file it creates afterwards (by the old path) can
    /// land in the folder being removed and keep it from going.
    private static func remove(_ path: String) {
        let doomed = path + removingSuffix
        let target = rename(path, doomed) == 0 ? doomed : path
        for _ in 0..<8 {
            try? FileManager.default.removeItem(atPath: target)
            var status = stat()
            if lstat(target, &status) != 0 { return }
        }
    }
}
