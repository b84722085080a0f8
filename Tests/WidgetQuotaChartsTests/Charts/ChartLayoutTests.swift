import Foundation
import Testing
import WidgetQuotaCharts
import WidgetQuotaTestSupport

/// What a chart shows must be readable and complete: labels apart, text inside the canvas, and
/// a word for anything it cannot draw.
@Suite("chart layout") struct ChartLayoutTests {
    /// The text elements of an SVG: class, position, anchor and content.
    static func texts(_ svg: String) -> [(cls: String, x: Double, y: Double, anchor: String, text: String)] {
        SVGTexts.texts(svg)
    }

    /// The chart's notes beside the legend, their lines joined.
    static func notes(_ svg: String) -> String {
        texts(svg).filter { $0.cls == "note" && !$0.text.hasPrefix("point ") }.map(\.text).joined(separator: " ")
    }

    static func scatter(_ points: [ChartPoint], subtitle: String = "s", xKind: AxisScale.Kind = .linear) -> LineChart {
        LineChart(
            title: "t", subtitle: subtitle, xTitle: "x", yTitle: "y",
            xScale: AxisScale(kind: xKind, covering: points.map(\.x).filter { $0 > 0 }),
            yScale: AxisScale(kind: .log, covering: points.map(\.y).filter { $0 > 0 }),
            series: [ChartSeries(name: "crowd", points: points, style: .markers)])
    }

