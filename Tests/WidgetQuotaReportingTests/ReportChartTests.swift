import Foundation
import Testing
import WidgetQuotaCharts
import WidgetQuotaReporting
import WidgetQuotaSimulationTestSupport
import WidgetQuotaStudies
import WidgetQuotaSupport
import WidgetQuotaTestSupport

/// The report's own charts: the cost chart in dollars, the trade-off chart's colours and labels.
@Suite("report charts") struct ReportChartTests {
    static let facts = ReportFacts(ReportFixtures.result)

    /// A TTL sweep whose points lie among the designs' points, so that their labels compete for room.
    static let sweep: SweepResult = {
        let rows = facts.designs.compactMap { facts.row($0, users: facts.focusUsers) }
        let xs = rows.map(\.requestsPerUserMonth.mean)
        let ys = rows.map(\.freshness.overTargetShare)
        let (lo, hi) = (xs.min()!, xs.max()!)
        let points = [15.0, 30, 45, 60, 90, 120, 240].enumerated().map { i, ttl in
            let t = Double(i) / 6
            let x = lo * pow(hi / lo, 1 - t)
            return SweepResult.Point(
                value: ttl, requestsPerUserMonth: x,
                totalRequestsPerMonth: RunSpread(mean: x * 100, p5: x * 90, p50: x * 100, p95: x * 110, p99: x * 120),
                costPerMonth: nil, peakRequestsPerMinuteP95: 1, overTargetShare: ys.min()! + t * (ys.max()! - ys.min()!),
                staleShare: 0, errorShare: 0, medianAgeMinutes: nil, pareto: i % 2 == 0)
        }
        return SweepResult(design: "cache-bgtask", knob: .ttl, unit: "min", users: 100, runs: 3, seed: 1, points: points)
    }()

    static var charts: ReportCharts { ReportCharts(facts: facts, sensitivity: nil, sweep: sweep) }

    @Test("a sweep line takes a colour no design has, and the designs' colours differ while the palette lasts")
    func sweepColourIsNeverADesignColour() {
        for designs in 0...20 {
            let colours = ChartStyle.colours(series: designs, reservingOne: true)
            let reserved = try! #require(colours.reserved)
            #expect(!colours.series.contains(reserved), "\(designs) designs")
            #expect(colours.series.count == designs)
            if designs < ChartStyle.palette.count { #expect(Set(colours.series).count == designs, "\(designs) designs") }
            #expect(colours.series.allSatisfy { ChartStyle.palette.indices.contains($0) })
        }
        let plain = ChartStyle.colours(series: ChartStyle.palette.count, reservingOne: false)
        #expect(plain.reserved == nil && Set(plain.series).count == ChartStyle.palette.count)
    }

    @Test("the trade-off chart draws each design and the sweep line in colours of their own")
    func tradeoffColoursAreDistinct() throws {
        let chart = Self.charts.tradeoff()
        let colours = chart.series.map(\.colour)
        #expect(colours.count == Self.facts.designs.count + 1)
        #expect(colours.allSatisfy { $0 != nil } && Set(colours.compactMap { $0 }).count == colours.count)
        // The drawn classes say the same: the sweep's polyline has a colour no design marker has.
        let svg = chart.svg()
        let sweepClass = try #require(TestSupport.matches(#"<polyline class="line (s\d+)"#, in: svg).first)
        let markerClasses = Set(TestSupport.matches(#"<circle class="(s\d+)[^"]*" cx="[0-9.]+" cy="[0-9.]+" r="3.5""#, in: svg))
        #expect(markerClasses.count == colours.count)
        #expect(markerClasses.contains(sweepClass))
    }

    @Test("no text of the trade-off chart runs into another: point labels, legend, axes and notes")
    func tradeoffLabelsKeepApart() {
        let svg = Self.charts.tradeoff().svg()
        let texts = SVGTexts.texts(svg).filter { !$0.text.isEmpty }
        #expect(texts.contains { $0.text.hasPrefix("ttl ") }, "the sweep's points are labelled")
        let rotated = Set(TestSupport.matches(#"<text [^>]*transform="[^"]*"[^>]*>([^<]*)</text>"#, in: svg))
        let boxes = texts.filter { !rotated.contains($0.text) }.map { t -> (text: String, box: (Double, Double, Double, Double)) in
            // Titles are larger than the 11–12 px text the estimate is for.
            let w = TextLayout.width(t.text) * (t.cls == "title" ? 1.3 : 1)
            let x0 = t.anchor == "end" ? t.x - w : t.anchor == "middle" ? t.x - w / 2 : t.x
            return (t.text, (x0, t.y - 11, x0 + w, t.y + 2))
        }
        for i in boxes.indices {
            for j in boxes.indices where j > i {
                let (a, b) = (boxes[i].box, boxes[j].box)
                #expect(!(a.0 < b.2 && b.0 < a.2 && a.1 < b.3 && b.1 < a.3), "\"\(boxes[i].text)\" runs into \"\(boxes[j].text)\"")
            }
        }
    }

    @Test("a tornado's values at the bar ends never run into the assumptions' names or off the canvas")
    func tornadoValuesKeepClearOfNames() {
        // The report's widest bars reach the axis start, where a value beyond the end would meet the name.
        let chart = TornadoChart(
            title: "t", subtitle: "s", valueTitle: "v", center: 97_280,
            bars: [
                TornadoBar(label: "platform.backgroundRunsPerDay", low: 80_980, high: 113_650),
                TornadoBar(label: "population.appOpensPerDay", low: 81_390, high: 119_990),
                TornadoBar(label: "population.neverOpenShare", low: 100_920, high: 94_700),
            ])
        let texts = SVGTexts.texts(chart.svg())
        func box(_ t: (cls: String, x: Double, y: Double, anchor: String, text: String)) -> (Double, Double, Double, Double) {
            let w = TextLayout.width(t.text)
            let x0 = t.anchor == "end" ? t.x - w : t.x
            return (x0, t.y - 11, x0 + w, t.y + 2)
        }
        let names = texts.filter { $0.text.contains(".") && $0.cls == "label" }
        let values = texts.filter { $0.cls == "note" }
        #expect(names.count == 3 && values.count == 6)
        for v in values {
            let b = box(v)
            #expect(b.0 >= 0 && b.2 <= 820, "\(v.text) stays on the canvas")
            for n in names {
                let a = box(n)
                #expect(!(a.0 < b.2 && b.0 < a.2 && a.1 < b.3 && b.1 < a.3), "\(v.text) runs into \(n.text)")
            }
        }
    }

    @Test("the cost chart plots each design's cost a month in dollars against users")
    func costChartInDollars() throws {
        let chart = try #require(Self.charts.costByUsers(), "the fixture's model has a price")
        #expect(chart.yScale.format == .dollars)
        #expect(chart.series.map(\.name) == Self.facts.designs)
        for s in chart.series {
            let rows = Self.facts.rows(s.name)
            #expect(s.points.map(\.x) == rows.map { Double($0.users) })
            #expect(s.points.map(\.y) == rows.compactMap { $0.cost?.perMonth.mean })
        }
        let svg = chart.svg()
        #expect(SVGTexts.texts(svg).contains { $0.text.hasPrefix("$") }, "tick labels in dollars")
        #expect(ReportFixtures.report.charts().map(\.name).contains(ReportCharts.File.costByUsers))
        #expect(ReportFixtures.report.markdown(linkCharts: true).contains("](cost-by-users.svg)"))
        #expect(AxisScale(kind: .log, format: .dollars, covering: [1, 100]).label(1_500) == "$1.5k")
    }
}
