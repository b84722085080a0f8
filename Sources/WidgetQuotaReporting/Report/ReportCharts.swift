import Foundation
import WidgetQuotaCharts
import WidgetQuotaModel
import WidgetQuotaStudies
import WidgetQuotaSupport

/// The report's charts, drawn from a result: each an SVG file written beside the Markdown.
package struct ReportCharts {
    let facts: ReportFacts
    let sensitivity: SensitivityResult?
    var sweep: SweepResult? = nil

    package init(facts: ReportFacts, sensitivity: SensitivityResult?, sweep: SweepResult? = nil) {
        self.facts = facts
        self.sensitivity = sensitivity
        self.sweep = sweep
    }

    /// File names of the charts.
    package enum File {
        static let requestsByUsers = "requests-by-users.svg"
        static let typicalDay = "typical-day.svg"
        static let busiestDay = "busiest-day-by-users.svg"
        static let tradeoff = "tradeoff.svg"
        static let sensitivity = "sensitivity.svg"
        package static let costByUsers = "cost-by-users.svg"
        /// Every chart a report can have.
        static let all = [requestsByUsers, typicalDay, busiestDay, tradeoff, sensitivity, costByUsers]
    }

    /// Every chart this report has, as (file name, SVG) in `layout`.
    func all(layout: ChartLayout = .wide) -> [(name: String, svg: String)] {
        var charts = [
            (File.requestsByUsers, requestsByUsers().svg(layout: layout)), (File.typicalDay, typicalDay().svg(layout: layout)),
            (File.tradeoff, tradeoff().svg(layout: layout)),
        ]
        if let day = busiestDay() { charts.insert((File.busiestDay, day.svg(layout: layout)), at: 2) }
        if let s = sensitivity { charts.append((File.sensitivity, tornado(s).svg(layout: layout))) }
        if let cost = costByUsers() { charts.append((File.costByUsers, cost.svg(layout: layout))) }
        return charts
    }

    /// Requests per month against users, log–log, one line per design.
    func requestsByUsers() -> LineChart {
        let series = facts.designs.map { design in
            ChartSeries(name: design, points: facts.rows(design).map { ChartPoint(x: Double($0.users), y: $0.totalRequestsPerMonth.mean) })
        }
        let xs = series.flatMap { $0.points.map(\.x) }
        let ys = series.flatMap { $0.points.map(\.y) }
        return LineChart(
            title: "Requests per month by number of users",
            subtitle: "Mean over \(facts.result.method.runs) Monte-Carlo runs; both axes logarithmic (each step is ×10).",
            xTitle: "Users", yTitle: "Requests per month",
            xScale: AxisScale(kind: .log, covering: xs), yScale: AxisScale(kind: .log, covering: ys), series: series)
    }

    /// Cost a month in dollars against users, log–log, one line per design; nil when the model has no price.
    package func costByUsers() -> LineChart? {
        guard facts.hasCost else { return nil }
        let series = facts.designs.map { design in
            ChartSeries(
                name: design,
                points: facts.rows(design).compactMap { r in r.cost.map { ChartPoint(x: Double(r.users), y: $0.perMonth.mean) } })
        }
        let budget = facts.result.scenario.targets.maxCostPerMonth
        let references = budget.map { [ReferenceLine(label: "budget: \(ReportFormat.money($0)) a month", y: $0)] } ?? []
        let xs = series.flatMap { $0.points.map(\.x) }
        let ys = series.flatMap { $0.points.map(\.y) } + references.map(\.y)
        let model = facts.result.results.lazy.compactMap(\.cost).first.map { " of \($0.model)" } ?? ""
        return LineChart(
            title: "Cost per month by number of users",
            subtitle: "Mean over \(facts.result.method.runs) Monte-Carlo runs, in US dollars at the listed price\(model); failed requests "
                + "are not billed. Both axes logarithmic (each step is ×10).",
            xTitle: "Users", yTitle: "Cost per month (USD)",
            xScale: AxisScale(kind: .log, covering: xs), yScale: AxisScale(kind: .log, format: .dollars, covering: ys), series: series,
            references: references)
    }

    /// Requests per minute over a typical UTC day for the focus population, with per-minute quota limits.
    func typicalDay() -> LineChart {
        let n = Double(facts.focusUsers)
        let series = facts.result.typicalDay.map { day in
            ChartSeries(
                name: day.design,
                points: day.requestsPerUserByMinute.enumerated().map { ChartPoint(x: Double($0.offset), y: $0.element * n) },
                style: .line)
        }
        let ys = series.flatMap { $0.points.map(\.y) }
        let limitTiers = tiersByLimit(\.rpm)
        // A tier whose daily limit the busiest day at this population breaks says so on its line:
        // holding the minute's limit is not fitting the tier.
        let busiestDays = facts.result.results.filter { $0.users == facts.focusUsers }.map(\.load.peakRequestsPerQuotaDay.p95)
        let tiers = facts.result.scenario.quotas.tiers
        let limits = limitTiers.map { entry in
            ReferenceLine(label: "\(entry.names.joined(separator: ", ")): \(ReportFormat.whole(entry.limit)) requests/min", y: entry.limit)
        }
        // The daily limits the busiest day breaks, said under the title: a minute's line a design
        // stays under is not a tier it fits.
        let dailyBroken = tiers.compactMap { tier -> String? in
            guard let rpd = tier.rpd else { return nil }
            let breaking = busiestDays.filter { $0 > rpd }.count
            guard breaking > 0 else { return nil }
            let who = breaking == busiestDays.count ? "every design" : "\(breaking) of \(busiestDays.count) designs"
            return "\(tier.name)'s \(ReportFormat.short(rpd)) a day (\(who))"
        }
        let top = ys.max() ?? 1
        // Show a limit when it is within reach, without letting a far-away limit squeeze the curves.
        let shown = limits.filter { $0.y <= top * 3 }
        return LineChart(
            title: "Requests per minute over a typical day, \(ReportFormat.users(facts.focusUsers)) users",
            subtitle:
                "Mean of each UTC minute over the month and runs (log scale); peaks on a single day are higher (see the quota table)."
                + (dailyBroken.isEmpty ? "" : " Daily limits the busiest day breaks: " + dailyBroken.joined(separator: ", ") + "."),
            xTitle: "Time of day (UTC)", yTitle: "Requests per minute",
            xScale: AxisScale(
                kind: .linear, format: .timeOfDay, lower: 0, upper: .minutesPerDay,
                ticks: stride(from: 0.0, through: .minutesPerDay, by: 180).map { $0 }),
            yScale: AxisScale(kind: .log, covering: ys.filter { $0 >= top / 10_000 } + shown.map(\.y)), series: series, references: shown)
    }

    /// The scenario's tiers by one of their limits, in the tiers' order: tiers with the same
    /// limit share one line of a chart, named together ("tier2, tier3: 5,000 requests/min").
    func tiersByLimit(_ limit: (QuotaTier) -> Double?) -> [(limit: Double, names: [String])] {
        var lines = [(limit: Double, names: [String])]()
        for tier in facts.result.scenario.quotas.tiers {
            guard let value = limit(tier) else { continue }
            if let i = lines.firstIndex(where: { $0.limit == value }) {
                lines[i].names.append(tier.name)
            } else {
                lines.append((value, [tier.name]))
            }
        }
        return lines
    }

    /// The busiest quota day's requests (p95 across runs) against users, log–log, one line per
    /// design, with each tier's daily limit: where a design outgrows a tier that caps requests a
    /// day. Nil when no tier has a daily limit.
    func busiestDay() -> LineChart? {
        let quotas = facts.result.scenario.quotas
        let limitTiers = tiersByLimit(\.rpd)
        guard !limitTiers.isEmpty else { return nil }
        let series = facts.designs.map { design in
            ChartSeries(
                name: design, points: facts.rows(design).map { ChartPoint(x: Double($0.users), y: $0.load.peakRequestsPerQuotaDay.p95) })
        }
        let xs = series.flatMap { $0.points.map(\.x) }
        let ys = series.flatMap { $0.points.map(\.y) }.filter { $0 > 0 }
        let top = ys.max() ?? 1
        // A limit within reach of the curves, without a far-away one squeezing them.
        let limits = limitTiers.filter { $0.limit <= top * 3 }.map { entry in
            ReferenceLine(label: "\(entry.names.joined(separator: ", ")): \(ReportFormat.short(entry.limit)) a day", y: entry.limit)
        }
        let rolling = quotas.dayWindow == .rolling24h
        let window =
            rolling
            ? "the busiest 24 hours (the provider's daily limits count any 24 hours)"
            : "the busiest quota day (from midnight UTC\(quotas.resetUTCOffsetHours < 0 ? "−" : "+")\(NumberText.plain(abs(quotas.resetUTCOffsetHours))))"
        return LineChart(
            title: rolling ? "Busiest 24 hours by number of users" : "Busiest quota day by number of users",
            subtitle: "Requests in \(window), p95 over \(facts.result.method.runs) Monte-Carlo runs, with each tier's daily limit; "
                + "both axes logarithmic. A design above a tier's line needs a dearer tier, whatever its busiest minute.",
            xTitle: "Users", yTitle: rolling ? "Requests in the busiest 24 hours" : "Requests in the busiest quota day",
            xScale: AxisScale(kind: .log, covering: xs), yScale: AxisScale(kind: .log, covering: ys + limits.map(\.y)), series: series,
            references: limits)
    }

    /// Requests against staleness, one point per design: the trade-off a product owner makes.
    package func tradeoff() -> LineChart {
        let n = facts.focusUsers
        let colours = ChartStyle.colours(series: facts.designs.count, reservingOne: sweep != nil)
        var series = zip(facts.designs, colours.series).compactMap { design, colour -> ChartSeries? in
            guard let r = facts.row(design, users: n) else { return nil }
            return ChartSeries(
                name: design, points: [ChartPoint(x: r.requestsPerUserMonth.mean, y: r.freshness.overTargetShare, label: design)],
                style: .markers, colour: colour)
        }
        if let sweep {
            let points = sweep.points.map {
                ChartPoint(
                    x: $0.requestsPerUserMonth, y: $0.overTargetShare,
                    label: "\(sweep.knob.rawValue) \(NumberText.plain($0.value)) \(sweep.unit)")
            }
            series.append(
                ChartSeries(
                    name: "\(sweep.design), \(sweep.knob.rawValue) sweep", points: points, style: .lineAndMarkers, colour: colours.reserved)
            )
        }
        let xs = series.flatMap { $0.points.map(\.x) }
        let target = NumberText.plain(facts.result.scenario.population.freshnessTargetMinutes / .minutesPerHour)
        return LineChart(
            title: "Trade-off: requests against staleness",
            subtitle: "Share of glances at content older than \(target) h (or an error) against requests per user. Down and left is better."
                + (sweep == nil ? "" : " Line: \(sweep!.design)'s cache TTL."),
            xTitle: "Requests per user per month", yTitle: "Glances older than \(target) h",
            xScale: AxisScale(kind: .log, covering: xs),
            yScale: AxisScale(kind: .linear, format: .percent, lower: 0, upper: 1, ticks: [0, 0.25, 0.5, 0.75, 1]), series: series)
    }

    func tornado(_ s: SensitivityResult) -> TornadoChart {
        TornadoChart(
            title: "What drives the number: \(s.design), \(ReportFormat.users(s.users)) users",
            subtitle:
                "Monthly \(s.measure) with one assumption at its p5 or p95, the others central (line: \(ReportFormat.whole(s.central))).",
            valueTitle: s.measure.prefix(1).uppercased() + s.measure.dropFirst() + " per month", center: s.central,
            bars: s.drivers.map { TornadoBar(label: $0.assumption, low: $0.requestsAtLow, high: $0.requestsAtHigh) })
    }
}
