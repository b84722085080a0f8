import Foundation
import Testing
import WidgetQuotaLogs
import WidgetQuotaSupport
import WidgetQuotaTestSupport

@Suite("Secret redaction")
struct RedactionTests {
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
            // Providers' shapes, bare in a message.
            ("aws AKIAIOSFODNN7EXAMPLE ok", "aws [REDACTED] ok"),
            ("gh ghp_0123456789abcdefghijABCDEFGHIJ012345 ok", "gh [REDACTED] ok"),
            ("pat github_pat_11ABCDEFG0123456789_abcdefghijklmnop ok", "pat [REDACTED] ok"),
            ("stripe sk_live_4eC39HqLyjWDarjtT1zdp7dc ok", "stripe [REDACTED] ok"),
            ("slack xoxb-123456789012-abcdefghij ok", "slack [REDACTED] ok"),
            ("post https://hooks.slack.com/services/T000/B000/XXXXXXXX ok", "post https://hooks.slack.com/services/[REDACTED] ok"),
            ("hf hf_abcdefghijklmnopqrstuvwxyzABCDEFGH ok", "hf [REDACTED] ok"),
            ("sg SG.abcdefghijklmnop1234.qrstuvwxyzABCDEF5678 ok", "sg [REDACTED] ok"),
            ("oauth ya29.a0AfH6SMBxyzxyzxyzxyzxyzxyz ok", "oauth [REDACTED] ok"),
            ("secret GOCSPX-abcdefghijklmnopqrstuv ok", "secret [REDACTED] ok"),
            ("GET https://admin:hunter2@api.example.com/v1 ok", "GET https://admin:[REDACTED]@api.example.com/v1 ok"),
            ("Cookie: session=abc123; theme=dark", "Cookie: [REDACTED]"),
            ("\"Set-Cookie\": \"sid=xyz; Path=/\"", "\"Set-Cookie\": \"[REDACTED]\""),
            // Not secrets: an email, a task, a GitHub URL.
            ("mail me@example.com about the BGTask", "mail me@example.com about the BGTask"),
            ("https://github.com/widget-quota/widget-quota ok", "https://github.com/widget-quota/widget-quota ok"),
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
}
