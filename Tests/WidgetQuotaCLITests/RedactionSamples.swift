import WidgetQuotaLogs
import WidgetQuotaSupport

/// The same fetch error, full of planted secrets, in every input format: the redaction tests of
/// the parser and of every command's output read it.
enum RedactionSamples {
    /// Secrets planted in inputs; none of these strings may appear in any output.
    static let secrets = [
        "AIzaSyPLANTEDPLANTEDPLANTEDPLANTED0001", "ya29PLANTEDbearerTOKEN0002", "plantedGoogHeaderKey0003",
        "plantedApiKeyValue0004", "plantedTokenValue0005", "sk-PLANTEDplantedPLANTED0006",
        "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJwbGFudGVkIn0.c2lnbmF0dXJlcGxhbnRlZA",
        "plantedEncodedKey0008", "plantedHeaderDictionary0009", "plantedProcessName0010",
        // A key in a file's name, which becomes the device of records that name none.
        "AIzaSyFILENAMEplantedFILENAMEplanted0011",
    ]

    static var message: String {
        "Fetch error: GET https://generativelanguage.googleapis.com/v1beta/models/m:generateContent?key=\(secrets[0]) "
            + "Authorization: Bearer \(secrets[1]) x-goog-api-key: \(secrets[2]) api_key=\(secrets[3])&token=\(secrets[4]) "
            + "\(secrets[5]) jwt \(secrets[6]) url=https%3A%2F%2Fx.test%2Fv1%3Fkey%3D\(secrets[7]) "
            + "headers [AnyHashable(\"x-goog-api-key\"): \(secrets[8])]"
    }

    /// The same fetch error in every input format.
    static func inputs() -> [(name: String, text: String)] {
        let m = message
        let jsonMessage = TraceFormat.quoted(m).replacingOccurrences(of: "/", with: "\\/")
        let ext = "\\/private\\/var\\/containers\\/Bundle\\/Application\\/X\\/App.app\\/App?key=\(secrets[9])"
        let ndjson =
            "{\"timestamp\":\"2026-09-01 10:00:00.000000+0200\",\"eventMessage\":\(jsonMessage),\"processImagePath\":\"\(ext)\",\"subsystem\":\"\",\"category\":\"\",\"messageType\":\"Error\",\"processID\":1}"
        var csv = CSVWriter(header: TraceFormat.columns)
        csv.appendRow(
            [
                .integer(1), .text("2026-09-01T10:00:00.000+02:00"), .text("device token=\(secrets[4])"),
                .text("fetchError"),
            ] + Array(repeating: .empty, count: 11) + [.text(m)])
        return [
            (
                "trace.ndjson",
                "{\"schemaVersion\":1,\"timestamp\":\"2026-09-01T10:00:00.000+02:00\",\"device\":\"token=\(secrets[4])\",\"event\":\"fetchError\",\"detail\":\(TraceFormat.quoted(m))}\n"
            ),
            ("trace.csv", csv.output),
            ("apple.ndjson", ndjson + "\n{\"count\":1,\"finished\":1}\n"),
            ("apple.json", "[" + ndjson.replacingOccurrences(of: ",\"", with: ",\n  \"") + "]\n"),
            (
                "default.log",
                "Timestamp                       Thread     Type        Activity             PID    TTL  \n2026-09-01 10:00:00.000000+0200 0x1        Error       0x0                  1      0    App: (App) \(m)\n  continued: Authorization: Bearer \(secrets[1])\n"
            ),
            ("syslog.log", "2026-09-01 10:00:00.000000+0200  localhost App[1]: (App) \(m)\n"),
            ("compact.log", "2026-09-01 10:00:00.000 E  App[1:2] \(m)\n"),
            ("device-\(secrets[10]).log", "2026-09-01 10:00:00.000 E  App[1:2] \(m)\n"),
        ]
    }
}
