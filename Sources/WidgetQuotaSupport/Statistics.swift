import Foundation

/// Order statistics with linear interpolation between closest ranks (Hyndman–Fan type 7).
package enum Statistics {
    /// The `q` quantile of already sorted values.
    package static func quantile(sorted values: [Double], _ q: Double) -> Double {
        guard !values.isEmpty else { return .nan }
        if values.count == 1 { return values[0] }
        let position = q * Double(values.count - 1)
        let lower = Int(position.rounded(.down))
        let upper = min(lower + 1, values.count - 1)
        let fraction = position - Double(lower)
        return values[lower] + (values[upper] - values[lower]) * fraction
    }

    /// The median: the 0.5 quantile of the values in any order (NaN when empty).
    package static func median(_ values: [Double]) -> Double {
        quantile(sorted: values.sorted(), 0.5)
    }

    /// The arithmetic mean (NaN when empty), summed in a fixed order.
    package static func mean(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return .nan }
        return values.reduce(0, +) / Double(values.count)
    }
}

/// Mean and percentiles across users.
public struct Quantiles: Codable, Sendable, Equatable {
    /// The mean.
    public var mean: Double
    /// The 5th percentile.
    public var p5: Double
    /// The median.
    public var p50: Double
    /// The 95th percentile.
    public var p95: Double
    /// The 99th percentile.
    public var p99: Double

    package init(mean: Double, p5: Double, p50: Double, p95: Double, p99: Double) {
        self.mean = mean
        self.p5 = p5
        self.p50 = p50
        self.p95 = p95
        self.p99 = p99
    }

    /// Summarises `values` (any order).
    package init(_ values: [Double]) {
        let sorted = values.sorted()
        mean = Statistics.mean(sorted)
        p5 = Statistics.quantile(sorted: sorted, 0.05)
        p50 = Statistics.quantile(sorted: sorted, 0.5)
        p95 = Statistics.quantile(sorted: sorted, 0.95)
        p99 = Statistics.quantile(sorted: sorted, 0.99)
    }
}

/// Mean and percentiles across Monte-Carlo runs: the uncertainty of a figure.
public struct RunSpread: Codable, Sendable, Equatable {
    /// The mean over runs.
    public var mean: Double
    /// The 5th percentile over runs.
    public var p5: Double
    /// The median run.
    public var p50: Double
    /// The 95th percentile over runs.
    public var p95: Double
    /// The 99th percentile over runs.
    public var p99: Double

    package init(mean: Double, p5: Double, p50: Double, p95: Double, p99: Double) {
        self.mean = mean
        self.p5 = p5
        self.p50 = p50
        self.p95 = p95
        self.p99 = p99
    }

    /// Summarises one value per run.
    package init(_ values: [Double]) {
        let q = Quantiles(values)
        self.init(mean: q.mean, p5: q.p5, p50: q.p50, p95: q.p95, p99: q.p99)
    }
}
