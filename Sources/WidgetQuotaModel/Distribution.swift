import Foundation
import WidgetQuotaSupport

/// An assumption that may be known (a fixed number) or uncertain (a distribution).
///
/// In scenario JSON a plain number means `fixed`; an object names the distribution:
/// `{"distribution": "triangular", "min": 1, "mode": 2, "max": 3}`.
public enum Distribution: Sendable, Equatable {
    /// Always `value`.
    case fixed(Double)
    /// Any value from `min` to `max`, equally likely.
    case uniform(min: Double, max: Double)
    /// From `min` to `max`, most likely near `mode`.
    case triangular(min: Double, mode: Double, max: Double)
    /// A normal distribution, optionally clamped to `[min, max]`.
    case normal(mean: Double, sd: Double, min: Double?, max: Double?)
    /// A lognormal distribution given by the mean and standard deviation of the value itself.
    case lognormal(mean: Double, sd: Double)
    /// A beta distribution on [0, 1], for shares and probabilities.
    case beta(alpha: Double, beta: Double)

    /// True when the value is not known exactly.
    public var isUncertain: Bool {
        if case .fixed = self { return false }
        return true
    }

    /// The central value: the mean of the distribution (clamped for a clamped normal).
    public var central: Double {
        switch self {
        case .fixed(let v): return v
        case .uniform(let a, let b): return (a + b) / 2
        case .triangular(let a, let c, let b): return (a + b + c) / 3
        case .normal(let m, _, let lo, let hi): return Swift.min(Swift.max(m, lo ?? -.infinity), hi ?? .infinity)
        case .lognormal(let m, _): return m
        case .beta(let a, let b): return a / (a + b)
        }
    }

    /// The value at quantile `q` in (0, 1), used for sensitivity ranges.
    package func quantile(_ q: Double) -> Double {
        switch self {
        case .fixed(let v): return v
        case .uniform(let a, let b): return a + (b - a) * q
        case .triangular(let a, let c, let b):
            let f = (c - a) / (b - a)
            if b == a { return a }
            return q < f ? a + ((b - a) * (c - a) * q).squareRoot() : b - ((b - a) * (b - c) * (1 - q)).squareRoot()
        case .normal(let m, let s, let lo, let hi):
            let v = m + s * Distribution.normalQuantile(q)
            return Swift.min(Swift.max(v, lo ?? -.infinity), hi ?? .infinity)
        case .lognormal(let m, let s):
            let (mu, sigma) = Distribution.lognormalParameters(mean: m, sd: s)
            return Foundation.exp(mu + sigma * Distribution.normalQuantile(q))
        case .beta(let a, let b):
            // Exact: skewed betas (a failure rate of beta(2, 50)) are far from normal.
            return BetaFunction.quantile(q, a, b)
        }
    }

    /// Draws one value.
    package func sample(_ rng: inout RandomStream) -> Double {
        switch self {
        case .fixed(let v): return v
        case .uniform(let a, let b): return a + (b - a) * rng.uniform()
        case .triangular: return quantile(rng.uniform())
        case .normal(let m, let s, let lo, let hi):
            let v = m + s * rng.standardNormal()
            return Swift.min(Swift.max(v, lo ?? -.infinity), hi ?? .infinity)
        case .lognormal(let m, let s):
            let (mu, sigma) = Distribution.lognormalParameters(mean: m, sd: s)
            return Foundation.exp(mu + sigma * rng.standardNormal())
        case .beta(let a, let b):
            let x = rng.gamma(shape: a)
            let y = rng.gamma(shape: b)
            return x + y > 0 ? x / (x + y) : a / (a + b)
        }
    }

    /// The smallest and largest values the distribution can take (infinite where unbounded).
    public var support: ClosedRange<Double> {
        switch self {
        case .fixed(let v): return v...v
        case .uniform(let a, let b): return a...b
        case .triangular(let a, _, let b): return a...b
        case .normal(_, _, let lo, let hi): return (lo ?? -.infinity)...(hi ?? .infinity)
        case .lognormal: return 0...Double.infinity
        case .beta: return 0...1
        }
    }

    /// A short human description, e.g. `triangular(1, 2, 3)`.
    public var summary: String {
        func f(_ v: Double) -> String { NumberText.plain(v) }
        switch self {
        case .fixed(let v): return f(v)
        case .uniform(let a, let b): return "uniform(\(f(a)), \(f(b)))"
        case .triangular(let a, let c, let b): return "triangular(\(f(a)), \(f(c)), \(f(b)))"
        case .normal(let m, let s, let lo, let hi):
            var text = "normal(mean \(f(m)), sd \(f(s))"
            if let lo { text += ", min \(f(lo))" }
            if let hi { text += ", max \(f(hi))" }
            return text + ")"
        case .lognormal(let m, let s): return "lognormal(mean \(f(m)), sd \(f(s)))"
        case .beta(let a, let b): return "beta(\(f(a)), \(f(b)))"
        }
    }