    @Test("point labels never overlap and the left out ones are counted") func pointLabelsNeverOverlapAndTheLeftOutOnesAreCounted() throws {
        // Thirty labelled points in a small corner of the plot.
        let points = (0..<30).map { ChartPoint(x: 1 + Double($0 % 6) * 0.05, y: 100 + Double($0 / 6) * 4, label: "point \($0)") }
        let svg = ChartLayoutTests.scatter(points + [ChartPoint(x: 10, y: 1_000)]).svg()
        let labels = ChartLayoutTests.texts(svg).filter { $0.text.hasPrefix("point ") }
        let boxes = labels.map { l -> (Double, Double, Double, Double) in
            let w = TextLayout.width(l.text)
            let x0 = l.anchor == "end" ? l.x - w : l.x
            return (x0, l.y - 12, x0 + w, l.y + 2)
        }
        for i in boxes.indices {
            for j in boxes.indices where j > i {
                let a = boxes[i]
                let b = boxes[j]
                #expect(!(a.0 < b.2 && b.0 < a.2 && a.1 < b.3 && b.1 < a.3), "\(labels[i].text) overlaps \(labels[j].text)")
            }
        }
        #expect(labels.count < 30, "the corner cannot hold thirty labels")
        let left = 30 - labels.count
        #expect(
            ChartLayoutTests.notes(svg).contains("\(left) point labels are left out for want of room"),
            "the chart says how many it left out")
    }

    @Test("a log axis says which values it cannot draw") func aLogAxisSaysWhichValuesItCannotDraw() {
        let withZero = ChartLayoutTests.scatter([ChartPoint(x: 1, y: 0), ChartPoint(x: 2, y: 10)]).svg()
        #expect(ChartLayoutTests.notes(withZero) == "Not drawn: values of zero or below, which a log scale cannot show (crowd).")
        let negativeX = ChartLayoutTests.scatter([ChartPoint(x: -1, y: 5), ChartPoint(x: 2, y: 10)], xKind: .log).svg()
        #expect(negativeX.contains("Not drawn"))
        let positive = ChartLayoutTests.scatter([ChartPoint(x: 1, y: 1), ChartPoint(x: 2, y: 10)]).svg()
        #expect(!positive.contains("Not drawn"))
        let notANumber = ChartLayoutTests.scatter([ChartPoint(x: 1, y: .nan), ChartPoint(x: 2, y: 10)]).svg()
        #expect(ChartLayoutTests.notes(notANumber) == "Not drawn: values that are not numbers (crowd).")
    }

    @Test("long subtitles wrap inside the canvas") func longSubtitlesWrapInsideTheCanvas() throws {
        let subtitle = Array(repeating: "a long explanation of the chart", count: 8).joined(separator: ", ")
        let svg = ChartLayoutTests.scatter([ChartPoint(x: 1, y: 1), ChartPoint(x: 2, y: 10)], subtitle: subtitle).svg()
        let lines = ChartLayoutTests.texts(svg).filter { $0.cls == "subtitle" }
        #expect(lines.count >= 2)
        #expect(lines.map(\.text).joined(separator: " ") == subtitle)
        for line in lines { #expect(line.x + TextLayout.width(line.text) <= LineChart.width, "\(line.text)") }
        // The plot starts below the last subtitle line.
        let gridTops = svg.components(separatedBy: "class=\"grid\"").dropFirst().compactMap { part -> Double? in
            guard let r = part.range(of: #"y1="([0-9.]+)""#, options: .regularExpression) else { return nil }
            return Double(part[r].dropFirst(4).dropLast())
        }
        #expect(gridTops.allSatisfy { $0 > lines.last!.y })
        // So does the legend.
        let legend = try #require(ChartLayoutTests.texts(svg).first { $0.text == "crowd" })
        #expect(legend.y > lines.last!.y + 8)
    }

    /// Lines that coincide stay visible: each one drawn over another is dashed.
    @Test("a line over another is dashed") func aLineOverAnotherIsDashed() {
        let points = [ChartPoint(x: 1, y: 10), ChartPoint(x: 2, y: 100)]
        let chart = LineChart(
            title: "t", subtitle: "s", xTitle: "x", yTitle: "y",
            xScale: AxisScale(kind: .linear, covering: [1, 2]), yScale: AxisScale(kind: .log, covering: [10, 100]),
            series: [
                ChartSeries(name: "a", points: points), ChartSeries(name: "b", points: points),
                ChartSeries(name: "c", points: points.map { ChartPoint(x: $0.x, y: $0.y * 3) }),
            ])
        let svg = chart.svg()
        #expect(svg.contains("<polyline class=\"line s0\""))
        #expect(svg.contains("<polyline class=\"line s1 d1\""))
        #expect(svg.contains("<polyline class=\"line s2\""))
        #expect(svg.contains(".line.d1 { stroke-dasharray"))
    }

    /// The narrow layout a phone's screen shows: 400 px wide, every text inside the canvas, the
    /// legend stacked under the plot's axis title, and the notes (here, left-out labels) within
    /// the height it grows to.
    @Test("the narrow layout keeps every text inside 400 px and stacks the legend under the plot")
    func narrowLayout() throws {
        let points = (0..<30).map { ChartPoint(x: 1 + Double($0 % 6) * 0.05, y: 100 + Double($0 / 6) * 4, label: "point \($0)") }
        var chart = ChartLayoutTests.scatter(
            points + [ChartPoint(x: 10, y: 1_000)], subtitle: String(repeating: "a long subtitle ", count: 8))
        chart.title = "A title long enough that a phone's width must wrap it onto a second line"
        chart.series += (1...4).map { ChartSeries(name: "series \($0)", points: [ChartPoint(x: 2, y: 200)]) }
        let svg = chart.svg(layout: .narrow)
        let size = try #require(TestSupportSVG.size(svg))
        #expect(size.width == 400)
        let texts = ChartLayoutTests.texts(svg)
        for t in texts {
            let w = TextLayout.width(t.text) * (t.cls == "title" ? 15.0 / 12 : 1)
            let x0 = t.anchor == "end" ? t.x - w : (t.anchor == "middle" ? t.x - w / 2 : t.x)
            #expect(x0 >= 0 && x0 + w <= 400 + 1, "\(t.text) runs off the width")
            #expect(t.y <= size.height, "\(t.text) is below the canvas")
        }
        #expect(texts.filter { $0.cls == "title" }.count == 2, "the title wraps")
        let axisTitle = try #require(texts.first { $0.text == "x" })
        for name in (1...4).map({ "series \($0)" }) + ["crowd"] {
            let entry = try #require(texts.first { $0.text == name })
            #expect(entry.y > axisTitle.y, "\(name) is under the plot")
        }
        #expect(ChartLayoutTests.notes(svg).contains("point labels are left out"))
    }
}

/// Reads an SVG document's size.
enum TestSupportSVG {
    static func size(_ svg: String) -> (width: Double, height: Double)? {
        let regex = try! NSRegularExpression(pattern: #"<svg [^>]*width="([^"]*)" height="([^"]*)""#)
        guard let m = regex.firstMatch(in: svg, range: NSRange(svg.startIndex..., in: svg)) else { return nil }
        func group(_ i: Int) -> Double? { Double(svg[Range(m.range(at: i), in: svg)!]) }
        guard let w = group(1), let h = group(2) else { return nil }
        return (w, h)
    }
}
