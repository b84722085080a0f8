import Foundation
import Testing
import WidgetQuotaModel
import WidgetQuotaReporting
import WidgetQuotaSimulation
import WidgetQuotaSimulationTestSupport
import WidgetQuotaStudies
import WidgetQuotaTestSupport

/// The report's growth month by month: read from the same simulation as the per-population rows.
@Suite("Growth report") struct GrowthReportTests {
    static let tiers = [
        QuotaTier(name: "small", rpm: 100, tpm: nil, rpd: 1_000, readOn: "test", note: ""),
        QuotaTier(name: "big", rpm: 1_000, tpm: nil, rpd: nil, readOn: "test", note: ""),
    ]

    static func headroom(_ design: String, _ tier: String, _ maxUsers: Int?) -> SimulationResult.Headroom {
        .init(design: design, tier: tier, maxUsers: maxUsers, largestPopulationSearched: 1_000_000_000, exceedProbabilityAtMax: 0)
    }

    @Test("A month with the users of a listed population gets that population's tier, requests and cost")
    func matchesPopulations() throws {
        var r = ReportFixtures.result
        r.scenario.horizon.growth = .monthly([1, 100, 50, 100_000])
        let plans = GrowthSection(result: r).plans()
        #expect(plans.map(\.design) == r.method.designs)
        for plan in plans {
            for month in plan.months {
                if let row = r.results.first(where: { $0.design == plan.design && $0.users == month.users }) {
                    #expect(month.tier == row.requiredTier, "\(plan.design), \(month.users) users")
                    #expect(month.exceedsEveryTier == row.exceedsEveryTier)
                    #expect(month.requests == row.totalRequestsPerMonth.mean)
                    #expect(month.cost == row.cost?.perMonth.mean)
                    #expect(month.method == row.method)
                } else {
                    #expect(month.method == "projected")
                }
            }
            // Requests scale with users; the cost so far adds the months up.
            let largest = try #require(r.results.filter { $0.design == plan.design }.max { $0.users < $1.users })
            let perUser = largest.totalRequestsPerMonth.mean / Double(largest.users)
            #expect(abs(plan.months[3].requests - perUser * 100_000) <= 1e-6 * plan.months[3].requests)
            let costs = plan.months.compactMap(\.cost)
            #expect(plan.months.last?.cumulativeCost.map { abs($0 - costs.reduce(0, +)) < 1e-9 } ?? costs.isEmpty)
        }
    }

