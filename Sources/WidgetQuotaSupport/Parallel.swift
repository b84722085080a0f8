import Foundation

/// Runs independent work items on a fixed number of threads and returns results in item order,
/// so the output never depends on which thread ran what.
package enum Parallel {
    /// The number of threads to use when none is given: every core.
    package static var defaultThreads: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }

    /// Computes `body(i)` for `i` in `0..<count` on up to `threads` threads.
    package static func map<T: Sendable>(count: Int, threads: Int, _ body: @escaping @Sendable (Int) -> T) -> [T] {
        guard count > 0 else { return [] }
        let slots = Slots<T>(count: count)
        let workers = max(1, min(threads, count))
        if workers == 1 {
            for i in 0..<count { slots.set(i, body(i)) }
        } else {
            // Dedicated threads rather than DispatchQueue.concurrentPerform, which on Linux may run
            // every iteration on the calling thread when the pool is busy.
            let counter = Counter()
            let done = DispatchGroup()
            let work: @Sendable () -> Void = {
                while true {
                    let i = counter.next()
                    if i >= count { break }
                    slots.set(i, body(i))
                }
            }
            for _ in 1..<workers {
                done.enter()
                let thread = Thread {
                    work()
                    done.leave()
                }
                thread.stackSize = 8 << 20
                thread.start()
            }
            work()
            done.wait()
        }
        return slots.values()
    }

    /// A shared work counter.
    private final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0
        func next() -> Int {
            lock.lock()
            defer { lock.unlock() }
            value += 1
            return value - 1
        }
    }

    /// One slot per item; each slot is written by exactly one worker, then read after all finish.
    private final class Slots<T>: @unchecked Sendable {
        private var storage: [T?]
        private let lock = NSLock()
        init(count: Int) { storage = Array(repeating: nil, count: count) }
        func set(_ i: Int, _ value: T) {
            lock.lock()
            storage[i] = value
            lock.unlock()
        }
        func values() -> [T] { storage.map { $0! } }
    }
}
