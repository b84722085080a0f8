import Foundation
import Testing
import WidgetQuotaModel
import WidgetQuotaSimulation
import WidgetQuotaSupport
import WidgetQuotaTestSupport

/// Reproducibility depends on every random stream having a key of its own.
@Suite("Random stream ids")
struct RandomStreamIDTests {
    @Test("every stream id is distinct")
    func idsAreDistinct() {
        let values = RandomStreamID.allCases.map(\.rawValue)
        #expect(Set(values).count == values.count, "\(values)")
    }

    @Test("every run parameter's path hashes to a key of its own")
    func runParameterKeysAreDistinct() {
        let paths = RunParameters.assumptions(of: Scenario()).map(\.path)
        let keys = paths.map(RunParameters.stableHash)
        #expect(Set(paths).count == paths.count && Set(keys).count == keys.count, "\(paths)")
    }

    @Test("streams of different ids, same seed and keys, draw different numbers")
    func streamsDiffer() {
        let firsts = RandomStreamID.allCases.map { id -> UInt64 in
            var rng = RandomStream(seed: 2026, id, 0, 0)
            return rng.next()
        }
        #expect(Set(firsts).count == firsts.count)
    }

    @Test("an id keys a stream as its raw value does: the results drawn from it stay the same")
    func idIsItsRawValue() {
        for id in RandomStreamID.allCases {
            var a = RandomStream(seed: 7, id, 3, 4)
            var b = RandomStream(seed: 7, id.rawValue, 3, 4)
            var c = RandomStream(seed: 7, id, 3, 4, 5)
            var d = RandomStream(seed: 7, id.rawValue, 3, 4, 5)
            var e = RandomStream(seed: 7, id)
            var f = RandomStream(seed: 7, id.rawValue)
            #expect(a.next() == b.next() && c.next() == d.next() && e.next() == f.next(), "\(id)")
        }
    }

    @Test("the library keys every stream by a RandomStreamID, never by a bare number")
    func noBareStreamKeys() throws {
        let files = try SourceTree.swiftFiles(under: "Sources")
        #expect(files.keys.contains { $0.hasPrefix("WidgetQuotaSimulation/") }, "the engine's sources were read")
        for (path, text) in files where !path.hasPrefix("WidgetQuotaSupport/") {
            for line in text.split(separator: "\n") where line.contains("RandomStream(seed:") {
                let afterSeed = line.components(separatedBy: "RandomStream(seed:")[1]
                let parts = afterSeed.split(separator: ",")
                #expect(
                    parts.count >= 2 && parts[1].trimmingCharacters(in: .whitespaces).hasPrefix("."),
                    "\(path): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
    }
}
