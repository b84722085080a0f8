import Foundation

/// The beta distribution's cumulative function and its inverse, for sensitivity ranges of
/// `beta(alpha, beta)` assumptions (failure probabilities and other shares).
package enum BetaFunction {
    /// ln Γ(x) for x > 0 (Lanczos, g = 7, nine terms: about 15 significant digits). Written here
    /// because libm's `lgamma` writes a global (`signgam`) and is not safe across threads.
    static func logGamma(_ x: Double) -> Double {
        if x < 0.5 {
            // Reflection: Γ(x) Γ(1 − x) = π / sin(πx).
            return Foundation.log(Double.pi / Foundation.sin(Double.pi * x)) - logGamma(1 - x)
        }
        let coefficients = [
            0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313,
            -176.61503916999185, 12.507343278686905, -0.13857109526572012,
            9.9843695780195716e-6, 1.5056327351493116e-7,
        ]
        let z = x - 1
        var sum = coefficients[0]
        for i in 1..<coefficients.count { sum += coefficients[i] / (z + Double(i)) }
        let t = z + 7.5
        return 0.5 * Foundation.log(2 * Double.pi) + (z + 0.5) * Foundation.log(t) - t + Foundation.log(sum)
    }

    /// The regularised incomplete beta function I_x(a, b): P(X ≤ x) for X ~ beta(a, b).
    static func cumulative(_ x: Double, _ a: Double, _ b: Double) -> Double {
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        let front = Foundation.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Foundation.log(x) + b * Foundation.log(1 - x))
        // The continued fraction converges fast on the side of the mean where x is.
        if x < (a + 1) / (a + b + 2) { return front * continuedFraction(x, a, b) / a }
        return 1 - front * continuedFraction(1 - x, b, a) / b
    }

    /// The quantile: the x with I_x(a, b) = q, by bisection (the function is increasing).
    package static func quantile(_ q: Double, _ a: Double, _ b: Double) -> Double {
        if q <= 0 { return 0 }
        if q >= 1 { return 1 }
        var low = 0.0
        var high = 1.0
        for _ in 0..<200 {
            let mid = (low + high) / 2
            if mid == low || mid == high { break }
            if cumulative(mid, a, b) < q { low = mid } else { high = mid }
        }
        return (low + high) / 2
    }

    /// The continued fraction of I_x(a, b) (modified Lentz).
    private static func continuedFraction(_ x: Double, _ a: Double, _ b: Double) -> Double {
        let tiny = 1e-300
        func guarded(_ v: Double) -> Double { abs(v) < tiny ? tiny : v }
        var c = 1.0
        var d = 1 / guarded(1 - (a + b) * x / (a + 1))
        var h = d
        for step in 1...500 {
            let m = Double(step)
            let m2 = 2 * m
            var term = m * (b - m) * x / ((a + m2 - 1) * (a + m2))
            d = 1 / guarded(1 + term * d)
            c = guarded(1 + term / c)
            h *= d * c
            term = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1))
            d = 1 / guarded(1 + term * d)
            c = guarded(1 + term / c)
            let delta = d * c
            h *= delta
            if abs(delta - 1) < 1e-15 { break }
        }
        return h
    }
}
