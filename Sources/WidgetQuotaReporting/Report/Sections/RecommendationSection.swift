import Foundation
import WidgetQuotaCharts
import WidgetQuotaModel
import WidgetQuotaSimulation
import WidgetQuotaStudies
import WidgetQuotaSupport

/// The report's "Recommendation" section: the cheapest design within the owner's limits at each
/// population, the simulated changes to the owner's design, and what is wasteful or broken.
package struct RecommendationSection {
    let result: SimulationResult
    let recommendation: Recommendation

    package init(result: SimulationResult, recommendation: Recommendation) {
        self.result = result
        self.recommendation = recommendation
    }

    var tiers: [QuotaTier] { result.scenario.quotas.tiers }
    var target: String { NumberText.human(recommendation.freshnessTargetMinutes) }

    /// `tier2`, `above tier3`, or `no tiers listed`.
    func tierText(_ tier: String?, exceeds: Bool) -> String {
        if let tier { return tier }
        return exceeds ? "above " + (tiers.last?.name ?? "every tier") : "no tier checked"
    }

    /// Why the first of two designs on equal bills is named: its plan holds more users, or it
    /// spends fewer of the units the limits count.
    func equalCostReason(_ design: String, _ other: String?, _ users: Int) -> String {
        guard let other, let a = row(design, users), let b = row(other, users) else {
            return "leaves more headroom on the same plan."
        }
        let (ha, hb) = (RecommendationStudy.headroom(a, result), RecommendationStudy.headroom(b, result))
        if ha != hb {
            func holds(_ n: Int) -> String { n == .max ? "beyond the most users searched" : "up to " + ReportFormat.users(n) + " users" }
            return "its plan holds \(holds(ha)) against \(holds(hb)) for \(other): more headroom as users grow."
        }
        let unit = result.scenario.api.pricing.map(\.unitName) ?? "requests"
        return "spends fewer \(unit): more headroom on the same plan."
    }

    func row(_ design: String, _ users: Int) -> DesignResult? {
        result.results.first { $0.design == design && $0.users == users }
    }

    /// `tier1, $12.40 a month, content older than 120 min or none at 8% of glances`.
    func figures(_ r: DesignResult) -> String {
        var text = tierText(r.requiredTier, exceeds: r.exceedsEveryTier)
        if let cost = r.cost?.perMonth.mean { text += ", " + ReportFormat.money(cost) + " a month" }
        return text
            + ", content older than \(target) min or none at \(NumberText.percent(r.freshness.targetShare, digits: 0)) of \(r.freshness.targetGlances)"
    }

    /// The populations the change table shows: every one when there are at most three, else the
    /// report's focus population and the largest.
    var shownUsers: [Int] {
        let all = Array(Set(result.results.map(\.users))).sorted()
        if all.count <= 3 { return all }
        let focus = result.focusUsers
        let largest = result.results.map(\.users).max() ?? focus
        return focus == largest ? [focus] : [focus, largest]
    }

    static let title = "Recommendation"

    /// The section as Markdown, from the same blocks the web page shows.
    package func markdown() -> String {
        var text = "## \(Self.title)\n\n" + blocks().map(\.markdown).joined()
        while text.hasSuffix("\n\n") { text.removeLast() }
        return text
    }

    /// The section's content: the limits, the choice per population, what to change, what is wasteful.
    func blocks() -> [PageBlock] {
        let r = recommendation
        let maxTier = r.maxTier ?? tiers.last.map { "\($0.name) (the last listed tier)" } ?? "any tier"
        var intro = "Your limits: at most **\(maxTier)** (`--max-tier`, `targets.maxTier`), and content older than \(target) min, or none, "
        intro +=
            "at no more than **\(NumberText.percent(r.maxStaleShare, digits: 0))** of glances (`--max-stale-share`, `targets.maxStaleShare`)"
        let every: String
        if let budget = r.maxCostPerMonth {
            intro += ", and at most **\(ReportFormat.money(budget)) a month** for the API (`--max-cost`, `targets.maxCostPerMonth`). "
            every = "all three"
        } else {
            intro += ". "
            every = "both"
        }
        intro += "The cheapest compared design within \(every), by mean cost a month:"
        var choices = [String]()
        for choice in r.choices {
            let users = ReportFormat.users(choice.users) + (choice.users == 1 ? " user" : " users")
            if let design = choice.design, let row = row(design, choice.users) {
                var line = "**\(users): \(design)**: \(figures(row))."
                let others = choice.meetingBoth.dropFirst()
                if !others.isEmpty { line += " Also within \(every): \(others.joined(separator: ", "))." }
                switch choice.decidedBy {
                case "equalCost":
                    line += " It costs what \(others.first ?? "the next") costs, and " + equalCostReason(design, others.first, choice.users)
                case "noPrice": line += " With no price known, fewer requests decide."
                default: break
                }
                choices.append(line)
                continue
            }
            var line = "**\(users): none of the compared designs** is within \(every)."
            if let budget = r.maxCostPerMonth, let over = choice.overBudget.first, let row = row(over, choice.users),
                let cost = row.cost?.perMonth.mean
            {
                line +=
                    " \(over) is within the tier and the staleness limit but costs \(ReportFormat.money(cost)) a month, "
                    + "\(ReportFormat.money(cost - budget)) over the \(ReportFormat.money(budget)) budget."
            }
            // A design already named as over the budget is not named again as a near miss.
            let named = choice.overBudget.first
            if let fresh = choice.freshestWithinTier, let row = row(fresh, choice.users) {
                if fresh != named { line += " The freshest within the tier is \(fresh) (\(figures(row)))." }
            } else {
                line += " None is within the tier."
            }
            if let cheap = choice.cheapestWithinStaleness, let row = row(cheap, choice.users) {
                if cheap != named { line += " The cheapest within the staleness limit is \(cheap) (\(figures(row)))." }
            } else {
                line += " None is within the staleness limit."
            }
            if let why = choice.infeasibility { line += " " + infeasibilityText(why) }
            choices.append(line)
        }
        var blocks: [PageBlock] = [.paragraph(intro), .bullets(choices)]
        if let growth = r.overGrowth { blocks.append(.paragraph(growthText(growth))) }
        let own = Set(result.scenario.designs.map(\.name))
        if !own.isEmpty && DesignPresets.all.contains(where: { !result.method.designs.contains($0.name) })
            && r.choices.contains(where: { $0.design == nil })
        {
            blocks.append(
                .paragraph("Only the scenario's own designs and its baseline were compared; `--with-presets` adds the built-in designs."))
        }
        return blocks + changes() + flags()
    }

    /// The choice over the growth plan, and how each other design fares in it.
    func growthText(_ g: Recommendation.GrowthChoice) -> String {
        let users = result.scenario.horizon.growth?.users ?? []
        var text = "**Over the growth plan** (\(g.months) months"
        if let first = users.first, let last = users.last { text += ", \(ReportFormat.users(first)) to \(ReportFormat.users(last)) users" }
        text += "): "
        func fate(_ o: Recommendation.GrowthChoice.Outlook) -> String {
            var words = [String]()
            if let m = o.outgrowsTierInMonth { words.append("outgrows the tier limit in month \(m)") }
            if let m = o.overBudgetInMonth, m < (o.outgrowsTierInMonth ?? .max) { words.append("leaves the budget in month \(m)") }
            if words.isEmpty { words.append("stays within every limit through month \(g.months)") }
            var sentence = words.joined(separator: " and ")
            if let cost = o.cumulativeCost, o.lastMonthWithin > 0 {
                sentence += " (\(ReportFormat.money(cost)) over \(o.lastMonthWithin == 1 ? "month 1" : "months 1–\(o.lastMonthWithin)"))"
            }
            return sentence
        }
        guard let chosen = g.designs.first, let design = g.design else {
            return text
                + (g.designs.isEmpty
                    ? "no compared design is within the staleness limit."
                    : "no compared design within the staleness limit stays within the tier limit and the budget even in month 1.")
        }
        text += g.lastsThePlan ? "**\(design)** \(fate(chosen))" : "none lasts the plan; **\(design)** lasts longest: it \(fate(chosen))"
        let others = g.designs.dropFirst().map { "\($0.design) \(fate($0))" }
        if !others.isEmpty { text += "; " + others.joined(separator: "; ") }
        return text + "."
    }

    /// Which limits conflict and by how much: the fetching the freshness target needs at the
    /// least, what that costs, the least each limit would have to give, and a backend.
    func infeasibilityText(_ why: Recommendation.Infeasibility) -> String {
        let r = recommendation
        var text =
            "No design where each phone calls the API can keep content within \(target) min at "
            + "\(NumberText.percent(1 - r.maxStaleShare, digits: 0)) of glances with fewer than **\(why.fewestFetchesPerUserDay) fetches a user-day**, "
            + "even with every fetch timed just before the user looks: \(ReportFormat.short(why.requestsPerMonthAtBound)) requests a month"
        if let credits = why.creditsPerMonthAtBound { text += " (\(ReportFormat.short(credits)) credits)" }
        if let cost = why.costPerMonthAtBound { text += ", **\(ReportFormat.money(cost)) a month**" }
        text += "."
        var relax = [String]()
        if let b = why.budgetNeeded { relax.append("a budget of \(ReportFormat.money(b.value)) a month (\(b.design))") }
        if let s = why.staleShareNeeded {
            relax.append(
                "old glances at \(NumberText.percent(s.value, digits: 0)) instead of \(NumberText.percent(r.maxStaleShare, digits: 0)) (\(s.design))"
            )
        }
        if let t = why.tierNeeded, let tier = t.tier { relax.append("\(tier) (\(t.design))") }
        if !relax.isEmpty { text += " The least each limit would have to give, the others held: " + relax.joined(separator: "; or ") + "." }
        if let backend = why.backendThatFits {
            text += " The backend design \(backend) fits: its paid requests follow the content keys, not the users."
        } else if !result.results.contains(where: { $0.backend != nil }) {
            text +=
                " A design whose backend calls the API once per content key (`backend-shared`, or a design with `backend`) "
                + "pays per key, not per user; compare one."
        }
        return text
    }

    func changes() -> [PageBlock] {
        let r = recommendation
        guard !r.changes.isEmpty else {
            return r.ownDesign.isEmpty
                ? [] : [.paragraph("Nothing in \(r.ownDesign)'s fields calls for a change the simulation could test.")]
        }
        var intro = "Each change simulated with the same users, runs and seed as the design as it is; "
        intro += "*as designed* is \(r.ownDesign) unchanged. *Reload budget ran out*: the share of widget-instance days on which "
        intro += "WidgetKit's reload budget ran out. A change marked *no measurable effect* moved no figure by half a percent "
        intro += "(a point of reload-budget days), nor the tier, at any population."
        var table = MarkdownTable(
            [
                "Change", "Users", "Requests a month", "Cost a month", "Tier", "Older than \(target) min, or none", "Reload budget ran out",
                r.maxCostPerMonth == nil ? "Within both" : "Within all three",
            ],
            alignments: [.left, .right, .right, .right, .left, .right, .right, .left])
        func cells(_ label: String, _ users: Int, _ f: Recommendation.Figures, _ before: Recommendation.Figures?) -> [String] {
            var requests = ReportFormat.short(f.requestsPerMonth)
            if let before, before.requestsPerMonth > 0 {
                let change = f.requestsPerMonth / before.requestsPerMonth - 1
                let size = NumberText.percent(abs(change), digits: 0)
                requests += " (" + (size == "0%" ? "±" : (change > 0 ? "+" : "−")) + size + ")"
            }
            return [
                label, ReportFormat.users(users), requests, f.costPerMonth.map(ReportFormat.shortMoney) ?? "–",
                tierText(f.tier, exceeds: f.exceedsEveryTier), NumberText.percent(f.overTargetShare, digits: 0),
                NumberText.percent(f.budgetExhaustedDayShare, digits: 0), f.meetsTargets ? "yes" : "no",
            ]
        }
        for users in shownUsers {
            guard let first = r.changes.first?.effects.first(where: { $0.users == users }) else { continue }
            table.append(cells("as designed", users, first.before, nil))
            for change in r.changes {
                guard let e = change.effects.first(where: { $0.users == users }) else { continue }
                let label = change.measurable ? change.description : change.description + " — no measurable effect"
                table.append(cells(label, users, e.after, e.before))
            }
        }
        return [
            .heading("What to change in \(r.ownDesign)"), .paragraph(intro), .table(table, label: "What to change in \(r.ownDesign)"),
            .paragraph(verdictOnChanges()),
        ]
    }

    /// Which change, if any, brings the owner's design within every limit at every population.
    func verdictOnChanges() -> String {
        let r = recommendation
        let limits = r.maxCostPerMonth == nil ? "both limits" : "every limit (tier, staleness, budget)"
        // A change with no measurable effect is never the advice.
        let measured = r.changes.filter(\.measurable)
        let everywhere = measured.filter { c in !c.effects.isEmpty && c.effects.allSatisfy(\.after.meetsTargets) }
        let asDesigned = r.changes.first.map { c in c.effects.allSatisfy(\.before.meetsTargets) } ?? false
        if asDesigned {
            return "\(r.ownDesign) is within \(limits) at every population as it is; the changes above only move the cost."
        }
        func cheapest(_ c: Recommendation.Change) -> Double {
            c.effects.reduce(0) { $0 + ($1.after.costPerMonth ?? $1.after.requestsPerMonth) }
        }
        if let best = everywhere.min(by: { cheapest($0) < cheapest($1) }) {
            return "With \(best.description), \(r.ownDesign) is within \(limits) at every population."
        }
        let some = measured.filter { c in c.effects.contains(where: \.after.meetsTargets) }
        if let best = some.max(by: { $0.effects.filter(\.after.meetsTargets).count < $1.effects.filter(\.after.meetsTargets).count }) {
            let users = best.effects.filter(\.after.meetsTargets).map { ReportFormat.users($0.users) }
            return
                "With \(best.description), \(r.ownDesign) is within \(limits) at \(users.joined(separator: ", ")) users, not at every population."
        }
        return "No change simulated here brings \(r.ownDesign) within \(limits); see the designs above, or relax a limit."
    }

    func flags() -> [PageBlock] {
        let r = recommendation
        let heading = PageBlock.heading("Wasteful or broken")
        guard !r.flags.isEmpty else {
            return [heading, .paragraph("Nothing the simulation measured is wasteful or broken in the compared designs.")]
        }
        return [
            heading,
            .paragraph("What the simulation shows, per user at \(ReportFormat.users(result.results.map(\.users).max() ?? 0)) users:"),
            .bullets(r.flags.map { "**\($0.design)**: \($0.message)" }),
        ]
    }
}
