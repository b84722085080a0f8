import Foundation

/// Locale-independent number formatting for reports: deterministic on every platform.
package enum NumberText {
    /// A plain decimal without thousands separators and without trailing zeros (`0.5`, `12`, `1e-07` never).
    package static func plain(_ value: Double, maxFractionDigits: Int = 6) -> String {
        guard value.isFinite else { return value.isNaN ? "NaN" : (value > 0 ? "Infinity" : "-Infinity") }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        var text = fixed(value, digits: maxFractionDigits)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text == "-0" ? "0" : text
    }

    /// A decimal with exactly `digits` fraction digits, rounded half away from zero.
    package static func fixed(_ value: Double, digits: Int) -> String {
        guard value.isFinite else { return plain(value) }
        let scale = pow(10.0, Double(digits))
        let scaled = (abs(value) * scale).rounded(.toNearestOrAwayFromZero)
        if scaled >= 9e15 { return String(format: "%.\(digits)f", value) }
        let integer = Int64(scaled)
        let sign = value < 0 && integer != 0 ? "-" : ""
        if digits == 0 { return sign + String(integer) }
        let unit = Int64(scale)
        let fraction = String(integer % unit)
        return sign + String(integer / unit) + "." + String(repeating: "0", count: digits - fraction.count) + fraction
    }

    /// A human number with thousands separators, for Markdown: `1,234,567`, `12.5`, `0.031`.
    package static func human(_ value: Double) -> String {
        guard value.isFinite else { return plain(value) }
        let magnitude = abs(value)
        let digits: Int
        switch magnitude {
        case 0: return "0"
        case ..<0.01: digits = 4
        case ..<1: digits = 3
        case ..<10: digits = 2
        case ..<100: digits = 1
        default: digits = 0
        }
        let text = fixed(value, digits: digits)
        let parts = text.split(separator: ".", maxSplits: 1).map(String.init)
        var integer = parts[0]
        var sign = ""
        if integer.hasPrefix("-") {
            sign = "-"
            integer.removeFirst()
        }
        var grouped = ""
        for (i, ch) in integer.reversed().enumerated() {
            if i > 0 && i % 3 == 0 { grouped.append(",") }
            grouped.append(ch)
        }
        let result = sign + String(grouped.reversed())
        return parts.count > 1 ? result + "." + parts[1] : result
    }

    /// A share as a percentage: `12.3%`.
    package static func percent(_ share: Double, digits: Int = 1) -> String {
        fixed(share * 100, digits: digits) + "%"
    }

    /// US dollars: `$1,234` or `$0.42`.
    package static func dollars(_ value: Double) -> String {
        if abs(value) >= 100 { return "$" + human(value.rounded()) }
        return "$" + fixed(value, digits: 2)
    }
}
