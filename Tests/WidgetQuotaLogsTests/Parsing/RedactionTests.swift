import Foundation
import Testing
import WidgetQuotaLogs
import WidgetQuotaSupport
import WidgetQuotaTestSupport

@Suite("Secret redaction")
struct RedactionTests {
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

    @Test(
        "redacts each kind of secret",
        arguments: [
            ("https://x.test/v1?key=AIzaSyABCDEFGHIJKLMNOPQRSTUVWXYZ0123456&alt=json", "https://x.test/v1?key=[REDACTED]&alt=json"),
            ("x-goog-api-key: abc123def456", "x-goog-api-key: [REDACTED]"),
            ("Authorization: Bearer abc.def.ghi", "Authorization: Bearer [REDACTED]"),
            ("\"api_key\": \"s3cr3t-value\"", "\"api_key\": \"[REDACTED]\""),
            ("token=abcdef&page=2", "token=[REDACTED]&page=2"),
            ("login passwd=hunter2 done", "login passwd=[REDACTED] done"),
            ("callback?code=s3cr3tc0de&state=1", "callback?code=[REDACTED]&state=1"),
            ("client_secret: abc123", "client_secret: [REDACTED]"),
            ("https://x.test/f?signature=abc123", "https://x.test/f?signature=[REDACTED]"),
            ("pa\u{017F}\u{017F}word=hunter2 ok", "pa\u{017F}\u{017F}word=[REDACTED] ok"),
            ("to\u{212A}en=abcdef&page=2", "to\u{212A}en=[REDACTED]&page=2"),
            ("tokens=80 monkey=3", "tokens=80 monkey=3"),
            // Short JWTs, an unsigned one too, bare in a message.
            ("jwt eyJhbGciOiJIUzI1NiJ9.eyJ4IjoxfQ.abc ok", "jwt [REDACTED] ok"),
            ("jwt eyJhbGciOiJub25lIn0.eyJ4IjoxfQ. ok", "jwt [REDACTED] ok"),
            ("eyJust.one.word", "eyJust.one.word"),
            // Percent-encoded, prefixed and spaced names.
            ("url=https%3A%2F%2Fx.com%2Fv1%3Fkey%3DSECRET3%26alt%3Djson", "url=https%3A%2F%2Fx.com%2Fv1%3Fkey%3D[REDACTED]%26alt%3Djson"),
            ("?api_key%3DSECRET4", "?api_key%3D[REDACTED]"),
            ("?private_key=SECRET5&x=1", "?private_key=[REDACTED]&x=1"),
            ("client_key=SECRET6", "client_key=[REDACTED]"),
            ("token%3DSECRET7", "token%3D[REDACTED]"),
            ("Ocp-Apim-Subscription-Key: SECRET8", "Ocp-Apim-Subscription-Key: [REDACTED]"),
            ("key = SECRET9", "key = [REDACTED]"),
            ("apiKey=SECRET10 accessToken: SECRET11", "apiKey=[REDACTED] accessToken: [REDACTED]"),
            // JSON logged as a string, a plain "key" field, Swift's printout of allHeaderFields.
            (#"Fetch error: {\"x-goog-api-key\":\"SECRETN4\"}"#, #"Fetch error: {\"x-goog-api-key\":\"[REDACTED]\"}"#),
            (#"body={\"key\":\"SECRETN5\"}"#, #"body={\"key\":\"[REDACTED]\"}"#),
            (#"body={"key":"SECRETN6"}"#, #"body={"key":"[REDACTED]"}"#),
            (#"[AnyHashable("Authorization"): Basic SECRETB1]"#, #"[AnyHashable("Authorization"): Basic [REDACTED]]"#),
            (
                #"[AnyHashable("x-goog-api-key"): SECRETB2, AnyHashable("Accept"): json]"#,
                #"[AnyHashable("x-goog-api-key"): [REDACTED], AnyHashable("Accept"): json]"#
            ),
            (#"Authorization: Bearer "SECRETB3""#, #"Authorization: Bearer [REDACTED]""#),
            ("statusCode=503 errorCode: -1011 design=direct", "statusCode=503 errorCode: -1011 design=direct"),
            ("Request ended for W:systemSmall:(noIntent) - success", "Request ended for W:systemSmall:(noIntent) - success"),
            // NSError codes are kept; OAuth codes in URL queries are redacted whatever they look like.
            (#"Error Domain=NSURLErrorDomain Code=-1009 "offline""#, #"Error Domain=NSURLErrorDomain Code=-1009 "offline""#),
            ("NSCocoaErrorDomain Code=4865, CHSErrorDomain Code=1103.", "NSCocoaErrorDomain Code=4865, CHSErrorDomain Code=1103."),
            ("callback?state=1&code=730512", "callback?state=1&code=[REDACTED]"),
            ("callback?code=730512", "callback?code=[REDACTED]"),
            ("u=https%3A%2F%2Fx.test%2Fcb%3Fcode%3D730512", "u=https%3A%2F%2Fx.test%2Fcb%3Fcode%3D[REDACTED]"),
            ("oauth code=s3cr3tc0de done", "oauth code=[REDACTED] done"),
            ("code=-1009abc", "code=[REDACTED]"),
        ])
    func redacts(input: String, expected: String) {
        #expect(SecretRedactor().redact(input) == expected)
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

    @Test("no output contains a planted secret") func noOutputContainsAPlantedSecret() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let folder = try tmp.subfolder()
        var paths = [String]()
        for input in Self.inputs() {
            let path = folder + "/" + input.name
            try input.text.write(toFile: path, atomically: true, encoding: .utf8)
            paths.append(path)
            // Each format on its own recognises the planted fetch error.
            let a = try LogTestSupport.analyze(input.text, name: input.name)
            #expect(LogTestSupport.total(a, \.fetchErrors) == 1, "\(input.name)")
            #expect(a.topErrors.first?.message.contains("[REDACTED]") == true, "\(input.name)")
        }
        var outputs = [String]()
        for format in ["markdown", "csv", "json"] {
            let r = LogTestSupport.run(["analyze", "--format", format, "--emit-scenario", folder + "/scenario-\(format).json"] + paths)
            #expect(r.code == .success, "\(r.err)")
            outputs += [r.out, r.err, try String(contentsOfFile: folder + "/scenario-\(format).json", encoding: .utf8)]
        }
        // Malformed-line messages and --strict errors name the file and line, never the content.
        try ("not json " + Self.message + "\n").write(toFile: folder + "/bad.ndjson", atomically: true, encoding: .utf8)
        try ("{\"schemaVersion\":1,\"timestamp\":\"x\",\"event\":\"getTimeline\"}\n" + Self.message + "\n").write(
            toFile: folder + "/bad2.ndjson", atomically: true, encoding: .utf8)
        for extra in [["--strict"], []] {
            let r = LogTestSupport.run(["analyze", "--format", "json"] + extra + [folder + "/bad2.ndjson", folder + "/bad.ndjson"])
            outputs += [r.out, r.err]
        }
        for output in outputs {
            for secret in Self.secrets {
                #expect(!output.contains(secret), "a secret leaked: \(secret)")
            }
            // No fragment of a secret either (first 12 characters).
            for secret in Self.secrets { #expect(!output.contains(String(secret.prefix(12)))) }
        }
    }
}
