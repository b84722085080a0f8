import Foundation
import WidgetQuotaModel
import WidgetQuotaSupport

/// Reads logs and measures what devices did: the engine of `widget-quota analyze`.
///
/// Feed it inputs with `read(path:)` (files, folders, `-`) or `read(source:name:)`, then ask for
/// `analysis()`. Memory grows with devices and days, never with lines: a 1 GB export is read
/// through one 1 MiB buffer.
public struct LogAnalyzer: LogRecordSink {
    /// How to read.
    public struct Options: Sendable {
        /// Stop at the first malformed line (exit 65) instead of counting it.
        public var strict = false
        /// Process names of the app; empty: identified from the logs.
        public var appProcesses: [String] = []
        /// Process names of the widget extension; empty: identified from the logs.
        public var extensionProcesses: [String] = []
        package var rules = LogRules()
        /// The design the logs are said to come from (`--design NAME`), or nil when none was
        /// named: it decides how grave the widget extension's API requests are as a finding.
        public var claimedDesign: Design?
        /// The reader's buffer, which is also the longest line accepted.
        public var bufferSize = LineReader.defaultBufferSize
        /// How many malformed-line references to keep.
        public var maxExamples = 5
        /// The duplicate-line check's window: recent lines (a power of two, at most 65,536) and
        /// the bytes they may take. Smaller windows serve fuzzing, which wants many small runs
        /// that reach the window's wrap-around.
        package var duplicateWindowLines = DuplicateFilter.defaultCapacity
        package var duplicateWindowBytes = DuplicateFilter.defaultArenaBytes
        /// Every Apple log rule, duplicates dropped within the default window.
        public init() {}
    }

    package let options: Options
    private let recognizer: AppleLogRecognizer
    private let redactor = SecretRedactor.shared

    var devices: [String: DeviceAccumulator] = [:]
    /// The device of the previous record and where it is in `devices` (records of one device
    /// come in runs): saves hashing the name per record. Cleared at the start of every input,
    /// since a failed input puts back the `devices` it started with.
    private var lastDevice: (name: String, index: Dictionary<String, DeviceAccumulator>.Index)?
    var linesRead = 0
    var linesRecognised = 0
    var malformedLines = 0
    var duplicateLines = 0
    var malformedExamples: [String] = []
    var files: [LogAnalysis.FileSummary] = []
    var notes: [String] = []
    var errorCounts: [String: Int] = [:]
    /// Processes that logged widget-extension or app lines, across every device.
    var extensionEvidence: Set<String> = []
    var appEvidence: Set<String> = []
    var bytesRead = 0
    /// A few process names of the Apple records read (for the note when nothing is recognised).
    var processesSeen: [String] = []
    /// Files read so far, by resolved path, with the name they were first given as.
    /// Files read, by their device and inode (one file under any name, hard links included).
    private var filesSeen: [FileIdentity: String] = [:]
    /// Regular files read, by size: a later file of the same size is compared with them.
    private var filesBySize: [Int64: [String]] = [:]
    /// The content hash of a file read, made once and only when another file has its size.
    private var contentHashes: [String: UInt64] = [:]

    /// Where a file is on disk: the same pair is the same file, whatever the path.
    struct FileIdentity: Hashable {
        let device: UInt64
        let inode: UInt64
    }

    /// The path a file was read under before, when `path` is that same file; records it otherwise.
    private mutating func sameFile(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        let identity = FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        if let first = filesSeen[identity] { return first }
        filesSeen[identity] = path
        return nil
    }

    /// The path of a regular file read before that holds the same bytes as `path`; records `path`
    /// otherwise. Only files of one size are compared: each is hashed once (on the first size
    /// collision), and only equal hashes are compared byte for byte, so many logs of one size
    /// (rotated at a cap) cost one read each, not one per pair.
    private mutating func sameBytes(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size > 0 else { return nil }
        let size = Int64(info.st_size)
        defer { filesBySize[size, default: []].append(path) }
        guard let earlier = filesBySize[size], let hash = contentHash(path) else { return nil }
        for other in earlier where contentHash(other) == hash && Self.sameContents(other, path) { return other }
        return nil
    }

