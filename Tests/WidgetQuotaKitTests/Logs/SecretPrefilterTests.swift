import Testing
@testable import WidgetQuotaKit

/// The redactor's pre-check decides which texts skip the regular expressions: it must say yes
/// exactly when the ASCII-lowercased text contains one of its words, as the plain search it
/// replaced did.
@Suite("Secret pre-check")
struct SecretPrefilterTests {
    /// The plain search: lowercase A–Z, then look for each word.
    static func reference(_ bytes: [UInt8]) -> Bool {
        let lower = bytes.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
        return SecretPrefilter.words.contains { word in
            let w = Array(word.utf8)
            guard lower.count >= w.count else { return false }
            return (0...(lower.count - w.count)).contains { Array(lower[$0..<($0 + w.count)]) == w }
        }
    }

    @Test("agrees with lowercasing and searching, on texts built from the words' pieces")
    func matchesReference() {
        let prefilter = SecretPrefilter()
        // Pieces that make near misses: letters of the words in both cases, bytes that become a
        // word's letter when 0x20 is set (\r for '-', '@' for '`'), UTF-8 and the words themselves.
        let pieces: [[UInt8]] = ["k", "K", "e", "E", "y", "t", "T", "o", "n", "a", "A", "u", "h", "b", "r", "i", "I", "z", "Z",
                                 "s", "S", "-", "\r", "j", "J", "c", "p", "w", "d", "g", "@", "é", "\u{212A}", " ", "x",
                                 "key", "TOKEN", "Auth", "bEaReR", "aizA", "SK-", "eyJ", "secret", "passWord", "sig"].map { Array($0.utf8) }
        var state: UInt64 = 7
        for _ in 0..<30_000 {
            state = RandomStream.mix(state &+ 0x9E37_79B9_7F4A_7C15)
            var text: [UInt8] = []
            var bits = state
            for _ in 0..<Int(state % 9) {
                text += pieces[Int(bits % UInt64(pieces.count))]
                bits /= UInt64(pieces.count)
            }
            let fast = text.withUnsafeBufferPointer { prefilter.matches($0) }
            #expect(fast == Self.reference(text), "\(String(decoding: text, as: UTF8.self).debugDescription)")
        }
    }

    @Test("finds a word at the very start and the very end", arguments: SecretPrefilter.words)
    func wordAtEitherEnd(word: String) {
        let prefilter = SecretPrefilter()
        for text in [word, word.uppercased(), "xxxxxxxxxx" + word, word + "xxxxxxxxxx", String(word.dropLast())] {
            let bytes = Array(text.utf8)
            #expect(bytes.withUnsafeBufferPointer { prefilter.matches($0) } == Self.reference(bytes), "\(text)")
        }
    }
}
