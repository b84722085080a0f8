import Foundation
import WidgetQuotaSupport

/// The files a job writes into one folder, written together: all of them or none.
public struct OutputFiles: Sendable {
    /// The folder the files go into.
    public let directory: String
    /// Each file's path (inside `directory`) and contents, in the order they are listed to a reader.
    public private(set) var files: [(path: String, contents: String)] = []
    /// Names of files this tool writes into such a folder; those a run does not write are removed,
    /// so that the folder never mixes two runs.
    public let ownNames: [String]
    /// Files whose contents are made as they are written (after `files`), each with its path.
    private var produced: [StagedFile] = []

    /// An empty set of files for `directory`, whose own file names are `ownNames`.
    public init(directory: String, ownNames: [String]) {
        self.directory = directory
        self.ownNames = ownNames
    }

    /// Adds a file by its name inside the folder.
    package mutating func add(_ name: String, _ contents: String) {
        files.append((directory + "/" + name, contents))
    }

    /// Adds files already named by their path.
    package mutating func add(contentsOf more: [(path: String, contents: String)]) {
        files += more
    }

    /// Adds a file by its name inside the folder, its contents made only when it is written, so
    /// a folder of many large files holds one in memory at a time. Such files are not in `files`.
    package mutating func add(_ name: String, producing contents: @escaping @Sendable () -> String) {
        produced.append(StagedFile(directory + "/" + name) { Data(contents().utf8) })
    }

    /// The names of the files, in order.
    public var names: [String] { (files.map(\.path) + produced.map(\.name)).map { URL(fileURLWithPath: $0).lastPathComponent } }

    /// Writes every file atomically and removes this tool's files that this run did not write;
    /// on failure the folder keeps its previous files.
    public func write() throws {
        let all = files.map { StagedFile($0.path, text: $0.contents) } + produced
        try AtomicFileWriter.replaceSet(files: all, in: directory, ownNames: ownNames)
    }
}
