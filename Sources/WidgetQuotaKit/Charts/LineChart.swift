import Foundation

/// One point of a chart series; `label` is written beside the point in scatter charts.
public struct ChartPoint: Sendable, Equatable {
    public var x: Double
    public var y: Double
    public var label: String?
    public init(x: Double, y: Double, label: String? = nil) { self.x = x; self.y = y; self.label = label }
}

/// A named series of points, drawn as a line, as markers, or both.
public struct ChartSeries: Sendable, Equatable {
    public enum Style: Sendable, Equatable { case line, markers, lineAndMarkers }
    public var name: String
    public var points: [ChartPoint]
    public var style: Style
    public init(name: String, points: [ChartPoint], style: Style = .lineAndMarkers) {
        self.name = name; self.points = points; self.style = style
    }
}

/// A labelled horizontal line, such as a quota limit.
public struct ReferenceLine: Sendable, Equatable {
    public var label: String
    public var y: Double
    public init(label: String, y: Double) { self.label = label; self.y = y }
}

/// An x–y chart with axes, grid, legend and optional reference lines, drawn as SVG.
public struct LineChart: Sendable {
    public var title: String
    public var subtitle: String
    public var xTitle: String
    public var yTitle: String
    public var xScale: AxisScale
    public var yScale: AxisScale
    public var series: [ChartSeries]
    /// Drawn only where they fall inside the y axis.
    public var references: [ReferenceLine]

    public init(title: String, subtitle: String, xTitle: String, yTitle: String, xScale: AxisScale, yScale: AxisScale,
                series: [ChartSeries], references: [ReferenceLine] = []) {
        self.title = title; self.subtitle = subtitle; self.xTitle = xTitle; self.yTitle = yTitle
        self.xScale = xScale; self.yScale = yScale; self.series = series; self.references = references
    }

    static let width = 820.0, height = 460.0
    static let left = 84.0, top = 64.0, bottom = 58.0

    /// The chart as an SVG document.
    public func svg() -> String {
        let legendWidth = min(230, Double(series.map(\.name.count).max() ?? 0) * 7 + 44)
        let plotRight = LineChart.width - legendWidth - 16
        let plotBottom = LineChart.height - LineChart.bottom
        let plotWidth = plotRight - LineChart.left, plotHeight = plotBottom - LineChart.top
        func px(_ x: Double) -> Double { LineChart.left + xScale.position(x) * plotWidth }
        func py(_ y: Double) -> Double { plotBottom - yScale.position(y) * plotHeight }

        var c = SVGCanvas(width: LineChart.width, height: LineChart.height)
        c.text(title, LineChart.left, 24, class: "title")
        c.text(subtitle, LineChart.left, 42, class: "subtitle")
        for t in yScale.ticks {
            c.line(LineChart.left, py(t), plotRight, py(t), class: "grid")
            c.text(yScale.label(t), LineChart.left - 8, py(t) + 4, anchor: .end)
        }
        for t in xScale.ticks {
            c.line(px(t), LineChart.top, px(t), plotBottom, class: "grid")
            c.text(xScale.label(t), px(t), plotBottom + 18, anchor: .middle)
        }
        c.line(LineChart.left, plotBottom, plotRight, plotBottom, class: "axis")
        c.line(LineChart.left, LineChart.top, LineChart.left, plotBottom, class: "axis")
        c.text(xTitle, (LineChart.left + plotRight) / 2, LineChart.height - 14, anchor: .middle)
        c.text(yTitle, 18, (LineChart.top + plotBottom) / 2, anchor: .middle, rotate: true)
        for r in references where r.y >= yScale.lower && r.y <= yScale.upper {
            c.line(LineChart.left, py(r.y), plotRight, py(r.y), class: "reference")
            c.text(r.label, plotRight - 4, py(r.y) - 4, anchor: .end, class: "reference-label")
        }
        var labels = LabelPlacer()
        for (i, s) in series.enumerated() {
            let cls = ChartStyle.seriesClass(i)
            let points = s.points.filter { $0.x.isFinite && $0.y.isFinite && (yScale.kind == .linear || $0.y > 0) }
            // Dense series (a value a minute) get a thinner line so that overlapping curves stay readable.
            let weight = points.count > 200 ? " thin" : ""
            if s.style != .markers { c.polyline(points.map { (px($0.x), py($0.y)) }, class: "line " + cls + weight) }
            if s.style != .line {
                for p in points {
                    c.circle(px(p.x), py(p.y), r: 3.5, class: cls)
                    if let label = p.label { labels.place(label, x: px(p.x), y: py(p.y), on: &c) }
                }
            }
            let y = LineChart.top + 8 + Double(i) * 20
            c.line(plotRight + 16, y, plotRight + 40, y, class: "line " + cls)
            c.circle(plotRight + 28, y, r: 3, class: cls)
            c.text(s.name, plotRight + 46, y + 4)
        }
        return c.document(title: title, description: subtitle)
    }
}

/// Places point labels beside their points, trying a few positions so labels do not overlap.
struct LabelPlacer {
    private var taken: [(x0: Double, y0: Double, x1: Double, y1: Double)] = []

    /// Approximate width of `text` at the note font size.
    static func width(_ text: String) -> Double { Double(text.count) * 6.2 }

    mutating func place(_ text: String, x: Double, y: Double, on canvas: inout SVGCanvas) {
        let w = LabelPlacer.width(text), h = 12.0
        // (dx, dy, anchored at the end): right-above, right-below, left-above, left-below, further out.
        let candidates: [(Double, Double, Bool)] = [(7, -6, false), (7, 14, false), (-7, -6, true), (-7, 14, true),
                                                    (7, -20, false), (7, 28, false), (-7, -20, true), (-7, 28, true)]
        var chosen = candidates[0]
        var box = (x0: 0.0, y0: 0.0, x1: 0.0, y1: 0.0)
        for candidate in candidates {
            let x0 = candidate.2 ? x + candidate.0 - w : x + candidate.0
            let b = (x0: x0, y0: y + candidate.1 - h, x1: x0 + w, y1: y + candidate.1 + 2)
            box = b
            chosen = candidate
            if !taken.contains(where: { $0.x0 < b.x1 && b.x0 < $0.x1 && $0.y0 < b.y1 && b.y0 < $0.y1 }) { break }
        }
        taken.append(box)
        canvas.text(text, x + chosen.0, y + chosen.1, anchor: chosen.2 ? .end : .start, class: "note")
    }
}
