import Foundation

/// A small, fast, splittable pseudo-random stream (SplitMix64).
///
/// Every stream is keyed by *what it simulates* (seed, run, user, purpose), never by the
/// thread that happens to run it, so results are identical whatever the thread count.
package struct RandomStream: Sendable {
    @usableFromInline var state: UInt64

    /// Creates a stream from a 64-bit state.
    @inlinable package init(state: UInt64) { self.state = state }

    /// Creates a stream keyed by a seed and a path of integers (run, user, purpose, ...).
    package init(seed: UInt64, _ path: UInt64...) {
        var h = RandomStream.mix(seed ^ 0x5851_F42D_4C95_7F2D)
        for component in path { h = RandomStream.step(h, component) }
        self.state = h
    }

    /// The same keys as the variadic form, without allocating: the engine's per-user streams.
    @inlinable package init(seed: UInt64, _ a: UInt64, _ b: UInt64, _ c: UInt64) {
        var h = RandomStream.mix(seed ^ 0x5851_F42D_4C95_7F2D)
        h = RandomStream.step(h, a)
        h = RandomStream.step(h, b)
        self.state = RandomStream.step(h, c)
    }

    /// Four-key form of the above.
    @inlinable package init(seed: UInt64, _ a: UInt64, _ b: UInt64, _ c: UInt64, _ d: UInt64) {
        self.init(seed: seed, a, b, c)
        state = RandomStream.step(state, d)
    }

    @inlinable static func step(_ h: UInt64, _ component: UInt64) -> UInt64 {
        mix(h ^ mix(component &+ 0x9E37_79B9_7F4A_7C15))
    }

    /// The SplitMix64 finaliser: a strong 64-bit bit mixer.
    @inlinable package static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// The next 64 random bits.
    @inlinable package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return RandomStream.mix(state)
    }

    /// A uniform double in [0, 1).
    @inlinable package mutating func uniform() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// A uniform double in (0, 1], safe for logarithms.
    @inlinable package mutating func uniformPositive() -> Double {
        Double((next() >> 11) + 1) * 0x1.0p-53
    }

    /// True with probability `p`.
    @inlinable package mutating func bernoulli(_ p: Double) -> Bool {
        uniform() < p
    }

    /// True with the probability `threshold` stands for (`RandomStream.threshold(_:)`): the
    /// same answer as `bernoulli(p)` from the same draw, without turning it into a Double.
    @inlinable package mutating func bernoulli(threshold: UInt64) -> Bool {
        next() >> 11 < threshold
    }

    /// The integer form of probability `p` for `bernoulli(threshold:)`. `uniform()` is a 53-bit
    /// integer a times 2⁻⁵³, exactly, so `uniform() < p` exactly when a < ⌈p·2⁵³⌉ (0 for p ≤ 0 or NaN).
    package static func threshold(_ p: Double) -> UInt64 {
        guard p > 0 else { return 0 }
        guard p < 1 else { return 1 << 53 }
        return UInt64((p * 0x1.0p53).rounded(.up))
    }

    /// An exponential variate with rate 1, by Marsaglia and Tsang's ziggurat: one 64-bit draw,
    /// a table lookup and a comparison in about 99% of cases; the rest fall back to exact sampling.
    @inlinable package mutating func exponential() -> Double {
        let r = next()
        let layer = Int(r >> 56)
        let j = UInt32(truncatingIfNeeded: r)
        let tables = ExponentialZiggurat.shared
        if j < tables.k[layer] { return Double(j) * tables.w[layer] }
        return exponentialSlowPath(layer: layer, j: j)
    }

    /// The same exponential variate, reading the ziggurat through raw tables the caller holds
    /// (no lazy-global check or bounds checks per draw): the engine's form.
    @inlinable @inline(__always) package mutating func exponential(_ tables: ExponentialTables) -> Double {
        exponential(first: next(), tables)
    }

    /// The exponential variate whose first 64-bit draw is `r` (already taken from this stream).
    /// It reads bits 0–31 and 56–63 of `r` only, so a caller may use bits 32–55 for an
    /// independent choice.
    @inlinable @inline(__always) package mutating func exponential(first r: UInt64, _ tables: ExponentialTables) -> Double {
        let layer = Int(r >> 56)
        let j = UInt32(truncatingIfNeeded: r)
        if j < tables.k[layer] { return Double(j) * tables.w[layer] }
        return exponentialSlowPath(layer: layer, j: j)
    }

    @usableFromInline mutating func exponentialSlowPath(layer: Int, j: UInt32) -> Double {
        let tables = ExponentialZiggurat.shared
        var layer = layer
        var j = j
        while true {
            if layer == 0 { return ExponentialZiggurat.r - Foundation.log(uniformPositive()) }
            let x = Double(j) * tables.w[layer]
            if tables.f[layer] + uniform() * (tables.f[layer - 1] - tables.f[layer]) < Foundation.exp(-x) { return x }
            let r = next()
            layer = Int(r >> 56)
            j = UInt32(truncatingIfNeeded: r)
            if j < tables.k[layer] { return Double(j) * tables.w[layer] }
        }
    }

    /// A standard normal variate (Box–Muller, one of the pair).
    package mutating func standardNormal() -> Double {
        let u1 = uniformPositive()
        let u2 = uniform()
        return (-2 * Foundation.log(u1)).squareRoot() * Foundation.cos(2 * Double.pi * u2)
    }

    /// A gamma variate with the given shape and scale 1 (Marsaglia–Tsang).
    package mutating func gamma(shape: Double) -> Double {
        if shape < 1 {
            let u = uniformPositive()
            return gamma(shape: shape + 1) * Foundation.pow(u, 1 / shape)
        }
        let d = shape - 1.0 / 3.0
        let c = 1 / (9 * d).squareRoot()
        while true {
            var x: Double
            var v: Double
            repeat {
                x = standardNormal()
                v = 1 + c * x
            } while v <= 0
            v = v * v * v
            let u = uniformPositive()
            if u < 1 - 0.0331 * x * x * x * x { return d * v }
            if Foundation.log(u) < 0.5 * x * x + d * (1 - v + Foundation.log(v)) { return d * v }
        }
    }

    /// A Poisson variate with the given mean (inversion for small means, normal approximation above 500).
    package mutating func poisson(mean: Double) -> Int {
        guard mean > 0 else { return 0 }
        if mean > 500 {
            return max(0, Int((mean + mean.squareRoot() * standardNormal()).rounded()))
        }
        // Inversion by sequential search, split in chunks to avoid exp underflow.
        var remaining = mean
        var count = 0
        while remaining > 0 {
            let step = min(remaining, 30)
            remaining -= step
            var p = Foundation.exp(-step)
            var cumulative = p
            let u = uniform()
            var k = 0
            while u > cumulative && k < 10_000 {
                k += 1
                p *= step / Double(k)
                cumulative += p
            }
            count += k
        }
        return count
    }
}