    static func lognormalParameters(mean: Double, sd: Double) -> (mu: Double, sigma: Double) {
        let sigma2 = Foundation.log(1 + (sd * sd) / (mean * mean))
        return (Foundation.log(mean) - sigma2 / 2, sigma2.squareRoot())
    }

    /// Acklam's rational approximation of the standard normal quantile (relative error < 1.2e-9).
    package static func normalQuantile(_ p: Double) -> Double {
        let a = [
            -3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
            1.383577518672690e+02, -3.066479806614716e+01, 2.506628277459239e+00,
        ]
        let b = [
            -5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
            6.680131188771972e+01, -1.328068155288572e+01,
        ]
        let c = [
            -7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
            -2.549732539343734e+00, 4.374664141464968e+00, 2.938163982698783e+00,
        ]
        let d = [7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00, 3.754408661907416e+00]
        let p = Swift.min(Swift.max(p, 1e-12), 1 - 1e-12)
        if p < 0.02425 {
            let q = (-2 * Foundation.log(p)).squareRoot()
            return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5])
                / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1)
        }
        if p > 1 - 0.02425 {
            return -normalQuantile(1 - p)
        }
        let q = p - 0.5
        let r = q * q
        return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q
            / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1)
    }
}

extension Distribution: Codable {
    private enum Keys: String, CodingKey, CaseIterable {
        case distribution, value, min, max, mode, mean, sd, alpha, beta
    }

    public init(from decoder: Decoder) throws {
        if let single = try? decoder.singleValueContainer(), let v = try? single.decode(Double.self) {
            self = .fixed(v)
            return
        }
        let c = try decoder.container(keyedBy: Keys.self)
        let kind = try c.decode(String.self, forKey: .distribution)
        func need(_ key: Keys) throws -> Double {
            guard let v = try c.decodeIfPresent(Double.self, forKey: key) else {
                throw DecodingError.keyNotFound(
                    key,
                    .init(
                        codingPath: c.codingPath,
                        debugDescription: "a \(kind) distribution needs \"\(key.rawValue)\""))
            }
            return v
        }
        switch kind {
        case "fixed": self = .fixed(try need(.value))
        case "uniform": self = .uniform(min: try need(.min), max: try need(.max))
        case "triangular": self = .triangular(min: try need(.min), mode: try need(.mode), max: try need(.max))
        case "normal":
            self = .normal(
                mean: try need(.mean), sd: try need(.sd),
                min: try c.decodeIfPresent(Double.self, forKey: .min),
                max: try c.decodeIfPresent(Double.self, forKey: .max))
        case "lognormal": self = .lognormal(mean: try need(.mean), sd: try need(.sd))
        case "beta":
            if let mean = try c.decodeIfPresent(Double.self, forKey: .mean),
                let sd = try c.decodeIfPresent(Double.self, forKey: .sd)
            {
                // Method of moments: friendlier than alpha/beta for most people.
                let common = mean * (1 - mean) / (sd * sd) - 1
                self = .beta(alpha: mean * common, beta: (1 - mean) * common)
            } else {
                self = .beta(alpha: try need(.alpha), beta: try need(.beta))
            }
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .distribution, in: c,
                debugDescription:
                    "unknown distribution \(quoted(kind)); expected one of fixed, uniform, triangular, normal, lognormal, beta")
        }
    }

    public func encode(to encoder: Encoder) throws {
        if case .fixed(let v) = self {
            var single = encoder.singleValueContainer()
            try single.encode(v)
            return
        }
        var c = encoder.container(keyedBy: Keys.self)
        switch self {
        case .fixed: break
        case .uniform(let a, let b):
            try c.encode("uniform", forKey: .distribution)
            try c.encode(a, forKey: .min)
            try c.encode(b, forKey: .max)
        case .triangular(let a, let m, let b):
            try c.encode("triangular", forKey: .distribution)
            try c.encode(a, forKey: .min)
            try c.encode(m, forKey: .mode)
            try c.encode(b, forKey: .max)
        case .normal(let m, let s, let lo, let hi):
            try c.encode("normal", forKey: .distribution)
            try c.encode(m, forKey: .mean)
            try c.encode(s, forKey: .sd)
            try c.encodeIfPresent(lo, forKey: .min)
            try c.encodeIfPresent(hi, forKey: .max)
        case .lognormal(let m, let s):
            try c.encode("lognormal", forKey: .distribution)
            try c.encode(m, forKey: .mean)
            try c.encode(s, forKey: .sd)
        case .beta(let a, let b):
            try c.encode("beta", forKey: .distribution)
            try c.encode(a, forKey: .alpha)
            try c.encode(b, forKey: .beta)
        }
    }
}

extension Distribution: ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral {
    /// A fixed value: `0.8` in code stands for `.fixed(0.8)`.
    public init(floatLiteral value: Double) { self = .fixed(value) }
    /// A fixed value: `2` in code stands for `.fixed(2)`.
    public init(integerLiteral value: Int) { self = .fixed(Double(value)) }
}
