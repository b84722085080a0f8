import Foundation
import WidgetQuotaSupport

/// Maps data values to a 0…1 position along an axis and chooses round tick values.
package struct AxisScale: Sendable, Equatable {
    package enum Kind: Sendable, Equatable {
        case linear
        /// Base-10 logarithmic; values ≤ 0 are placed at the axis start.
        case log
    }

    /// How tick labels are written.
    package enum Format: Sendable, Equatable {
        /// Compact numbers: 500, 1k, 2.5M.
        case number
        /// Shares as percentages: 25%.
        case percent
        /// Minutes of the day as a time: 06:00.
        case timeOfDay
        /// Amounts in US dollars: $0.50, $20, $1.5k.
        case dollars
    }

    package let kind: Kind
    package let format: Format
    package let lower: Double
    package let upper: Double
    package let ticks: [Double]

    /// A scale covering `values`, widened to round tick values.
    /// - Parameter includeZero: start a linear axis at zero (amounts, counts).
    package init(kind: Kind, format: Format = .number, covering values: [Double], includeZero: Bool = true, targetTicks: Int = 6) {
        self.kind = kind
        self.format = format
        let finite = values.filter { $0.isFinite && (kind == .linear || $0 > 0) }
        switch kind {
        case .linear:
            var lo = finite.min() ?? 0
            var hi = finite.max() ?? 1
            if includeZero {
                lo = min(lo, 0)
                hi = max(hi, 0)
            }
            if hi - lo <= 0 { hi = lo + max(abs(lo), 1) }
            let step = AxisScale.niceStep((hi - lo) / Double(max(targetTicks - 1, 1)))
            let first = (lo / step).rounded(.down) * step
            let last = (hi / step).rounded(.up) * step
            let count = Int(((last - first) / step).rounded())
            // Clean each tick of binary noise (0.30000000000000004) so labels and bytes are stable.
            ticks = (0...count).map { AxisScale.clean(first + Double($0) * step) }
            lower = first
            upper = last
        case .log:
            let lo = finite.min() ?? 1
            let hi = max(finite.max() ?? 10, lo)
            let a = Foundation.floor(Foundation.log10(lo))
            let b = max(Foundation.ceil(Foundation.log10(hi)), a + 1)
            lower = Foundation.pow(10, a)
            upper = Foundation.pow(10, b)
            let decades = Int(b - a)
            // Every decade up to eight of them; beyond that every second or third.
            let step = decades <= 8 ? 1 : Int((Double(decades) / Double(max(targetTicks - 1, 1))).rounded(.up))
            var t = [Double]()
            for k in stride(from: Int(a), through: Int(b), by: step) { t.append(Foundation.pow(10, Double(k))) }
            if decades == 1 { t = [lower, 2 * lower, 5 * lower, upper] }
            ticks = t
        }
    }

    /// A scale over an explicit range and ticks (e.g. the 24 hours of a day).
    package init(kind: Kind, format: Format, lower: Double, upper: Double, ticks: [Double]) {
        self.kind = kind
        self.format = format
        self.lower = lower
        self.upper = upper
        self.ticks = ticks
    }

    /// Position of `v` from 0 (lower) to 1 (upper).
    package func position(_ v: Double) -> Double {
        switch kind {
        case .linear:
            return upper > lower ? (v - lower) / (upper - lower) : 0
        case .log:
            guard v > 0 else { return 0 }
            return (Foundation.log10(v) - Foundation.log10(lower)) / (Foundation.log10(upper) - Foundation.log10(lower))
        }
    }

    /// A tick label.
    package func label(_ v: Double) -> String {
        switch format {
        case .number: return AxisScale.compact(v)
        case .percent: return NumberText.plain((v * 100 * 10).rounded() / 10) + "%"
        case .timeOfDay: return ReportFormat.clock(minutes: v)
        case .dollars: return (v < 0 ? "−$" : "$") + AxisScale.compact(abs(v))
        }
    }

    /// 1, 2, 2.5 or 5 times a power of ten, at least `raw`.
    static func niceStep(_ raw: Double) -> Double {
        guard raw > 0, raw.isFinite else { return 1 }
        let magnitude = Foundation.pow(10, Foundation.floor(Foundation.log10(raw)))
        for factor in [1.0, 2, 2.5, 5, 10] where factor * magnitude >= raw * (1 - 1e-9) {
            return clean(factor * magnitude)
        }
        return 10 * magnitude
    }

    /// Rounds away floating-point noise to 12 significant digits.
    static func clean(_ v: Double) -> Double {
        guard v != 0, v.isFinite else { return v }
        let scale = Foundation.pow(10, 11 - Foundation.floor(Foundation.log10(abs(v))))
        return (v * scale).rounded() / scale
    }

    /// 950, 1k, 2.5k, 10M: short labels for axes.
    static func compact(_ v: Double) -> String {
        let units: [(Double, String)] = [(1e12, "T"), (1e9, "B"), (1e6, "M"), (1e3, "k")]
        for (size, suffix) in units where abs(v) >= size {
            return NumberText.plain(clean(v / size), maxFractionDigits: 2) + suffix
        }
        return NumberText.plain(clean(v), maxFractionDigits: 4)
    }
}
