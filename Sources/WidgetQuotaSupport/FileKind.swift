import Foundation

/// What a path leads to, symbolic links followed: the one place that tells a regular file from
/// a folder, a FIFO or a device, for readers and writers alike.
package enum FileKind: Equatable, Sendable {
    case regular, folder, fifo, characterDevice, blockDevice, socket, other

    /// The kind of what `path` leads to, or nil when it leads to nothing (or cannot be examined;
    /// the `errno` of the failed `stat` is then set).
    package static func of(_ path: String) -> FileKind? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .regular
        case S_IFDIR: return .folder
        case S_IFIFO: return .fifo
        case S_IFCHR: return .characterDevice
        case S_IFBLK: return .blockDevice
        case S_IFSOCK: return .socket
        default: return .other
        }
    }

    /// The kind in words, for "it is a FIFO, not a regular file".
    package var phrase: String {
        switch self {
        case .regular: return "a regular file"
        case .folder: return "a folder"
        case .fifo: return "a FIFO"
        case .characterDevice: return "a character device"
        case .blockDevice: return "a block device"
        case .socket: return "a socket"
        case .other: return "a special file"
        }
    }
}
