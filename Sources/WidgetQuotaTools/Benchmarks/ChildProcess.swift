import Foundation
import WidgetQuotaSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs a program as a child process and reports what it used: a benchmark's way to measure the
/// peak memory of one job alone, which this process's own high-water mark cannot (it only grows).
package enum ChildProcess {
    /// What a finished child used.
    package struct Usage: Sendable {
        package var seconds: Double
        package var peakResidentBytes: Int
    }

    /// Runs `executable` with `arguments`, its standard output discarded and its standard error
    /// inherited, waits for it, and returns its usage; throws unless it exits with status 0.
    package static func run(_ executable: String, _ arguments: [String]) throws -> Usage {
        #if canImport(Darwin)
            var actions: posix_spawn_file_actions_t? = nil
        #else
            var actions = posix_spawn_file_actions_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)

        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] =
            ProcessInfo.processInfo.environment
            .sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }

        let start = ResourceUsage.now()
        var pid = pid_t()
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        guard spawned == 0 else {
            throw WidgetQuotaError.childProcessFailed(command: executable, problem: "cannot start: \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) == -1 {
            guard errno == EINTR else {
                throw WidgetQuotaError.childProcessFailed(
                    command: executable, problem: "cannot wait for it: \(String(cString: strerror(errno)))")
            }
        }
        let seconds = ResourceUsage.now() - start
        // 0 is "exited normally with status 0" on every platform (no signal, no exit code).
        guard status == 0 else {
            let command = ([executable] + arguments).joined(separator: " ")
            throw WidgetQuotaError.childProcessFailed(
                command: command,
                problem:
                    "failed (wait status \(status)); its own message, if it printed one, is above: run the command alone to see it again")
        }
        return Usage(seconds: seconds, peakResidentBytes: ResourceUsage.peakResidentBytes(usage))
    }
}
