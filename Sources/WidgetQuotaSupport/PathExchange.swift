#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// Swaps two existing paths in one step, so a reader of either sees the old or the new, never
/// neither: `renamex_np(RENAME_SWAP)` on macOS, `renameat2(RENAME_EXCHANGE)` on Linux.
enum PathExchange {
    /// Exchanges `first` and `second`; false (with `errno` set) where the system or the file
    /// system cannot, so the caller can write another way.
    static func exchange(_ first: String, _ second: String) -> Bool {
        #if canImport(Darwin)
            return renamex_np(first, second, UInt32(RENAME_SWAP)) == 0
        #elseif canImport(Glibc)
            // glibc (2.28 and later) has renameat2, but its header keeps it from Swift.
            typealias Renameat2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32
            guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "renameat2") else {
                errno = ENOSYS
                return false
            }
            let renameExchange: UInt32 = 2
            return unsafeBitCast(symbol, to: Renameat2.self)(AT_FDCWD, first, AT_FDCWD, second, renameExchange) == 0
        #else
            return false
        #endif
    }
}
