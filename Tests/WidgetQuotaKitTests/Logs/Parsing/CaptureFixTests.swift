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
}
