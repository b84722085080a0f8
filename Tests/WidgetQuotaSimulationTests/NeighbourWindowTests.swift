import Foundation
import Testing
import WidgetQuotaSimulation
import WidgetQuotaSupport

/// The load projection's sliding neighbour medians are exactly the medians of each window,
/// wrapping round or not, whatever the window's width against the series' length.
@Suite("neighbour windows") struct NeighbourWindowTests {
    /// The median of each window, taken the plain way.
    static func reference(_ values: [Double], halfWindow h: Int, circular: Bool) -> [Double] {
        values.indices.map { i in
            var window = [Double]()
            for offset in -h...h {
                let j = i + offset
                if circular {
                    window.append(values[((j % values.count) + values.count) % values.count])
                } else if j >= 0 && j < values.count {
                    window.append(values[j])
                }
            }
            return Statistics.median(window)
        }
    }

    @Test(
        "sliding medians equal each window's median",
        arguments: [(1, 1), (5, 2), (40, 3), (200, 15), (31, 15), (10, 15), (300, 60)])
    func slidingMediansEqualEachWindowsMedian(count: Int, halfWindow: Int) {
        var rng = RandomStream(seed: 7, .minuteLoad, UInt64(count))
        // Small counts with many ties, as per-minute requests are, and a few spikes.
        let values = (0..<count).map { _ -> Double in
            let u = rng.uniform()
            return u > 0.97 ? Double(Int(u * 1_000)) : Double(Int(u * 4)) / 3
        }
        for circular in [true, false] {
            let sliding = LoadProjection.neighbourMedians(values, halfWindow: halfWindow, circular: circular)
            #expect(sliding == Self.reference(values, halfWindow: halfWindow, circular: circular), "circular: \(circular)")
        }
    }

    @Test("an empty series has no medians") func emptySeries() {
        #expect(LoadProjection.neighbourMedians([], halfWindow: 3, circular: true).isEmpty)
    }
}
