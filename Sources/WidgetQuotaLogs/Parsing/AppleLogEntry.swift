/// One entry of an Apple `log show` export, in any style, with the fields analysis needs.
package struct AppleLogEntry: Sendable {
    package var time: LogTimestamp
    /// The process name: the last path component of `processImagePath`.
    package var process: String
    package var subsystem: String
    package var category: String
    /// `Default`, `Info`, `Debug`, `Error`, `Fault` (compact: `Df`, `I`, `Db`, `E`, `F`).
    package var messageType: String
    /// The message, already redacted.
    package var message: String
    /// Where the line was logged from, as `log show --source` prints it before the process
    /// (`WidgetKit`sub_1920A2790`); empty without `--source`.
    package var source: String

    package init(
        time: LogTimestamp, process: String, subsystem: String = "", category: String = "",
        messageType: String = "", message: String, source: String = ""
    ) {
        self.source = source
        self.time = time
        self.process = process
        self.subsystem = subsystem
        self.category = category
        self.messageType = messageType
        self.message = message
    }
}

/// The header of one line of a text-style export (default, syslog, compact): where its parts are.
package struct AppleTextHeader {
    var time: LogTimestamp
    package var process: Range<Int>
    var messageType: Range<Int>?
    var subsystem: Range<Int>?
    var category: Range<Int>?
    /// The `image`symbol` that `log show --source` prints as `<image`symbol> ` before the process.
    package var source: Range<Int>?
    /// Where the message starts.
    package var message: Int

    package enum Style { case standard, syslog, compact }

    private static let colonSpace: [UInt8] = [0x3A, 0x20]
    private static let closeColon: [UInt8] = [0x5D, 0x3A]
    private static let close: [UInt8] = [0x5D]
    private static let parenSpace: [UInt8] = [0x29, 0x20]
    private static let angleSpace: [UInt8] = [0x3E, 0x20]

    /// Parses a line that starts with a timestamp; nil with what was expected when it does not fit `style`.
    package static func parse(_ b: UnsafeBufferPointer<UInt8>, style: Style) -> Result<AppleTextHeader, LineProblem> {
        guard let (time, afterTime) = LogTimestamp.parse(b) else {
            return .failure(LineProblem("expected a timestamp such as 2025-07-27 15:47:10.504275-0400"))
        }
        let n = b.count
        var i = afterTime
        func skipSpaces() { while i < n, b[i] == 0x20 || b[i] == 0x09 { i += 1 } }
        func token() -> Range<Int>? {
            skipSpaces()
            let start = i
            while i < n, b[i] != 0x20, b[i] != 0x09 { i += 1 }
            return i > start ? start..<i : nil
        }
        func isNumber(_ r: Range<Int>) -> Bool { r.allSatisfy { b[$0] &- 0x30 < 10 } }
        var header = AppleTextHeader(time: time, process: 0..<0, messageType: nil, message: n)
        /// `<image`symbol> ` (`log show --source`) before the process: kept apart as the source.
        func skipSource() {
            skipSpaces()
            guard i < n, b[i] == 0x3C else { return }
            var j = i + 1
            while j < n, b[j] != 0x60, b[j] != 0x20 { j += 1 }
            guard j < n, b[j] == 0x60, let close = ByteSearch.index(of: AppleTextHeader.angleSpace, in: b, from: j) else { return }
            header.source = (i + 1)..<close
            i = close + 2
        }
        /// `process[pid]` or `process[pid:tid]` up to `terminator` (`]:` or `]`): sets the process, moves past it.
        func bracketedProcess(until terminator: [UInt8]) -> Bool {
            skipSpaces()
            let start = i
            guard let close = ByteSearch.index(of: terminator, in: b, from: start),
                let open = (start..<close).last(where: { b[$0] == 0x5B }), open > start
            else { return false }
            header.process = start..<open
            i = min(close + terminator.count, n)
            if i < n, b[i] == 0x20 { i += 1 }
            return true
        }
        switch style {
        case .standard:
            // Thread  Type  Activity  PID  [TTL]  process: message
            guard token() != nil, let type = token(), token() != nil, let pid = token(), isNumber(pid) else {
                return .failure(LineProblem("expected thread, type, activity and PID columns after the timestamp"))
            }
            header.messageType = type
            let save = i
            if let ttl = token(), isNumber(ttl) {} else { i = save }
            skipSource()
            let start = i
            guard
                let colon = ByteSearch.index(of: AppleTextHeader.colonSpace, in: b, from: start)
                    ?? (n > start && b[n - 1] == 0x3A ? n - 1 : nil),
                colon > start
            else {
                return .failure(LineProblem("expected \"process: message\" after the PID column"))
            }
            header.process = start..<colon
            i = min(colon + 2, n)
        case .syslog:
            // host process[pid]: message
            guard token() != nil else { return .failure(LineProblem("expected a host name after the timestamp")) }
            skipSource()
            guard bracketedProcess(until: AppleTextHeader.closeColon) else {
                return .failure(LineProblem("expected \"process[pid]:\" after the host name"))
            }
        case .compact:
            // Ty process[pid:tid] message
            guard let type = token() else { return .failure(LineProblem("expected a type column (Df, I, E, ...) after the timestamp")) }
            header.messageType = type
            skipSource()
            guard bracketedProcess(until: AppleTextHeader.close) else {
                return .failure(LineProblem("expected \"process[pid:tid]\" after the type column"))
            }
        }
        // Optional "(Sender) " and "[subsystem:category] ".
        if i < n, b[i] == 0x28, let close = ByteSearch.index(of: AppleTextHeader.parenSpace, in: b, from: i),
            !(i..<close).contains(where: { b[$0] == 0x20 })
        {
            i = close + 2
        }
        if i < n, b[i] == 0x5B, let close = ByteSearch.index(of: AppleTextHeader.close, in: b, from: i) {
            let inner = (i + 1)..<close
            if !inner.contains(where: { b[$0] == 0x20 }), let colon = inner.first(where: { b[$0] == 0x3A }) {
                header.subsystem = inner.lowerBound..<colon
                header.category = (colon + 1)..<close
                i = close + 1
                if i < n, b[i] == 0x20 { i += 1 }
            }
        }
        header.message = i
        return .success(header)
    }
}