    @Test("A tier runs out in the first month whose users exceed its headroom")
    func runsOut() throws {
        var r = ReportFixtures.result
        r.scenario.quotas.tiers = Self.tiers
        r.method.designs = ["direct"]
        r.headroom = [Self.headroom("direct", "small", 5_000), Self.headroom("direct", "big", nil)]
        r.scenario.horizon.growth = .monthly([1_000, 4_000, 5_000, 6_000, 9_000])
        let report = GrowthSection(result: r)
        let plan = try #require(report.plans().first)
        #expect(plan.months.map(\.tier) == ["small", "small", "small", "big", "big"])
        #expect(plan.tiers.map(\.runsOutInMonth) == [4, nil])
        #expect(report.runsOutText(plan) == "Runs out: small in month 4. Holds through month 5: big.")
        r.headroom = [Self.headroom("direct", "small", 500), Self.headroom("direct", "big", 5_500)]
        let tight = try #require(GrowthSection(result: r).plans().first)
        #expect(tight.months.map(\.tier) == ["big", "big", "big", nil, nil])
        #expect(tight.months.map(\.exceedsEveryTier) == [false, false, false, true, true])
        #expect(tight.tiers.map(\.runsOutInMonth) == [1, 4])
        #expect(
            GrowthSection(result: r).runsOutText(tight)
                == "Runs out: small from month 1 (not enough at launch); big in month 4. No listed tier is enough from month 4 on.")
    }

    @Test("With growth the report has a Growth section, growth[] in JSON, growth.csv and the cost chart; without, none")
    func files() throws {
        var r = ReportFixtures.result
        r.scenario.horizon.growth = .monthly([10, 100, 1_000])
        let report = SimulationReport(r)
        let md = report.markdown(linkCharts: true)
        #expect(md.contains("## Growth month by month"))
        #expect(md.contains("none simulated again"))
        #expect(md.contains("](growth-cost.svg)"))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(report.json().utf8)) as? [String: Any])
        let growth = try #require(json["growth"] as? [[String: Any]])
        #expect(growth.count == r.method.designs.count)
        let names = try report.files(in: "out").map { URL(fileURLWithPath: $0.path).lastPathComponent }
        #expect(names.contains("growth.csv") && names.contains("growth-cost.svg"))
        #expect(SimulationReport.FileName.all.contains("growth.csv"))
        let csv = try #require(report.files(in: "out").first { $0.path.hasSuffix("growth.csv") }?.contents)
        #expect(csv.split(separator: "\r\n").count == 1 + 3 * r.method.designs.count)
        let plain = SimulationReport(ReportFixtures.result)
        #expect(!plain.markdown().contains("## Growth"))
        #expect(try plain.files(in: "out").allSatisfy { !$0.path.contains("growth") })
        #expect(try !(plain.json().contains("\"growth\"")))
    }

    @Test("A model with no bundled tiers says so in the verdict")
    func noBundledTiers() throws {
        var s = ReportFixtures.scenario
        s.api.model = "mistral-small"
        var q = QuotaSettings()
        q.chooseBundledTiers(model: s.api.model)
        s.quotas = q
        var r = ReportFixtures.result
        r.scenario = s
        let v = try #require(SimulationReport(r).verdicts.first)
        #expect(v.reason.contains("No quota tiers are bundled for `mistral-small`"))
        #expect(!v.reason.contains("Gemini's"))
    }

    @Test("the web page shows the Growth section as the Markdown does: the same headings and tables, and its chart")
    func thePageShowsGrowth() {
        var r = ReportFixtures.result
        r.scenario.horizon.growth = .monthly([10, 100, 1_000])
        let report = SimulationReport(r)
        let md = report.markdown(linkCharts: true)
        let page = report.html()
        let growthPart =
            md.components(separatedBy: "## Growth month by month").dropFirst().first?.components(separatedBy: "\n## ").first ?? ""
        let designHeadings = growthPart.split(separator: "\n").filter { $0.hasPrefix("### ") }.map { String($0.dropFirst(4)) }
        #expect(!designHeadings.isEmpty)
        #expect(page.contains(">Growth month by month</h2>"))
        for heading in designHeadings { #expect(page.contains(">\(heading)</h3>"), "\(heading)") }
        #expect(page.contains("Growth of \(designHeadings[0])"))
        #expect(page.components(separatedBy: "<svg ").count - 1 == 2 * (report.charts().count + 1), "the growth chart is inline too")
    }

    /// The month a design goes over the budget is the first month whose cost is over it: never
    /// with an ample budget, month 1 with none to spend, and never earlier for a larger budget.
    @Test("The first month over the budget, in the plan, its sentence and growth.csv; thresholds reach the months")
    func budgetMonth() throws {
        var r = ReportFixtures.result
        r.scenario.horizon.growth = .monthly([1, 100, 50, 100_000])
        func plans(_ budget: Double?) -> [GrowthPlan] {
            r.scenario.targets.maxCostPerMonth = budget
            return GrowthSection(result: r).plans()
        }
        for plan in plans(nil) { #expect(plan.overBudgetInMonth == nil && plan.maxCostPerMonth == nil) }
        for plan in plans(1e12) { #expect(plan.overBudgetInMonth == nil && plan.maxCostPerMonth == 1e12) }
        for plan in plans(0) where plan.months.contains(where: { ($0.cost ?? 0) > 0 }) {
            #expect(plan.overBudgetInMonth == plan.months.first { ($0.cost ?? 0) > 0 }?.month)
        }
        let budgets = [0.001, 0.01, 0.1, 1, 10, 100]
        for design in r.method.designs {
            let months = budgets.map { budget in plans(budget).first { $0.design == design }?.overBudgetInMonth ?? .max }
            #expect(months == months.sorted(), "\(design): a larger budget is never crossed earlier (\(months))")
            for (budget, month) in zip(budgets, months) where month != .max {
                let plan = try #require(plans(budget).first { $0.design == design })
                #expect(plan.months.prefix(month - 1).allSatisfy { ($0.cost ?? 0) <= budget })
                #expect((plan.months[month - 1].cost ?? 0) > budget)
            }
        }
        r.scenario.targets.maxCostPerMonth = 0.1
        let report = GrowthSection(result: r)
        let crossing = try #require(report.plans().first { $0.overBudgetInMonth != nil })
        #expect(report.runsOutText(crossing).contains("Over the $0.10 budget"))
        let csv = try #require(report.csv())
        #expect(csv.split(separator: "\r\n").first?.contains(",within_budget,over_budget_month,") == true)

        // A threshold on a growth month: the plan's own cost, by design and month.
        let simulation = SimulationReport(r)
        let month = crossing.months[crossing.overBudgetInMonth! - 1]
        let rows = simulation.thresholdMetrics.records(
            metric: try simulation.thresholdMetrics.resolve("growth.costPerMonth"),
            matching: [("design", crossing.design), ("month", String(month.month))])
        #expect(rows.map(\.value) == [month.cost!])
    }
}
