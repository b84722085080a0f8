import Foundation
import WidgetQuotaModel
import WidgetQuotaSupport

/// How an API billed per request or credit is billed, in the words of the report's cost section.
enum PricingText {
    /// One paragraph: the unit, the plans and paying as you go, and the source of the prices.
    static func sentence(_ pricing: APIPricing, tiers: [QuotaTier]) -> String {
        let unit = pricing.per == .credit ? "credit" : "request"
        var text = "Billed per \(unit)"
        if pricing.per == .credit, let perKey = pricing.creditsPerKey {
            text +=
                ", \(NumberText.plain(perKey)) credit\(perKey == 1 ? "" : "s") per key a request asks for (a device's fetch asks for every key its user follows, a backend's generation for one)"
        } else if pricing.per == .credit {
            text += ", \(NumberText.plain(pricing.creditsPerRequest)) credit\(pricing.creditsPerRequest == 1 ? "" : "s") a request"
        }
        text += pricing.source.isEmpty ? "." : " (\(pricing.source))."
        let plans = tiers.filter(APIPricing.isPriced)
        if !plans.isEmpty {
            let listed = plans.map { plan in
                var words = "\(plan.name) \(ReportFormat.money(plan.monthlyFee ?? 0)) a month"
                if let included = plan.includedPerMonth { words += " with \(ReportFormat.whole(included)) \(pricing.unitName)" }
                if let overage = plan.overagePerUnit ?? pricing.pricePerUnit, plan.includedPerMonth != nil {
                    words += ", then \(price(overage)) each"
                } else if pricing.monthlyCap(of: plan) != nil {
                    words += " at most"
                }
                return words
            }
            text +=
                " Each design pays for the plan with the lowest bill among those whose limits hold (" + listed.joined(separator: "; ")
                + "): its fee and, beyond the volume it includes, its overage"
                + (plans.contains { pricing.monthlyCap(of: $0) != nil }
                    ? "; a plan that bills no overage carries no more than it includes." : ".")
        }
        if let bands = pricing.volumeTiers, !bands.isEmpty {
            var free = [String]()
            if pricing.freePerDay > 0 { free.append("\(ReportFormat.whole(pricing.freePerDay)) free a day") }
            if pricing.freePerMonth > 0 { free.append("\(ReportFormat.whole(pricing.freePerMonth)) free a month") }
            var below = 0.0
            let listed = bands.map { band -> String in
                defer { below = band.upTo ?? below }
                let range =
                    band.upTo.map { "\(ReportFormat.whole(below)) to \(ReportFormat.whole($0))" } ?? "beyond \(ReportFormat.whole(below))"
                return "\(range) at \(self.price(band.pricePerUnit))"
            }
            text +=
                " Paying as you go, graduated by the month's volume (each \(unit) at its band's price): " + listed.joined(separator: "; ")
                + (free.isEmpty ? "" : ", above " + free.joined(separator: " and ")) + "; the month's bill summed over the provider's days."
        } else if let price = pricing.pricePerUnit {
            var free = [String]()
            if pricing.freePerDay > 0 { free.append("\(ReportFormat.whole(pricing.freePerDay)) free a day") }
            if pricing.freePerMonth > 0 { free.append("\(ReportFormat.whole(pricing.freePerMonth)) free a month") }
            text +=
                " Paying as you go: \(self.price(price)) per \(unit)" + (free.isEmpty ? "" : " above " + free.joined(separator: " and "))
                + ", the month's bill summed over the provider's days."
        }
        return text + " Failed requests are not billed."
    }

    /// A unit price in dollars, with the digits a fraction of a cent needs (`$0.0015`).
    static func price(_ value: Double) -> String {
        value >= 0.01 ? NumberText.dollars(value) : "$" + NumberText.plain(value, maxFractionDigits: 8)
    }
}