    /// FNV-1a of a file's bytes, read in chunks and kept; nil when it cannot be read.
    private mutating func contentHash(_ path: String) -> UInt64? {
        if let known = contentHashes[path] { return known }
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        var hash = StableHash.fnv1aStart
        while true {
            let chunk: Data
            do { chunk = try handle.read(upToCount: 1 << 20) ?? Data() } catch { return nil }  // nil or empty: the end
            if chunk.isEmpty { break }
            hash = StableHash.fnv1a(chunk, continuing: hash)
        }
        contentHashes[path] = hash
        return hash
    }

    /// True when the two regular files hold the same bytes (read in chunks, never whole); false
    /// when either cannot be read.
    static func sameContents(_ a: String, _ b: String) -> Bool {
        guard let x = FileHandle(forReadingAtPath: a), let y = FileHandle(forReadingAtPath: b) else { return false }
        defer {
            try? x.close()
            try? y.close()
        }
        while true {
            let p: Data
            let q: Data
            do {
                p = try x.read(upToCount: 1 << 20) ?? Data()
                q = try y.read(upToCount: 1 << 20) ?? Data()
            } catch { return false }
            if p != q { return false }
            if p.isEmpty { return true }
        }
    }

    package init(options: Options = Options()) {
        self.options = options
        recognizer = AppleLogRecognizer(rules: options.rules)
    }

    // MARK: Reading

    /// Reads a file, a folder (recursively, sorted) or `-` (standard input).
    package mutating func read(path: String) throws {
        let items = try LogInputs.expand([path])
        let filesBefore = files.count
        var repeated = 0
        for item in items {
            if let reason = item.skipped {
                note("Skipped \(item.path): \(reason).")
                continue
            }
            // A file given twice (as itself and inside a folder, through a link, a hard link or a
            // byte-for-byte copy) would count every record twice.
            if item.path != "-" {
                if let first = sameFile(item.path) {
                    note("Skipped \(item.path): the same file as \(first), which was read already; a file counts once.")
                    repeated += 1
                    continue
                }
                if let first = sameBytes(item.path) {
                    note("Skipped \(item.path): a copy of \(first) (the same bytes), which was read already; a file counts once.")
                    repeated += 1
                    continue
                }
            }
            var source = try FileDescriptorSource(path: item.path)
            defer { source.close() }
            do {
                try read(source: &source, name: source.name)
            } catch let error as WidgetQuotaError {
                guard item.fromFolder else { throw error }
                switch error {
                case .malformedInput(_, nil, _): note("Skipped \(item.path): not a log in a known format.")
                case .emptyInput where !options.strict: note("Skipped \(item.path): the file is empty.")
                case .emptyLog(_, let reason) where !options.strict: note("Skipped \(item.path): it \(reason).")
                default: throw error
                }
            }
        }
        // A folder in which nothing was a log is an input error, like a file that is not one.
        if items.allSatisfy(\.fromFolder), files.count == filesBefore, repeated == 0 {
            throw WidgetQuotaError.malformedInput(
                file: path, line: nil, problem: "the folder holds no log in a known format (every file in it was skipped)")
        }
    }

