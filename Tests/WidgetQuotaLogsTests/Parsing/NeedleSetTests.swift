import Testing
import WidgetQuotaLogs
import WidgetQuotaSupport

/// `NeedleSet` decides which messages skip the redactor's regular expressions and which the
/// recogniser looks at: it must say yes exactly when a plain search for each needle would, as
/// the searches it replaced did.
@Suite("Needle sets")
struct NeedleSetTests {
    /// The plain search: lowercase A–Z when folding, then look for each needle.
    static func reference(_ bytes: [UInt8], _ needles: [String], foldingCase: Bool) -> Bool {
        let text = foldingCase ? bytes.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 } : bytes
        return needles.contains { needle in
            let w = Array(needle.utf8)
            guard text.count >= w.count else { return false }
            return (0...(text.count - w.count)).contains { Array(text[$0..<($0 + w.count)]) == w }
        }
    }

    /// Texts made of pieces that build near misses of `needles`.
    static func texts(_ needles: [String], extra: [String], count: Int) -> [[UInt8]] {
        // Every needle, its halves and its letters in both cases, bytes that become a letter
        // when 0x20 is set (\r for '-', '@' for '`'), UTF-8 and a space.
        var pieces = Set(extra + ["\r", "@", "é", "\u{212A}", " "])
        for n in needles {
            pieces.insert(n)
            pieces.insert(n.uppercased())
            pieces.insert(String(n.prefix(n.count / 2)))
            pieces.insert(String(n.suffix(n.count - n.count / 2)))
            for c in n {
                pieces.insert(String(c))
                pieces.insert(String(c).uppercased())
            }
        }
        let list = pieces.sorted().map { Array($0.utf8) }
        var state: UInt64 = 7
        return (0..<count).map { _ in
            state = RandomStream.mix(state &+ 0x9E37_79B9_7F4A_7C15)
            var bits = state
            var text: [UInt8] = []
            for _ in 0..<Int(state % 9) {
                text += list[Int(bits % UInt64(list.count))]
                bits /= UInt64(list.count)
            }
            return text
        }
    }

    static let cases: [(needles: [String], foldingCase: Bool)] = [
        (SecretRedactor.triggers, true),
        (AppleLogRecognizer.needles, false),
    ]

    @Test("agrees with one plain search per needle, on texts built from the needles' pieces", arguments: [0, 1])
    func matchesReference(_ which: Int) {
        let (needles, folding) = Self.cases[which]
        let set = NeedleSet(needles, foldingCase: folding)
        for text in Self.texts(needles, extra: ["x", "-", "["], count: 30_000) {
            let found = text.withUnsafeBufferPointer { set.occurs(in: $0) }
            #expect(
                found == Self.reference(text, needles, foldingCase: folding), "\(String(decoding: text, as: UTF8.self).debugDescription)")
        }
    }

    @Test("finds a needle at the very start and the very end", arguments: [0, 1])
    func needleAtEitherEnd(_ which: Int) {
        let (needles, folding) = Self.cases[which]
        let set = NeedleSet(needles, foldingCase: folding)
        for needle in needles {
            for text in [needle, needle.uppercased(), "xxxxxxxxxx" + needle, needle + "xxxxxxxxxx", String(needle.dropLast())] {
                let bytes = Array(text.utf8)
                #expect(
                    bytes.withUnsafeBufferPointer { set.occurs(in: $0) } == Self.reference(bytes, needles, foldingCase: folding), "\(text)")
            }
        }
    }
}