/// Tables of the 256-layer exponential ziggurat (Marsaglia & Tsang, "The Ziggurat Method for
/// Generating Random Variables", 2000).
@usableFromInline struct ExponentialZiggurat: Sendable {
    @usableFromInline static let r = 7.697_117_470_131_487
    @usableFromInline static let shared = ExponentialZiggurat()
    @usableFromInline let k: [UInt32]
    @usableFromInline let w: [Double]
    @usableFromInline let f: [Double]

    init() {
        let m2 = 4_294_967_296.0
        let v = 3.949_659_822_581_572e-3
        var de = ExponentialZiggurat.r
        var te = de
        let q = v / Foundation.exp(-de)
        var k = [UInt32](repeating: 0, count: 256)
        var w = [Double](repeating: 0, count: 256)
        var f = [Double](repeating: 0, count: 256)
        k[0] = UInt32(de / q * m2)
        k[1] = 0
        w[0] = q / m2
        w[255] = de / m2
        f[0] = 1
        f[255] = Foundation.exp(-de)
        for i in stride(from: 254, through: 1, by: -1) {
            de = -Foundation.log(v / de + Foundation.exp(-de))
            k[i + 1] = UInt32(de / te * m2)
            te = de
            f[i] = Foundation.exp(-de)
            w[i] = de / m2
        }
        self.k = k
        self.w = w
        self.f = f
    }
}

/// The ziggurat tables as raw memory, allocated once for the process and never freed.
@usableFromInline package struct ExponentialTables: @unchecked Sendable {
    @usableFromInline let k: UnsafePointer<UInt32>
    @usableFromInline let w: UnsafePointer<Double>

    package static let shared: ExponentialTables = {
        let z = ExponentialZiggurat.shared
        let k = UnsafeMutablePointer<UInt32>.allocate(capacity: 256)
        let w = UnsafeMutablePointer<Double>.allocate(capacity: 256)
        for i in 0..<256 {
            k[i] = z.k[i]
            w[i] = z.w[i]
        }
        return ExponentialTables(k: k, w: w)
    }()
}
