import Foundation

/// A file of a set written together, its contents made only when it is written: a folder of many
/// large files (a trace of 100,000 devices) holds one file's contents in memory at a time.
package struct StagedFile: Sendable {
    /// The file's name inside the folder, or its path for a set written file by file.
    package let name: String
    /// Makes the contents, when the file is written: once, or twice when a folder that cannot
    /// be swapped is written again file by file.
    package let contents: @Sendable () -> Data

    package init(_ name: String, contents: @escaping @Sendable () -> Data) {
        self.name = name
        self.contents = contents
    }

    /// A file whose text is already made.
    package init(_ name: String, text: String) {
        self.init(name) { Data(text.utf8) }
    }
}
