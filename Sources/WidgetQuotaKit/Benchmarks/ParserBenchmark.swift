import Foundation

/// Measures log parsing: MB/s and lines/s per format through the full analyzer, streamed from a
/// generated export file of at least `targetBytes`, against the ceiling of merely counting
/// newlines (what `wc -l` does) over the same file.
public struct ParserBenchmark: Sendable {
    public struct Figure: Sendable, Codable {
        public var style: String
        public var bytes: Int
        public var lines: Int
        public var seconds: Double
        public var megabytesPerSecond: Double
        public var linesPerSecond: Double
        /// Counting newlines over the same bytes: the ceiling.
        public var newlineCountMegabytesPerSecond: Double
        /// Peak resident memory of the process after this format (it only grows).
        public var peakMemoryMiB: Double
    }

    public let targetBytes: Int

    public init(targetBytes: Int = 200 << 20) { self.targetBytes = targetBytes }

    /// Writes a synthetic export of at least `targetBytes` to `path`: simulated device-years of
    /// `direct-poll-15m` (the chattiest preset), one after another, streamed to disk so the
    /// generator never holds more than one device's events.
    func generate(style: TraceGenerator.Style, path: String) throws -> Int {
        var s = Scenario()
        s.horizon.days = 366
        s.api.outages = []
        guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
            throw WidgetQuotaError.unwritable(path: path, problem: "cannot create the benchmark file")
        }
        defer { try? handle.close() }
        var written = 0
        func emit(_ text: String) {
            let data = Data(text.utf8)
            handle.write(data)
            written += data.count
        }
        var writer = style.isApple ? AppleLogWriter(style: AppleLogWriter.Style(rawValue: style.rawValue)!, app: "AIMessage", seed: 7) : nil
        if let w = writer { emit(w.header()) }
        if style == .traceCSV { emit(TraceFormat.csvHeader + "\r\n") }
        var device = 0
        while written < targetBytes {
            let generator = TraceGenerator(scenario: s, design: DesignPresets.directPoll15m, devices: device + 1, style: style)
            var chunk = ""
            for e in generator.events(device: device) {
                switch style {
                case .trace: chunk += TraceFormat.ndjsonLine(e, device: generator.deviceName(device)) + "\n"
                case .traceCSV: chunk += TraceFormat.csvLine(e, device: generator.deviceName(device)) + "\r\n"
                default: chunk += writer!.render(e, pids: (400 + device % 500, 900 + device % 500))
                }
                if chunk.utf8.count > 1 << 20 { emit(chunk); chunk = "" }
            }
            emit(chunk)
            device += 1
        }
        if let w = writer { emit(w.footer()) }
        return written
    }

    /// Parses at least `targetBytes` of `style` from a file in `directory` and returns the figures.
    public func measure(style: TraceGenerator.Style, directory: String) throws -> Figure {
        let path = directory + "/widget-quota-bench.\(style.fileExtension)"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let bytes = try generate(style: style, path: path)
        var counting = try FileDescriptorSource(path: path)
        let (_, countSeconds) = try ResourceUsage.time { try ParserBenchmark.countNewlines(in: &counting) }
        counting.close()
        var analyzer = LogAnalyzer()
        let (_, seconds) = try ResourceUsage.time { try analyzer.read(path: path) }
        let analysis = analyzer.analysis()
        return Figure(style: style.rawValue, bytes: bytes, lines: analysis.linesRead, seconds: seconds,
                      megabytesPerSecond: Double(bytes) / 1_048_576 / seconds,
                      linesPerSecond: Double(analysis.linesRead) / seconds,
                      newlineCountMegabytesPerSecond: Double(bytes) / 1_048_576 / countSeconds,
                      peakMemoryMiB: Double(ResourceUsage.peakResidentBytes()) / 1_048_576)
    }

    /// Counts newlines over a whole stream, as `wc -l` would.
    static func countNewlines<Source: ByteSource>(in source: inout Source) throws -> Int {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        var lines = 0
        while true {
            let n = try source.read(into: buffer)
            if n == 0 { return lines }
            for byte in buffer.prefix(n) where byte == 0x0A { lines += 1 }
        }
    }
}
