import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Wall-clock time and peak memory of this process, for benchmarks.
package enum ResourceUsage {
    /// Seconds on a monotonic clock.
    package static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }

    /// Peak resident memory of this process so far, in bytes.
    package static func peakResidentBytes() -> Int {
        peakResidentBytes(selfUsage())
    }

    /// The peak resident memory `usage` reports, in bytes.
    static func peakResidentBytes(_ usage: rusage) -> Int {
        #if canImport(Darwin)
            return Int(usage.ru_maxrss)  // bytes on macOS
        #else
            return Int(usage.ru_maxrss) * 1_024  // kilobytes on Linux
        #endif
    }

    /// The high-water mark of this process's current memory image (Linux's `VmHWM`), or nil where
    /// the system does not report one. Unlike `peakResidentBytes`, it starts afresh at exec: a
    /// program started by a bigger one (`swift run`) does not inherit the bigger one's peak. A
    /// child this process spawns on Linux starts its peak reading here.
    package static func imageHighWaterBytes() -> Int? {
        #if os(Linux)
            guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
                let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
                let kilobytes = Int(line.dropFirst("VmHWM:".count).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "")
            else { return nil }
            return kilobytes * 1_024
        #else
            return nil
        #endif
    }

    /// CPU seconds (user + system) this process has used so far, over all its threads: on a
    /// machine shared with other work, CPU time is steadier than wall time.
    package static func cpuSeconds() -> Double {
        let usage = selfUsage()
        func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) * 1e-6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    private static func selfUsage() -> rusage {
        var usage = rusage()
        #if canImport(Glibc)
            getrusage(RUSAGE_SELF.rawValue, &usage)
        #else
            getrusage(RUSAGE_SELF, &usage)
        #endif
        return usage
    }

    /// Times `body` and returns its result with the elapsed seconds.
    package static func time<T>(_ body: () throws -> T) rethrows -> (T, Double) {
        let start = now()
        let value = try body()
        return (value, now() - start)
    }
}
