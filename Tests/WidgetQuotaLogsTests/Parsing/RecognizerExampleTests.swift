import Testing
import WidgetQuotaLogs

/// Every built-in recogniser's examples, run through the real recogniser: the lines that must
/// match give the event written beside them, the lines that must not give none.
@Suite("Recogniser examples")
struct RecognizerExampleTests {
    static let time = Array("2025-07-27 15:47:10.504275-0400".utf8).withUnsafeBufferPointer { LogTimestamp.parse($0)!.0 }

    static func entry(_ example: BuiltInRecognizer.Example) -> AppleLogEntry {
        AppleLogEntry(time: time, process: example.process, message: example.message)
    }

    static func isCandidate(_ example: BuiltInRecognizer.Example) -> Bool {
        var message = example.message
        return message.withUTF8 { AppleLogRecognizer().isCandidate($0) }
    }

    @Test("each recogniser's examples match or not as written", arguments: AppleLogRecognizer.table)
    func examples(_ recognizer: BuiltInRecognizer) {
        #expect(!recognizer.triggeringExamples.isEmpty, "\(recognizer.name) has no line that must match")
        #expect(!recognizer.nonTriggeringExamples.isEmpty, "\(recognizer.name) has no line that must not match")
        for example in recognizer.triggeringExamples {
            let expected = example.event
            #expect(expected != nil, "\(recognizer.name): a matching example names its event: \(example)")
            #expect(Self.isCandidate(example), "\(recognizer.name): the parser's byte filter skips \(example)")
            #expect(recognizer.recognise(Self.entry(example))?.summary == expected, "\(recognizer.name) alone: \(example)")
            let event = AppleLogRecognizer().recognise(Self.entry(example))
            #expect(event?.summary == expected, "\(recognizer.name) in the table: \(example)")
            #expect(event?.process == example.process && event?.time == Self.time, "\(recognizer.name): \(example)")
        }
        for example in recognizer.nonTriggeringExamples {
            #expect(example.event == nil, "\(recognizer.name): a line that must not match names no event: \(example)")
            let event = AppleLogRecognizer().recognise(Self.entry(example))
            #expect(event == nil, "\(recognizer.name): \(example) gave \(event?.summary ?? "")")
        }
    }

    @Test("names are short distinct identifiers and every needle belongs to a recogniser")
    func names() {
        let names = AppleLogRecognizer.table.map(\.name)
        #expect(Set(names).count == names.count, "\(names)")
        for name in names {
            #expect(name.first?.isLowercase == true && name.allSatisfy { $0.isLetter || $0.isNumber }, "\(name)")
        }
        #expect(AppleLogRecognizer.table.allSatisfy { !$0.needles.isEmpty && !$0.recognises.isEmpty })
        #expect(AppleLogRecognizer.needles == AppleLogRecognizer.table.flatMap(\.needles))
    }
}
