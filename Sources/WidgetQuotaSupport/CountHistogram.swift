import Foundation

/// The exact distribution of a list of non-negative integers (requests per user per month):
/// each distinct value with how often it occurs.
///
/// Its sum, mean and order statistics equal those of the full list, while its size grows with the
/// number of distinct values (the spread of the counts), not with the length of the list: a run
/// of ten million users costs no more memory than a run of ten thousand.
package struct CountHistogram: Sendable, Equatable {
    /// Distinct values, ascending.
    package private(set) var values: [Int64] = []
    /// How many times each value occurs (same order as `values`, all positive).
    package private(set) var frequencies: [Int64] = []
    /// Length of the list.
    package private(set) var count: Int64 = 0
    /// Sum of the list.
    package private(set) var sum: Int64 = 0

    /// An empty histogram.
    package init() {}

    /// The histogram of `list` (any order; values must be non-negative).
    package init<S: Sequence>(_ list: S) where S.Element: BinaryInteger {
        var tally = CountTally()
        for value in list { tally.add(Int(value)) }
        self = tally.histogram
    }

    /// Builds from `frequencies[v]` = how many times `v` occurs.
    init(denseFrequencies dense: UnsafeBufferPointer<Int64>) {
        for (value, frequency) in dense.enumerated() where frequency > 0 {
            values.append(Int64(value))
            frequencies.append(frequency)
            count += frequency
            sum += Int64(value) * frequency
        }
    }

    /// Builds from distinct ascending values and their (positive) frequencies.
    init(sortedValues: [Int64], frequencies: [Int64]) {
        values = sortedValues
        self.frequencies = frequencies
        for (value, frequency) in zip(sortedValues, frequencies) {
            count += frequency
            sum += value * frequency
        }
    }

    /// The histogram of both lists together.
    package func merged(with other: CountHistogram) -> CountHistogram {
        var result = CountHistogram()
        var i = 0
        var j = 0
        while i < values.count || j < other.values.count {
            let takeSelf = j == other.values.count || (i < values.count && values[i] <= other.values[j])
            let takeOther = i == values.count || (j < other.values.count && other.values[j] <= values[i])
            let value = takeSelf ? values[i] : other.values[j]
            var frequency: Int64 = 0
            if takeSelf {
                frequency += frequencies[i]
                i += 1
            }
            if takeOther {
                frequency += other.frequencies[j]
                j += 1
            }
            result.values.append(value)
            result.frequencies.append(frequency)
        }
        result.count = count + other.count
        result.sum = sum + other.sum
        return result
    }

    /// The element at `rank` (0-based) of the sorted list.
    package func element(atRank rank: Int64) -> Int64 {
        precondition(rank >= 0 && rank < count, "rank \(rank) outside a list of \(count)")
        var seen: Int64 = 0
        for (value, frequency) in zip(values, frequencies) {
            seen += frequency
            if rank < seen { return value }
        }
        return values[values.count - 1]
    }

    /// The `q` quantile, interpolated exactly as `Statistics.quantile(sorted:_:)` on the sorted
    /// list (Hyndman–Fan type 7); NaN when empty.
    package func quantile(_ q: Double) -> Double {
        guard count > 0 else { return .nan }
        if count == 1 { return Double(values[0]) }
        let position = q * Double(count - 1)
        let lower = Int64(position.rounded(.down))
        let upper = min(lower + 1, count - 1)
        let fraction = position - Double(lower)
        let low = Double(element(atRank: lower))
        let high = Double(element(atRank: upper))
        return low + (high - low) * fraction
    }
}

/// Counts non-negative integers: values below `denseLimit` in a growable dense array (adding is
/// one increment), larger ones in a dictionary, so memory grows with the largest small value
/// and the number of distinct large ones, never with a single huge count.
package struct CountTally {
    private var frequencies: [Int64] = []
    private var large: [Int: Int64] = [:]

    package init() {}
    /// Values below this are counted densely (512 KiB at most).
    static let denseLimit = 1 << 16

    /// Adds one occurrence of `value` (≥ 0).
    package mutating func add(_ value: Int) {
        precondition(value >= 0, "counts are non-negative, got \(value)")
        guard value < CountTally.denseLimit else {
            large[value, default: 0] += 1
            return
        }
        if value >= frequencies.count {
            frequencies.append(contentsOf: repeatElement(0, count: max(value + 1, 2 * frequencies.count) - frequencies.count))
        }
        frequencies[value] += 1
    }

    /// What has been added so far.
    package var histogram: CountHistogram {
        var h = frequencies.withUnsafeBufferPointer { CountHistogram(denseFrequencies: $0) }
        if !large.isEmpty {
            let sorted = large.keys.sorted()
            h = h.merged(with: CountHistogram(sortedValues: sorted.map(Int64.init), frequencies: sorted.map { large[$0]! }))
        }
        return h
    }
}

extension Quantiles {
    /// Summarises the list `histogram` stands for, exactly as `init(_:)` would the list.
    package init(_ histogram: CountHistogram) {
        let mean = histogram.count > 0 ? Double(histogram.sum) / Double(histogram.count) : .nan
        self.init(
            mean: mean, p5: histogram.quantile(0.05), p50: histogram.quantile(0.5),
            p95: histogram.quantile(0.95), p99: histogram.quantile(0.99))
    }
}
