import Foundation

/// Number formats shared by the report's sections (locale-independent, via `NumberText`).
package enum ReportFormat {
    /// A whole number with thousands separators: `1`, `1,000`, `884,376`.
    package static func whole(_ value: Double) -> String {
        guard value.isFinite else { return NumberText.plain(value) }
        let text = NumberText.fixed(value.rounded(), digits: 0)
        let negative = text.hasPrefix("-")
        let digits = Array(negative ? text.dropFirst() : Substring(text))
        var out = ""
        for (i, ch) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(ch)
        }
        return (negative ? "-" : "") + out
    }

    /// Minutes after midnight as a 24-hour clock time: `06:30`.
    package static func clock(minutes: Double) -> String {
        let total = Int(minutes.rounded())
        let h = (total / TimeUnits.minutesPerHour) % TimeUnits.hoursPerDay
        let m = total % TimeUnits.minutesPerHour
        return (h < 10 ? "0" : "") + String(h) + ":" + (m < 10 ? "0" : "") + String(m)
    }

    /// Dollars, with enough digits for small per-user amounts: `$1,234`, `$8.52`, `$0.0049`.
    /// Dollars to the cent, and amounts under 10 cents as `NumberText.human` writes them
    /// (`$0.0058`, `$0.012`), so that every cost of a report reads the same way; an amount that
    /// rounds to 10 cents is `$0.10`, not `$0.100`.
    package static func money(_ value: Double) -> String {
        abs(value) < 0.0995 && value != 0 ? "$" + NumberText.human(value) : NumberText.dollars(value)
    }

    /// Three significant digits with a unit: `892`, `90.5k`, `9.03M`, `1.2B` (for dense tables).
    package static func short(_ value: Double) -> String {
        let units: [(Double, String)] = [(1e9, "B"), (1e6, "M"), (1e3, "k")]
        for (size, suffix) in units where abs(value) >= size * 0.9995 {
            let scaled = value / size
            let digits = abs(scaled) >= 99.95 ? 0 : (abs(scaled) >= 9.995 ? 1 : 2)
            return NumberText.plain(Double(NumberText.fixed(scaled, digits: digits))!) + suffix
        }
        return abs(value) >= 10 ? whole(value) : NumberText.human(value)
    }

    /// Short dollars for dense tables: `$0.11`, `$10.67`, `$1.07k`.
    package static func shortMoney(_ value: Double) -> String {
        abs(value) >= 1_000 ? "$" + short(value) : money(value)
    }

    package static func users(_ n: Int) -> String { whole(Double(n)) }

    /// A range `low–high` of whole numbers.
    package static func range(_ low: Double, _ high: Double) -> String { whole(low) + "–" + whole(high) }

    /// A figure named by its metric path: dollars for cost, percentages for shares and probabilities.
    package static func metric(_ path: String, _ value: Double) -> String {
        let last = path.split(separator: ".").last.map(String.init) ?? path
        if path.hasPrefix("cost") || last.lowercased().contains("cost") { return money(value) }
        if last.hasSuffix("Share") || last.hasSuffix("Probability") || last.hasSuffix("Rate") { return NumberText.percent(value) }
        return NumberText.human(value)
    }

    /// A signed change: `+1,234` / `−56` / `0`.
    package static func signed(_ value: Double, _ format: (Double) -> String) -> String {
        if value > 0 { return "+" + format(value) }
        if value < 0 { return "−" + format(-value) }
        return format(0)
    }
}

extension ReportFormat {
    /// `retryStormPeakPerMinute` → `retry storm peak per minute`.
    package static func words(_ camel: String) -> String {
        var out = ""
        for ch in camel {
            if ch.isUppercase && !out.isEmpty { out += " " }
            out += ch.lowercased()
        }
        return out
    }
}
