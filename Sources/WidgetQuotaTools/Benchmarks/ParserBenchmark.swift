import Foundation
import WidgetQuotaLogs
import WidgetQuotaModel
import WidgetQuotaStudies
import WidgetQuotaSupport

/// Measures log parsing: MB/s and lines/s per format through the full analyzer, streamed from a
/// generated export file of at least `targetBytes`, against the ceiling of merely counting
/// newlines (what `wc -l` does) over the same file.
///
/// Every format is parsed once per round, round after round, and each figure is the format's
/// fastest round: on a shared machine a slow spell then costs one format one round, not its
/// figure, and formats compared in one run were measured in the same stretches of time.
package struct ParserBenchmark: Sendable {
    package struct Figure: Sendable, Codable {
        package var style: String
        package var bytes: Int
        package var lines: Int
        /// The fastest round.
        package var seconds: Double
        package var megabytesPerSecond: Double
        package var linesPerSecond: Double
        /// Counting newlines over the same bytes (fastest round): the ceiling.
        package var newlineCountMegabytesPerSecond: Double
        /// Peak resident memory of the process after this format's first round (it only grows).
        package var peakMemoryMiB: Double
        /// Seconds of every round, in order.
        package var roundSeconds: [Double] = []
    }

    package let targetBytes: Int
    /// Times each format is parsed.
    package let rounds: Int
    /// Days each simulated device logs (a device-year by default).
    package let daysPerDevice: Int

    package init(targetBytes: Int = 200 << 20, rounds: Int = 3, daysPerDevice: Int = 366) {
        self.targetBytes = targetBytes
        self.rounds = max(1, rounds)
        self.daysPerDevice = max(1, daysPerDevice)
    }

    /// Writes a synthetic export of at least `targetBytes` to `path`: simulated devices of
    /// `direct-poll-15m` (the chattiest preset), `daysPerDevice` each, one after another, streamed
    /// to disk so the generator never holds more than one device's events.
    package func generate(style: TraceGenerator.Style, path: String) throws -> Int {
        var s = Scenario()
        s.horizon.days = daysPerDevice
        s.api.outages = []
        guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
            throw WidgetQuotaError.unwritable(path: path, problem: "cannot create the benchmark file")
        }
        defer { try? handle.close() }
        var written = 0
        func emit(_ text: String) throws {
            let data = Data(text.utf8)
            do {
                try handle.write(contentsOf: data)
            } catch {
                throw WidgetQuotaError.unwritable(
                    path: path,
                    problem: "\(error.localizedDescription) (the benchmark needs up to "
                        + "\(ParserBenchmark.temporaryMiB(targetBytes)) MiB of temporary space; --parse-mb lowers it)")
            }
            written += data.count
        }
        var writer = style.isApple ? AppleLogWriter(style: AppleLogWriter.Style(rawValue: style.rawValue)!, app: "AIMessage", seed: 7) : nil
        if let w = writer { try emit(w.header()) }
        if style == .traceCSV { try emit(TraceFormat.csvHeader + "\r\n") }
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
                if chunk.utf8.count > 1 << 20 {
                    try emit(chunk)
                    chunk = ""
                }
            }
            try emit(chunk)
            device += 1
        }
        if let w = writer { try emit(w.footer()) }
        return written
    }

    /// Generates an export of each style in `directory` (all at once: about
    /// `temporaryMiB(targetBytes)` MiB, removed afterwards), parses each once per round, and
    /// returns the figures in the order of `styles`.
    package func measure(styles: [TraceGenerator.Style], directory: String) throws -> [Figure] {
        // A folder of this run's own: styles share extensions, and runs may overlap.
        let folder = directory + "/widget-quota-bench-\(UUID().uuidString)"
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw WidgetQuotaError.unwritable(path: folder, problem: error.localizedDescription)
        }
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var paths = [String]()
        var figures = [Figure]()
        for style in styles {
            let path = folder + "/\(style.rawValue).\(style.fileExtension)"
            paths.append(path)
            let bytes = try generate(style: style, path: path)
            figures.append(
                Figure(
                    style: style.rawValue, bytes: bytes, lines: 0, seconds: .infinity, megabytesPerSecond: 0,
                    linesPerSecond: 0, newlineCountMegabytesPerSecond: 0, peakMemoryMiB: 0))
        }
        for round in 0..<rounds {
            for (i, path) in paths.enumerated() {
                var counting = try FileDescriptorSource(path: path)
                let (_, countSeconds) = try ResourceUsage.time { try ParserBenchmark.countNewlines(in: &counting) }
                counting.close()
                var analyzer = LogAnalyzer()
                let (_, seconds) = try ResourceUsage.time { try analyzer.read(path: path) }
                let lines = analyzer.analysis().linesRead
                var f = figures[i]
                let megabytes = Double(f.bytes) / 1_048_576
                f.roundSeconds.append(seconds)
                f.lines = lines
                if seconds < f.seconds {
                    f.seconds = seconds
                    f.megabytesPerSecond = megabytes / seconds
                    f.linesPerSecond = Double(lines) / seconds
                }
                f.newlineCountMegabytesPerSecond = max(f.newlineCountMegabytesPerSecond, megabytes / countSeconds)
                if round == 0 { f.peakMemoryMiB = Double(ResourceUsage.peakResidentBytes()) / 1_048_576 }
                figures[i] = f
            }
        }
        return figures
    }

    /// Temporary space `measure` needs for every style at `targetBytes` each, in MiB (the
    /// exports overshoot their target by up to one device-year, and `json` is the largest).
    package static func temporaryMiB(_ targetBytes: Int) -> Int {
        TraceGenerator.Style.allCases.count * (targetBytes / 1_048_576 + 80)
    }

    /// Counts newlines over a whole stream, as `wc -l` would.
    package static func countNewlines<Source: ByteSource>(in source: inout Source) throws -> Int {
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
