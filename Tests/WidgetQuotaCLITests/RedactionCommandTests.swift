import Foundation
import Testing
import WidgetQuotaLogsTestSupport
import WidgetQuotaSupport
import WidgetQuotaTestSupport

@Suite("Secret redaction in every output") struct RedactionCommandTests {
    @Test("no output contains a planted secret") func noOutputContainsAPlantedSecret() throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let folder = try tmp.subfolder()
        var paths = [String]()
        for input in RedactionSamples.inputs() {
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
        try ("not json " + RedactionSamples.message + "\n").write(toFile: folder + "/bad.ndjson", atomically: true, encoding: .utf8)
        try ("{\"schemaVersion\":1,\"timestamp\":\"x\",\"event\":\"getTimeline\"}\n" + RedactionSamples.message + "\n").write(
            toFile: folder + "/bad2.ndjson", atomically: true, encoding: .utf8)
        for extra in [["--strict"], []] {
            let r = LogTestSupport.run(["analyze", "--format", "json"] + extra + [folder + "/bad2.ndjson", folder + "/bad.ndjson"])
            outputs += [r.out, r.err]
        }
        for output in outputs {
            for secret in RedactionSamples.secrets {
                #expect(!output.contains(secret), "a secret leaked: \(secret)")
            }
            // No fragment of a secret either (first 12 characters).
            for secret in RedactionSamples.secrets { #expect(!output.contains(String(secret.prefix(12)))) }
        }
    }
}
