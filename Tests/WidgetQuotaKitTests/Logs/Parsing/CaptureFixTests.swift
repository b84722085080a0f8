import Foundation
import Testing

@testable import WidgetQuotaKit

/// Defects found by running real `log show` captures, each reproduced by a small fixture under
/// Fixtures/logs/captures.
@Suite("Fixes from real log captures")
struct CaptureFixTests {
    @Test("NSError codes stay readable in the error table while OAuth codes in URLs are redacted")
    func nsErrorCodesAreKept() throws {
        let a = try LogTestSupport.analyze(fixtures: ["captures/nserror-codes.ndjson"])
        let messages = a.topErrors.map(\.message)
        #expect(messages.contains { $0.contains("NSURLErrorDomain Code=-1009 ") }, "\(messages)")
        #expect(messages.contains { $0.contains("NSURLErrorDomain Code=-1001 ") }, "\(messages)")
        #expect(messages.contains { $0.contains("NSCocoaErrorDomain Code=4865 ") }, "\(messages)")
        #expect(messages.contains { $0.contains("CHSErrorDomain Code=1103 ") }, "\(messages)")
        #expect(messages.contains { $0.contains("callback?code=[REDACTED]&state=1") }, "\(messages)")
        #expect(messages.contains { $0.contains("&code=[REDACTED] failed") }, "\(messages)")
        #expect(!messages.joined().contains("OAUTHCODE4242") && !messages.joined().contains("730512"))
    }

    @Test("a process that is no known system daemon and logs a task summary is counted as the app")
    func unidentifiedAppIsCounted() throws {
        let a = try LogTestSupport.analyze(fixtures: ["captures/unidentified-app.ndjson"])
        #expect(a.appProcesses == ["example"])
        #expect(LogTestSupport.total(a, \.apiRequests) == 1)
        #expect(a.otherProcessRequests == 1)
        #expect(a.notes.contains { $0.contains("example") && $0.contains("taken as the app") && $0.contains("--app NAME") })
        // The left-out request is named by its process, not blamed on daemons in general.
        #expect(a.notes.contains { $0.contains("(trustd 1)") && !$0.contains("such as") })
    }

    @Test("a process left out while the app is known is named, with the option to count it")
    func leftOutProcessIsNamed() throws {
        // GeminiApp is the app (it logs BackgroundTasks lines); "helper" logs a request too.
        let text = try String(contentsOfFile: LogTestSupport.fixture("captures/unidentified-app.ndjson"), encoding: .utf8)
        let bgLine =
            #"{"eventMessage":"Received run request for com.example.refresh","processImagePath":"\/x\/GeminiApp","timestamp":"2026-03-03 10:00:02.000000+0100","messageType":"Default"}"#
        let a = try LogTestSupport.analyze(text + bgLine + "\n")
        #expect(a.appProcesses == ["GeminiApp"])
        #expect(a.otherProcessRequests == 2)
        #expect(a.notes.contains { $0.contains("example 1") && $0.contains("If example is your app, pass --app example.") })
    }
}
