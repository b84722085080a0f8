import Testing
import WidgetQuotaSupport
import WidgetQuotaTestSupport

/// The engine keeps requests per user as a histogram, not a list: every figure read from it must
/// equal the figure read from the list it stands for.
@Suite("count histogram") struct CountHistogramTests {
    static let lists: [[Int]] = [
        [], [7], [0], [3, 3, 3], [5, 1], [0, 0, 1, 900, 900, 2, 31],
        Array(0..<100), Array(repeating: 42, count: 1_000),
        // Seeded, skewed counts like requests per user: many near 90, a long tail.
        (0..<2_500).map { i -> Int in
            var rng = RandomStream(seed: 11, UInt64(i))
            return Int(rng.exponential() * 90) + (rng.bernoulli(0.02) ? 3_000 : 0)
        },
        // Counts past the dense range (a user of an extreme scenario), mixed with small ones.
        [3, 70_000, 5_000_000_000, 70_000, 65_535, 65_536, 0, 4_000_000_000_000],
    ]

    @Test("figures match the list", arguments: lists)
    func figuresMatchTheList(_ list: [Int]) {
        let histogram = CountHistogram(list)
        let sorted = list.map(Double.init).sorted()
        #expect(histogram.count == Int64(list.count))
        #expect(histogram.sum == Int64(list.reduce(0, +)))
        #expect(histogram.values == histogram.values.sorted() && Set(histogram.values).count == histogram.values.count)
        for q in [0, 0.05, 0.25, 0.5, 0.95, 0.99, 1] {
            let expected = Statistics.quantile(sorted: sorted, q)
            let actual = histogram.quantile(q)
            #expect(actual == expected || (actual.isNaN && expected.isNaN), "q = \(q)")
        }
        let summary = Quantiles(histogram)
        let reference = Quantiles(list.map(Double.init))
        #expect(summary == reference || list.isEmpty)
        for (rank, value) in sorted.enumerated() { #expect(histogram.element(atRank: Int64(rank)) == Int64(value)) }
    }

    @Test("merging equals counting both lists", arguments: zip(lists, lists.reversed()))
    func mergingEqualsCountingBothLists(_ a: [Int], _ b: [Int]) {
        #expect(CountHistogram(a).merged(with: CountHistogram(b)) == CountHistogram(a + b))
        #expect(CountHistogram(a).merged(with: CountHistogram()) == CountHistogram(a))
    }

}