    /// Reads one input; `name` is used in `file:line` references and as the device of records
    /// that carry no device id, redacted like the log's text (a file named after an API key
    /// must not put the key in a report).
    package mutating func read<Source: ByteSource>(source: inout Source, name: String) throws {
        let name = redactor.redact(name)
        // A regular file is read again to confirm a repeated line; other inputs keep copies.
        var recall = DuplicateFilter.Recall.copies
        if let rereadable = source as? any RereadableByteSource, rereadable.canReread {
            let start = rereadable.position  // line offsets count from here
            recall = .rereads { offset, buffer in rereadable.reread(at: start + offset, into: buffer) }
        }
        var parser = LogFileParser(
            file: name, recognizer: recognizer, redactor: redactor,
            duplicates: DuplicateFilter(
                capacity: options.duplicateWindowLines,
                arenaBytes: options.duplicateWindowBytes, recall: recall))
        lastDevice = nil
        let reader = LineReader(bufferSize: options.bufferSize)
        // Counts are committed only when the file is a log: a skipped file leaves no trace.
        let saved = (devices, linesRecognised, malformedLines, malformedExamples, errorCounts, extensionEvidence, appEvidence)
        let savedDuplicates = duplicateLines
        var lines = 0
        let bytes: Int
        do {
            bytes = try reader.forEachLine(in: &source) { line in
                lines = line.number
                try parser.consume(line, into: &self)
            }
            try parser.finish(into: &self)
        } catch let error as WidgetQuotaError {
            if case .malformedInput(_, nil, _) = error {
                (devices, linesRecognised, malformedLines, malformedExamples, errorCounts, extensionEvidence, appEvidence) = saved
                lastDevice = nil
                duplicateLines = savedDuplicates
            }
            throw error
        }
        if bytes == 0 || (parser.format == nil && parser.contentLines == 0) {
            if bytes == 0 { throw WidgetQuotaError.emptyInput(file: name) }
            if parser.overlongLines > 0 {
                throw WidgetQuotaError.malformedInput(
                    file: name, line: nil,
                    problem: "holds no log records: its only content is \(parser.overlongLines == 1 ? "a line" : "lines") longer than "
                        + "\(options.bufferSize / 1_048_576) MiB without a line break (skipped); expected one log record per line")
            }
            if parser.sawHeader {
                throw WidgetQuotaError.emptyLog(
                    file: name, reason: "holds a `log show` header but no log records (its predicate or time range matched nothing)")
            }
            throw WidgetQuotaError.malformedInput(file: name, line: nil, problem: "holds no log records (only blank or header lines)")
        }
        bytesRead += bytes
        linesRead += lines
        files.append(LogAnalysis.FileSummary(path: name, format: parser.format?.rawValue ?? "unknown", lines: lines))
        for p in parser.processesSeen where processesSeen.count < LogFileParser.maxProcessesSeen && !processesSeen.contains(p) {
            processesSeen.append(p)
        }
    }

    // MARK: Sink (called by LogFileParser)

    mutating func record(_ event: LogEvent, fileDevice: String, line: Int) {
        linesRecognised += 1
        let device = event.device ?? fileDevice
        if let last = lastDevice, last.name == device {
            devices.values[last.index].add(event)
        } else {
            devices[device, default: DeviceAccumulator()].add(event)
            lastDevice = (device, devices.index(forKey: device)!)
        }
        if let key = ChecklistTrail.key(of: event) {
            devices.values[lastDevice!.index].addToTrail(key, event, at: Finding.Location(file: fileDevice, line: line))
        }
        if let process = event.process {
            switch event.kind {
            case .getTimeline, .getSnapshot, .placeholder: extensionEvidence.insert(process)
            case .bgTaskLaunch, .bgTaskExpire, .bgTaskSubmit, .bgTaskComplete, .reloadAllTimelines, .reloadTimelines, .appForeground:
                appEvidence.insert(process)
            default: break
            }
        }
        if let detail = event.detail, event.outcome == .failure || event.kind == .fetchError {
            let firstLine = detail.split(separator: "\n", maxSplits: 1).first ?? ""
            let key = String(firstLine.prefix(160))
            if errorCounts[key] != nil || errorCounts.count < 500 { errorCounts[key, default: 0] += 1 }
        }
    }

    mutating func malformed(file: String, line: Int, problem: String) throws {
        if options.strict { throw WidgetQuotaError.malformedInput(file: file, line: line, problem: problem) }
        malformedLines += 1
        if malformedExamples.count < options.maxExamples { malformedExamples.append("\(file):\(line): \(problem)") }
    }

    /// Adds a note once, redacted like the log's text: it may name a file, and a file may be
    /// named after a key.
    mutating func note(_ text: String) {
        let text = redactor.redact(text)
        if !notes.contains(text) { notes.append(text) }
    }
}
