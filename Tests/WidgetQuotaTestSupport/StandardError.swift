import WidgetQuotaSupport

/// Standard errors for statistical tolerances: a bound of a few standard errors of what a test
/// compares holds at any seed and still catches a real change, where a fixed percentage tuned at
/// one seed does neither.
package enum StandardError {
    /// How many standard errors a bound allows: a two-sided 4σ bound fails by chance about once
    /// in 16,000 comparisons.
    package static let bound = 4.0

    /// The standard error of the mean of `count` values spread as `q` says, the standard deviation
    /// estimated from the 5th–95th percentile range as a normal distribution's (3.29 σ).
    package static func ofMean(_ q: Quantiles, count: Int) -> Double {
        (q.p95 - q.p5) / 3.29 / Double(count).squareRoot()
    }

    /// The standard error of the mean of `values`, from their sample standard deviation.
    package static func ofMean(_ values: [Double]) -> Double {
        let n = Double(values.count)
        let mean = values.reduce(0, +) / n
        let variance = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / (n - 1)
        return (variance / n).squareRoot()
    }

    /// The standard error of a Poisson count's rate per unit, `rate` per unit over `units` units.
    package static func ofPoissonRate(_ rate: Double, units: Double) -> Double { (rate / units).squareRoot() }
}
